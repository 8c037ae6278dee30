// The dashboard's charts, on the Chart.js that core/chart.js loads and sets up: its palette,
// numbers in the page's language, and, in Arabic, axes mirrored so that time and bars run from
// right to left.
import { GRID, direction, loadedChart } from '../core/chart.js';
import { formatCompact, formatCompactCurrency, formatMoney, formatNumber } from '../core/format.js';
import { isRtl } from '../core/page.js';

/**
 * @template {import('chart.js').ChartType} T
 * @typedef {import('chart.js').ChartConfiguration<T>} Config
 */
/** @typedef {NonNullable<NonNullable<import('chart.js').ChartOptions['plugins']>['legend']>} LegendOptions */
/** @typedef {NonNullable<NonNullable<import('chart.js').ChartOptions['plugins']>['tooltip']>} TooltipOptions */
/** @typedef {import('chart.js').ScaleOptions<'linear'>} LinearAxis */
/** @typedef {import('chart.js').ScaleOptions<'category'>} CategoryAxis */

export const PALETTE = ['#1f5fbf', '#0e9384', '#dc6803', '#7a5af8', '#c11574', '#15803d', '#4e5ba6', '#b54708', '#0086c9', '#667085'];
/** Chart.js, for the drawings below: each runs in a drawWhenNear, once Chart.js has loaded. */
function chartJs() {
  if (!loadedChart) throw new Error('a chart was drawn before Chart.js loaded');
  return loadedChart;
}

/** @returns {LegendOptions} */
function legend(display = true) {
  return { display, position: 'bottom', ...direction, labels: { usePointStyle: true, pointStyle: 'rectRounded', boxWidth: 10, boxHeight: 10, padding: 14 } };
}

/**
 * @param {string} [currency] the values are money in this currency (ISO 4217), not counts
 * @returns {TooltipOptions}
 */
function tooltip(currency) {
  return {
    ...direction,
    callbacks: {
      label: (ctx) => {
        const parsed = /** @type {number | { x: number, y: number }} */ (ctx.parsed);
        const value = typeof parsed === 'object' ? (ctx.chart.options.indexAxis === 'y' ? parsed.x : parsed.y) : parsed;
        return `${ctx.dataset.label || ctx.label}: ${currency ? formatMoney(value, currency) : formatNumber(value)}`;
      },
    },
  };
}

/**
 * @param {string} label
 * @param {number} max
 */
function shorten(label, max) {
  if (label.length <= max) return label;
  // The ellipsis takes the direction of the name it cuts, or an Arabic page would show a
  // Latin name as "…Museum of Isla".
  const mark = /[\u0590-\u08ff]/.test(label) ? '\u200f' : '\u200e';
  return `${label.slice(0, max - 1)}…${mark}`;
}

/**
 * A value axis: compact numbers, fewer of them on a phone so that they do not collide.
 * @param {Partial<LinearAxis>} [extra]
 * @returns {Partial<LinearAxis>}
 */
function valueAxis(extra = {}) {
  return {
    beginAtZero: true,
    ticks: { callback: (v) => formatCompact(Number(v)), maxTicksLimit: window.innerWidth < 600 ? 4 : 6 },
    grid: { color: GRID },
    border: { display: false },
    ...extra,
  };
}

/**
 * A category axis: mirrored in Arabic, long names shortened.
 * @param {Partial<CategoryAxis>} [options]
 * @returns {Partial<CategoryAxis>}
 */
function categoryAxis({ ticks = {}, ...rest } = {}) {
  return {
    reverse: isRtl,
    grid: { display: false },
    ...rest,
    ticks: {
      autoSkip: true,
      callback(value) {
        return shorten(this.getLabelForValue(Number(value)), this.chart.width < 480 ? 15 : 24);
      },
      ...ticks,
    },
  };
}

/**
 * Draws `config` on `canvas`. A chart of the same kind already there takes the new figures and
 * options in place (chart.update()), which Chart.js redraws without building its scales,
 * controllers and listeners again; another kind replaces it.
 * @template {import('chart.js').ChartType} T
 * @param {HTMLCanvasElement} canvas
 * @param {Config<T>} config
 * @returns {import('chart.js').Chart<T>}
 */
