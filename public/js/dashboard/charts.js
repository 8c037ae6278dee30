// The dashboard's charts, on the Chart.js that core/chart.js sets up: the dashboard's colours
// and type size, numbers in the page's language, and, in Arabic, axes mirrored so that time
// and bars run from right to left.
import { Chart, direction } from '../core/chart.js';
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
const GRID = '#e8ebf0';

Chart.defaults.font.size = 12;
Chart.defaults.color = '#4a5262';
Chart.defaults.borderColor = GRID;

/** @returns {LegendOptions} */
function legend(display = true) {
  return { display, position: 'bottom', ...direction, labels: { usePointStyle: true, pointStyle: 'rectRounded', boxWidth: 10, boxHeight: 10, padding: 14 } };
}

/** @returns {TooltipOptions} */
function tooltip() {
  return {
    ...direction,
    callbacks: {
      label: (ctx) => {
        const parsed = /** @type {number | { x: number, y: number }} */ (ctx.parsed);
        const value = typeof parsed === 'object' ? (ctx.chart.options.indexAxis === 'y' ? parsed.x : parsed.y) : parsed;
        return `${ctx.dataset.label || ctx.label}: ${formatNumber(value)}`;
      },
    },
  };
}

/**
 * @param {string} label
 * @param {number} max
 */
function shorten(label, max) {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
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
        return shorten(String(this.getLabelForValue(Number(value))), this.chart.width < 480 ? 15 : 24);
      },
      ...ticks,
    },
  };
}

/**
 * @template {import('chart.js').ChartType} T
 * @param {HTMLCanvasElement} canvas
 * @param {Config<T>} config
 */
function draw(canvas, config) {
  Chart.getChart(canvas)?.destroy();
  return new Chart(canvas, config);
}

/**
 * Visitors (area, first axis) and revenue (dashed line, second axis) per day, week or month.
 * A partial bucket (cut by the range or by the data's end) is drawn as a hollow point reached
 * by a dotted, paler line, so its lower figure does not read as a fall.
 * @param {HTMLCanvasElement} canvas
 * @param {string[]} labels
 * @param {number[]} visitors
 * @param {number[]} revenue
 * @param {{ visitors: string, revenue: string, currency: string }} names
 * @param {boolean[]} [partial]
 */
export function drawTrend(canvas, labels, visitors, revenue, names, partial = []) {
  const start = isRtl ? 'right' : 'left';
  const end = isRtl ? 'left' : 'right';
  /** @param {{ p0DataIndex: number, p1DataIndex: number }} ctx */
  const touchesPartial = (ctx) => Boolean(partial[ctx.p0DataIndex] || partial[ctx.p1DataIndex]);
  const pale = 'rgba(31, 95, 191, 0.45)';
  const paleRevenue = `${PALETTE[2]}73`;
  return draw(canvas, {
    type: 'line',
    data: {
      labels,
      datasets: [
        {
          label: names.visitors,
          data: visitors,
          yAxisID: 'visitors',
          borderColor: PALETTE[0],
          backgroundColor: 'rgba(31, 95, 191, 0.12)',
          fill: true,
          tension: 0.3,
          borderWidth: 2,
          pointRadius: visitors.map((_, i) => (partial[i] ? 4 : 2)),
          pointBackgroundColor: visitors.map((_, i) => (partial[i] ? '#fff' : PALETTE[0])),
          pointBorderColor: visitors.map((_, i) => (partial[i] ? pale : PALETTE[0])),
          segment: { borderDash: (ctx) => (touchesPartial(ctx) ? [3, 4] : undefined), borderColor: (ctx) => (touchesPartial(ctx) ? pale : undefined) },
        },
        {
          label: names.revenue,
          data: revenue,
          yAxisID: 'revenue',
          borderColor: PALETTE[2],
          backgroundColor: PALETTE[2],
          borderDash: [6, 4],
          tension: 0.3,
          borderWidth: 2,
          // Only a partial bucket shows a point, hollow, as on the visitors' line.
          pointRadius: revenue.map((_, i) => (partial[i] ? 4 : 0)),
          pointBackgroundColor: '#fff',
          pointBorderColor: paleRevenue,
          segment: { borderDash: (ctx) => (touchesPartial(ctx) ? [2, 5] : undefined), borderColor: (ctx) => (touchesPartial(ctx) ? paleRevenue : undefined) },
        },
      ],
    },
    options: {
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: legend(),
        tooltip: {
          ...tooltip(),
          callbacks: {
            label: (ctx) =>
              `${ctx.dataset.label}: ${ctx.dataset.yAxisID === 'revenue' ? formatMoney(Number(ctx.parsed.y), names.currency) : formatNumber(Number(ctx.parsed.y))}`,
          },
        },
      },
      scales: {
        x: categoryAxis({ ticks: { autoSkip: true, maxRotation: 0, autoSkipPadding: 12 } }),
        visitors: valueAxis({ position: start }),
        revenue: valueAxis({
          position: end,
          grid: { display: false },
          ticks: { callback: (v) => formatCompactCurrency(Number(v), names.currency), maxTicksLimit: window.innerWidth < 600 ? 4 : 6 },
        }),
      },
    },
  });
}

/**
 * One bar per key, horizontal so that long names stay readable on a phone.
 * @param {HTMLCanvasElement} canvas
 * @param {string[]} labels
 * @param {number[]} values
 * @param {string} name
 */
export function drawBars(canvas, labels, values, name) {
  return draw(canvas, {
    type: 'bar',
    data: { labels, datasets: [{ label: name, data: values, backgroundColor: labels.map((_, i) => PALETTE[i % PALETTE.length]), borderRadius: 4, maxBarThickness: 26 }] },
    options: {
      indexAxis: 'y',
      plugins: { legend: legend(false), tooltip: tooltip() },
      scales: { x: valueAxis({ reverse: isRtl }), y: categoryAxis({ reverse: false, position: isRtl ? 'right' : 'left', ticks: { autoSkip: false } }) },
    },
  });
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {string[]} labels
 * @param {number[]} values
 * @param {string} name
 */
export function drawDoughnut(canvas, labels, values, name) {
  /** @type {Config<'doughnut'>} */
  const config = {
    type: 'doughnut',
    data: { labels, datasets: [{ label: name, data: values, backgroundColor: labels.map((_, i) => PALETTE[i % PALETTE.length]), borderColor: '#fff', borderWidth: 2 }] },
    options: { cutout: '62%', plugins: { legend: legend(), tooltip: tooltip() } },
  };
  return draw(canvas, config);
}

/**
 * Two bars per key, one for each period of a comparison.
 * @param {HTMLCanvasElement} canvas
 * @param {string[]} labels
 * @param {{ label: string, data: number[] }[]} series
 */
export function drawGrouped(canvas, labels, series) {
  return draw(canvas, {
    type: 'bar',
    data: {
      labels,
      datasets: series.map((s, i) => ({ label: s.label, data: s.data, backgroundColor: PALETTE[i === 0 ? 9 : 0], borderRadius: 4, maxBarThickness: 22 })),
    },
    options: {
      indexAxis: 'y',
      interaction: { mode: 'index', intersect: false },
      plugins: { legend: legend(), tooltip: tooltip() },
      scales: { x: valueAxis({ reverse: isRtl }), y: categoryAxis({ reverse: false, position: isRtl ? 'right' : 'left', ticks: { autoSkip: false } }) },
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
