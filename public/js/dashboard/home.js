// The Dashboard page: filters kept in the address, totals, the monthly trend and the
// breakdowns by museum, channel and district (each a chart and a table).
import {
  cell,
  deltaNode,
  fillRows,
  formatChange,
  formatDecimal,
  formatMoney,
  formatMonth,
  formatNumber,
  formatShare,
  percentChange,
  resultsView,
  syncAddress,
  t,
  tn,
} from './common.js';
import { drawBars, drawDoughnut, drawTrend, fitRows } from './charts.js';
import { createFilterBar, loadFilters } from './filters.js';

const exportLink = document.getElementById('export-link');
const filtersRoot = document.querySelector('[data-filters]');
const view = resultsView(() => (filterBar ? refresh() : start()));

let filterBar;

/** The change against the previous period, or `otherwise` when there is none to compare with. */
function versusPrevious(before, after, otherwise) {
  const pct = percentChange(before, after);
  if (pct === null) return otherwise;
  return [deltaNode(pct, formatChange(pct)), ` ${t('totals.vsPrevious')}`];
}

function renderTotals({ totals, previous }) {
  const perDay = totals.days > 0 ? totals.visitors / totals.days : 0;
  const before = previous ?? { visitors: 0, revenue: 0, days: 0 };
  const perVisitor = totals.visitors > 0 ? t('totals.perVisitor', { value: formatMoney(totals.revenue / totals.visitors) }) : '';
  view.setKpi('visitors', formatNumber(totals.visitors), tn('totals.days', totals.days));
  view.setKpi('revenue', formatMoney(totals.revenue), versusPrevious(before.revenue, totals.revenue, perVisitor));
  view.setKpi('perDay', perDay >= 100 ? formatNumber(perDay) : formatDecimal(perDay), versusPrevious(before.days > 0 ? before.visitors / before.days : 0, perDay, ''));
  const change = percentChange(before.visitors, totals.visitors);
  view.setKpi(
    'change',
    change === null ? '—' : deltaNode(change, formatChange(change)),
    change === null ? t('totals.noPrevious') : t('totals.previous', { value: formatNumber(before.visitors) }),
  );
}

function renderBreakdown(section, rows, total) {
  const sorted = [...rows].sort((a, b) => b.visitors - a.visitors);
  const labels = sorted.map((r) => r.key);
  const visitors = sorted.map((r) => r.visitors);
  const box = section.querySelector('[data-chart-box]');
  const canvas = box.querySelector('canvas');
  if (section.dataset.breakdown === 'byChannel') {
    box.classList.add('chart-box-round');
    drawDoughnut(canvas, labels, visitors, t('charts.visitors'));
  } else {
    fitRows(box, sorted.length);
    drawBars(canvas, labels, visitors, t('charts.visitors'));
  }
  fillRows(section.querySelector('tbody'), sorted, (row) => [
    cell(formatNumber(row.visitors), 'num'),
    cell(formatMoney(row.revenue), 'num'),
    cell(formatShare(total > 0 ? row.visitors / total : 0), 'num'),
  ]);
}

function render(summary) {
  if (summary.totals.visitors === 0 && summary.monthly.length === 0) return view.showState('empty');
  view.showState(null);
  renderTotals(summary);
  const months = [...summary.monthly].sort((a, b) => a.month.localeCompare(b.month));
  drawTrend(
    document.getElementById('trend-chart'),
    months.map((m) => formatMonth(m.month)),
    months.map((m) => m.visitors),
    months.map((m) => m.revenue),
    { visitors: t('charts.visitors'), revenue: t('charts.revenue') },
  );
  for (const section of view.results.querySelectorAll('[data-breakdown]')) {
    renderBreakdown(section, summary[section.dataset.breakdown] ?? [], summary.totals.visitors);
  }
}

function refresh() {
  const params = filterBar.appendTo(new URLSearchParams());
  syncAddress(params);
  const query = params.toString() ? `?${params}` : '';
  exportLink.href = `/api/dashboard/export.csv${query}`;
  return view.load(`/api/dashboard/summary${query}`, render);
}

async function start() {
  const filters = await loadFilters(view);
  if (!filters) {
    exportLink.hidden = true;
    return;
  }
  filterBar = createFilterBar(filtersRoot, filters, refresh);
  filterBar.restore(new URLSearchParams(window.location.search));
  await refresh();
}

start();