function draw(canvas, config) {
  const Chart = chartJs();
  const existing = Chart.getChart(canvas);
  if (existing && /** @type {{ type?: string }} */ (existing.config).type === config.type) {
    const chart = /** @type {import('chart.js').Chart<T>} */ (/** @type {unknown} */ (existing));
    chart.data = config.data;
    chart.options = /** @type {import('chart.js').Chart<T>['options']} */ (config.options ?? {});
    chart.update();
    return chart;
  }
  existing?.destroy();
  // A chart's first drawing is not animated: growing from nothing tells the reader nothing, and
  // its frames took the phone's main thread for a second after the figures came. Changes to
  // figures already shown still move, which shows what changed.
  const firstDrawing = /** @type {{ options?: Record<string, unknown> }} */ (config);
  firstDrawing.options = { ...firstDrawing.options, animation: false };
  return new Chart(canvas, config);
}

/**
 * @typedef {object} TrendPoint
 * @property {string} label the bucket's full name (tooltip and table)
 * @property {string} tick its short name, for the axis
 * @property {number} visitors
 * @property {number} revenue
 * @property {number} share the part of the bucket's days the selection covers: 1 when whole
 * @property {string} note what the tooltip adds to a partial bucket's figures ("3 of 7 days")
 */

/**
 * What a click on a bar, slice or point does: `onPick` gets the index of what was clicked,
 * and the pointer says such a thing can be clicked.
 * @param {((index: number) => void) | undefined} onPick
 * @returns {Pick<import('chart.js').ChartOptions, 'onClick' | 'onHover'>}
 */
function pickable(onPick) {
  if (!onPick) return {};
  return {
    onClick: (_event, elements) => {
      if (elements.length > 0) onPick(elements[0].index);
    },
    onHover: (event, elements) => {
      const target = event.native?.target;
      if (target instanceof HTMLElement) target.style.cursor = elements.length > 0 ? 'pointer' : '';
    },
  };
}

/**
 * @typedef {object} TrendOptions
 * @property {'visitors' | 'revenue'} metric the figure drawn
 * @property {string} label its name, for the legend
 * @property {string} currency ISO 4217 code of revenue
 * @property {{ label: string, values: number[] }} [earlier] the same days a year earlier, point for point
 * @property {{ label: string, values: (number | null)[] }} [average] a rolling average, null where it has too few days
 * @property {(index: number) => void} [onPick] a point was clicked
 * @property {NoteMarks} [notes] notes drawn on the trend
 */

/**
 * Notes drawn on the trend: a dashed line at a day's point, a pale band over several. After
 * each layout (a new drawing, a resize), `placed` learns where the points now are, to put
 * what goes over the chart (the notes' pins) in the same places.
 * @typedef {object} NoteMarks
 * @property {() => { from: number, to: number }[]} list the points each note spans, by index
 * @property {(xOf: (index: number) => number, top: number) => void} placed
 */

/**
 * The notes each trend draws now. A chart updated in place keeps the plugins it was made with,
 * so the one notes plugin looks up the latest drawing's notes by canvas.
 * @type {WeakMap<HTMLCanvasElement, NoteMarks>}
 */
const noteSources = new WeakMap();

/** @type {import('chart.js').Plugin<'line'>} */
const NOTES = {
  id: 'notes',
  beforeDatasetsDraw(chart) {
    const notes = noteSources.get(chart.canvas);
    if (!notes) return;
    const { ctx, chartArea, scales } = chart;
    const step = scales.x.getPixelForValue(1) - scales.x.getPixelForValue(0) || 0;
    ctx.save();
    for (const mark of notes.list()) {
      const from = scales.x.getPixelForValue(mark.from);
      const to = scales.x.getPixelForValue(mark.to);
      if (mark.from === mark.to) {
        ctx.strokeStyle = 'rgba(122, 90, 248, 0.7)';
        ctx.setLineDash([4, 4]);
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        ctx.moveTo(from, chartArea.top);
        ctx.lineTo(from, chartArea.bottom);
        ctx.stroke();
      } else {
        ctx.fillStyle = 'rgba(122, 90, 248, 0.1)';
        const left = Math.min(from, to) - Math.abs(step) / 2;
        const right = Math.max(from, to) + Math.abs(step) / 2;
        ctx.fillRect(Math.max(left, chartArea.left), chartArea.top, Math.min(right, chartArea.right) - Math.max(left, chartArea.left), chartArea.bottom - chartArea.top);
      }
    }
    ctx.restore();
  },
  afterUpdate(chart) {
    noteSources.get(chart.canvas)?.placed((index) => chart.scales.x.getPixelForValue(index), chart.chartArea.top);
  },
};

