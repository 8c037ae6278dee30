// Chart.js (loaded by a plain <script> as window.Chart) set up once for the dashboard: the
// page's font and language for numbers, and, in Arabic, legends, tooltips and axes mirrored
// so that time and bars run from right to left.
import { formatCompact, formatNumber, isRtl, lang } from './common.js';

const { Chart } = window;

export const PALETTE = ['#1f5fbf', '#0e9384', '#dc6803', '#7a5af8', '#c11574', '#15803d', '#4e5ba6', '#b54708', '#0086c9', '#667085'];
const GRID = '#e8ebf0';

Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
Chart.defaults.font.size = 12;
Chart.defaults.color = '#4a5262';
Chart.defaults.borderColor = GRID;
Chart.defaults.locale = lang;
Chart.defaults.maintainAspectRatio = false;
if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) Chart.defaults.animation = false;

const direction = { rtl: isRtl, textDirection: isRtl ? 'rtl' : 'ltr' };

function legend(display = true) {
  return { display, position: 'bottom', ...direction, labels: { usePointStyle: true, pointStyle: 'rectRounded', boxWidth: 10, boxHeight: 10, padding: 14 } };
}

function tooltip() {
  return {
    ...direction,
    callbacks: {
      label: (ctx) => {
        const value = ctx.parsed && typeof ctx.parsed === 'object' ? (ctx.chart.options.indexAxis === 'y' ? ctx.parsed.x : ctx.parsed.y) : ctx.parsed;
        return `${ctx.dataset.label || ctx.label}: ${formatNumber(value)}`;
      },
    },
  };
}

function shorten(label, max) {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

/** A value axis: compact numbers, fewer of them on a phone so that they do not collide. */
function valueAxis(extra = {}) {
  const ticks = { callback: (v) => formatCompact(v), maxTicksLimit: window.innerWidth < 600 ? 4 : 6 };
  return { beginAtZero: true, ticks, grid: { color: GRID }, border: { display: false }, ...extra };
}

/** A category axis: mirrored in Arabic, long names shortened. */
function categoryAxis({ ticks = {}, ...rest } = {}) {
  return {
    reverse: isRtl,
    grid: { display: false },
    ...rest,
    ticks: {
      autoSkip: true,
      callback(value) {
        return shorten(String(this.getLabelForValue(value)), this.chart.width < 480 ? 15 : 24);
      },
      ...ticks,
    },
  };
}

function draw(canvas, config) {
  Chart.getChart(canvas)?.destroy();
  return new Chart(canvas, config);
}

/** Monthly visitors (area, first axis) and revenue (dashed line, second axis). */
export function drawTrend(canvas, labels, visitors, revenue, names) {
  const start = isRtl ? 'right' : 'left';
  const end = isRtl ? 'left' : 'right';
  return draw(canvas, {
    type: 'line',
    data: {
      labels,
      datasets: [
        { label: names.visitors, data: visitors, yAxisID: 'visitors', borderColor: PALETTE[0], backgroundColor: 'rgba(31, 95, 191, 0.12)', fill: true, tension: 0.3, pointRadius: 2, borderWidth: 2 },
        { label: names.revenue, data: revenue, yAxisID: 'revenue', borderColor: PALETTE[2], backgroundColor: PALETTE[2], borderDash: [6, 4], tension: 0.3, pointRadius: 0, borderWidth: 2 },
      ],
    },
    options: {
      interaction: { mode: 'index', intersect: false },
      plugins: { legend: legend(), tooltip: tooltip() },
      scales: {
        x: categoryAxis({ ticks: { autoSkip: true, maxRotation: 0, autoSkipPadding: 12 } }),
        visitors: valueAxis({ position: start }),
        revenue: valueAxis({ position: end, grid: { display: false } }),
      },
    },
  });
}

/** One bar per key, horizontal so that long names stay readable on a phone. */
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

export function drawDoughnut(canvas, labels, values, name) {
  return draw(canvas, {
    type: 'doughnut',
    data: { labels, datasets: [{ label: name, data: values, backgroundColor: labels.map((_, i) => PALETTE[i % PALETTE.length]), borderColor: '#fff', borderWidth: 2 }] },
    options: { cutout: '62%', plugins: { legend: legend(), tooltip: tooltip() } },
  });
}

/** Two bars per key, one for each period of a comparison. */
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

/** Gives a horizontal bar chart room for every row. */
export function fitRows(box, rows, perRow = 34) {
  box.style.blockSize = `${Math.max(180, rows * perRow + 50)}px`;
}