/**
 * Visitors or revenue per day, week or month (an area), with, when asked, the same days a
 * year earlier (a dashed grey line) and a rolling average (a thin line). A partial bucket
 * (cut by the range or by the data's end) is drawn at its daily pace over the whole bucket,
 * as a hollow point reached by a dotted, paler line: three days of a week then sit where a
 * week at that pace would, instead of reading as a fall; its year-earlier match covers the
 * same days and is drawn at the same pace. Tooltips give the actual figures.
 * @param {HTMLCanvasElement} canvas
 * @param {TrendPoint[]} points
 * @param {TrendOptions} options
 */
export function drawTrend(canvas, points, options) {
  const { metric } = options;
  const format = (/** @type {number} */ n) => (metric === 'revenue' ? formatMoney(n, options.currency) : formatNumber(n));
  const partial = points.map((p) => p.share < 1);
  /** @typedef {{ p0DataIndex: number, p1DataIndex: number }} Segment */
  /** @param {Segment} ctx */
  const touchesPartial = (ctx) => partial[ctx.p0DataIndex] || partial[ctx.p1DataIndex];
  const colour = metric === 'revenue' ? PALETTE[2] : PALETTE[0];
  const pale = metric === 'revenue' ? `${PALETTE[2]}73` : 'rgba(31, 95, 191, 0.45)';
  const monotone = /** @type {const} */ ('monotone');
  /** Each line's colour, for its legend swatch. */
  const colours = [colour];
  /** @type {import('chart.js').ChartDataset<'line'>[]} */
  const datasets = [
    {
      label: options.label,
      data: points.map((p) => p[metric] / p.share),
      borderColor: colour,
      backgroundColor: metric === 'revenue' ? `${PALETTE[2]}1f` : 'rgba(31, 95, 191, 0.12)',
      fill: true,
      borderWidth: 2,
      tension: 0.3,
      // Monotone curves never swing above or below the points they join.
      cubicInterpolationMode: monotone,
      // Points of a long series would run together into a thick line; the partial ones stay.
      pointRadius: partial.map((isPartial) => (isPartial ? 4 : points.length <= 60 ? 2 : 0)),
      pointBackgroundColor: partial.map((isPartial) => (isPartial ? '#fff' : colour)),
      pointBorderColor: partial.map((isPartial) => (isPartial ? pale : colour)),
      // Styles worked out segment by segment cost Chart.js a call per segment for each option:
      // only a series with a partial bucket asks for them.
      ...(partial.includes(true)
        ? {
            segment: {
              borderDash: (/** @type {Segment} */ ctx) => (touchesPartial(ctx) ? [3, 4] : undefined),
              borderColor: (/** @type {Segment} */ ctx) => (touchesPartial(ctx) ? pale : undefined),
            },
          }
        : {}),
    },
  ];
  if (options.earlier) {
    const values = options.earlier.values;
    colours.push(PALETTE[9]);
    datasets.push({
      label: options.earlier.label,
      data: points.map((p, i) => (values[i] ?? 0) / p.share),
      borderColor: PALETTE[9],
      backgroundColor: PALETTE[9],
      borderDash: [6, 4],
      borderWidth: 2,
      tension: 0.3,
      cubicInterpolationMode: monotone,
      pointRadius: 0,
    });
  }
  if (options.average) {
    colours.push(PALETTE[4]);
    datasets.push({
      label: options.average.label,
      data: options.average.values,
      borderColor: PALETTE[4],
      backgroundColor: PALETTE[4],
      borderWidth: 2,
      tension: 0.3,
      cubicInterpolationMode: monotone,
      pointRadius: 0,
      spanGaps: false,
    });
  }
  /** The actual figures of the lines drawn at a pace; the average has none of its own. @type {Partial<Record<number, (index: number) => string>>} */
  const actual = {
    0: (i) => `${format(points[i][metric])}${points[i].share < 1 ? ` (${points[i].note})` : ''}`,
  };
  if (options.earlier) actual[1] = (i) => format(options.earlier?.values[i] ?? 0);
  const chartLegend = legend();
  /** @type {Config<'line'>} */
  const config = {
    type: 'line',
    plugins: [NOTES],
    data: { labels: points.map((p) => p.label), datasets },
    options: {
      interaction: { mode: 'index', intersect: false },
      ...pickable(options.onPick),
      plugins: {
        legend: {
          ...chartLegend,
          labels: {
            ...chartLegend.labels,
            // A legend swatch takes its line's colour, never a hollow partial point's.
            generateLabels: (chart) =>
              chartJs().defaults.plugins.legend.labels.generateLabels(chart).map((item) => {
                const swatch = colours[item.datasetIndex ?? 0];
                return { ...item, fillStyle: swatch, strokeStyle: swatch };
              }),
          },
        },
        tooltip: {
          ...direction,
          callbacks: {
            label: (ctx) => {
              const write = actual[ctx.datasetIndex];
              const value = write ? write(ctx.dataIndex) : format(Number(ctx.parsed.y));
              return `${ctx.dataset.label}: ${value}`;
            },
          },
        },
      },
      scales: {
        x: categoryAxis({
          ticks: {
            autoSkip: true,
            maxRotation: 0,
            autoSkipPadding: 16,
            callback(value) {
              return points[Number(value)]?.tick ?? '';
            },
          },
        }),
        y: valueAxis({
          position: isRtl ? 'right' : 'left',
          ...(metric === 'revenue' ? { ticks: { callback: (v) => formatCompactCurrency(Number(v), options.currency), maxTicksLimit: window.innerWidth < 600 ? 4 : 6 } } : {}),
        }),
      },
    },
  };
  if (options.notes) noteSources.set(canvas, options.notes);
  else noteSources.delete(canvas);
  return draw(canvas, config);
}

/**
 * One bar per key, horizontal so that long names stay readable on a phone.
 * @param {HTMLCanvasElement} canvas
 * @param {string[]} labels
 * @param {number[]} values
 * @param {string} name
 * @param {{ currency?: string, onPick?: (index: number) => void }} [options] money in this currency; a bar was clicked
 */
export function drawBars(canvas, labels, values, name, options = {}) {
  const ticks = options.currency ? { callback: (/** @type {number | string} */ v) => formatCompactCurrency(Number(v), options.currency ?? ''), maxTicksLimit: window.innerWidth < 600 ? 4 : 6 } : undefined;
  return draw(canvas, {
    type: 'bar',
    data: { labels, datasets: [{ label: name, data: values, backgroundColor: labels.map((_, i) => PALETTE[i % PALETTE.length]), borderRadius: 4, maxBarThickness: 26 }] },
    options: {
      indexAxis: 'y',
      ...pickable(options.onPick),
      plugins: { legend: legend(false), tooltip: tooltip(options.currency) },
      scales: { x: valueAxis({ reverse: isRtl, ...(ticks ? { ticks } : {}) }), y: categoryAxis({ reverse: false, position: isRtl ? 'right' : 'left', ticks: { autoSkip: false } }) },
    },
  });
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {string[]} labels
 * @param {number[]} values
 * @param {string} name
 * @param {{ currency?: string, onPick?: (index: number) => void }} [options] money in this currency; a slice was clicked
 */
export function drawDoughnut(canvas, labels, values, name, options = {}) {
  /** @type {Config<'doughnut'>} */
  const config = {
    type: 'doughnut',
    data: { labels, datasets: [{ label: name, data: values, backgroundColor: labels.map((_, i) => PALETTE[i % PALETTE.length]), borderColor: '#fff', borderWidth: 2 }] },
    options: { cutout: '62%', ...pickable(options.onPick), plugins: { legend: legend(), tooltip: tooltip(options.currency) } },
  };
  return draw(canvas, config);
}

/**
 * Two bars per key, one for each period of a comparison.
 * @param {HTMLCanvasElement} canvas
 * @param {string[]} labels
 * @param {{ label: string, data: number[] }[]} series
 * @param {string} [currency] the values are money in this currency, not visitors
 */
export function drawGrouped(canvas, labels, series, currency) {
  const ticks = currency ? { callback: (/** @type {number | string} */ v) => formatCompactCurrency(Number(v), currency), maxTicksLimit: window.innerWidth < 600 ? 4 : 6 } : undefined;
  return draw(canvas, {
    type: 'bar',
    data: {
      labels,
      datasets: series.map((s, i) => ({ label: s.label, data: s.data, backgroundColor: PALETTE[i === 0 ? 9 : 0], borderRadius: 4, maxBarThickness: 22 })),
    },
    options: {
      indexAxis: 'y',
      interaction: { mode: 'index', intersect: false },
      plugins: { legend: legend(), tooltip: tooltip(currency) },
      scales: { x: valueAxis({ reverse: isRtl, ...(ticks ? { ticks } : {}) }), y: categoryAxis({ reverse: false, position: isRtl ? 'right' : 'left', ticks: { autoSkip: false } }) },
    },
  });
}

/**
 * Gives a horizontal bar chart room for every row.
 * @param {HTMLElement} box
 * @param {number} rows
 */
export function fitRows(box, rows, perRow = 34) {
  box.style.blockSize = `${Math.max(180, rows * perRow + 50)}px`;
}
