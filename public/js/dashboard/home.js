// The Dashboard page: dates and filters kept in the address, totals, the trend by day, week
// or month, and the breakdowns by museum, channel and district (each a chart and a table).
import { element, requireElement } from '../core/dom.js';
import { formatChange, formatDate, formatDateRange, formatDayMonth, formatDecimal, formatMonth, formatNumber, formatShare } from '../core/format.js';
import { t, tn } from '../core/i18n.js';
import { lang } from '../core/page.js';
import { drawBars, drawDoughnut, drawTrend, fitRows } from './charts.js';
import { cell, currency, deltaNode, money, fillRows, percentChange, resultsView, syncAddress } from './common.js';
import { createFilterBar, loadFilters } from './filters.js';
import { createRangePicker } from './range.js';

/** @typedef {import('./common.js').Totals} Totals */
/** @typedef {{ key: string, visitors: number, revenue: number }} Breakdown */
/** @typedef {{ start: string, end: string, label: string, visitors: number, revenue: number, partial: boolean }} SeriesPoint */

/**
 * The answer of GET /api/dashboard/summary.
 * @typedef {object} Summary
 * @property {{ start: string, end: string } | null} range
 * @property {Totals} totals
 * @property {(Totals & { kind: 'before' | 'yearEarlier', start: string | null, end: string | null }) | null} [previous] the same filters over as many days just before, or, for days apart, the same days a year earlier
 * @property {{ month: string, visitors: number, revenue: number }[]} monthly
 * @property {'day' | 'week' | 'month'} granularity
 * @property {SeriesPoint[]} series
 * @property {Breakdown[]} byMuseum
 * @property {Breakdown[]} byChannel
 * @property {Breakdown[]} byDistrict
 */

const exportLink = requireElement('#export-link', HTMLAnchorElement);
const filtersRoot = requireElement('[data-filters]', HTMLElement);
const rangeRoot = requireElement('[data-range]', HTMLElement);
const view = resultsView(() => (filterBar ? refresh() : start()));

/** @type {ReturnType<typeof createFilterBar> | undefined} */
let filterBar;
/** @type {ReturnType<typeof createRangePicker> | undefined} */
let rangePicker;

const UNIT_KEYS = { day: 'range.unitDay', week: 'range.unitWeek', month: 'range.unitMonth' };

const DAY_MS = 86_400_000;
/** @param {string} isoDay */
const dayNumber = (isoDay) => Date.parse(`${isoDay}T00:00:00Z`) / DAY_MS;

/**
 * A point of the trend: named by the days the selection covers when it covers only some of
 * the bucket ("Jan 1 – 5, 2025", not a week starting in December), with that share.
 * @param {SeriesPoint} point
 * @param {Summary['granularity']} unit
 * @param {Summary['range']} range
 * @param {boolean} yearsApart the series runs over more than one year, so its axis says which
 * @returns {import('./charts.js').TrendPoint}
 */
function trendPoint(point, unit, range, yearsApart) {
  const start = range && point.start < range.start ? range.start : point.start;
  const end = range && point.end > range.end ? range.end : point.end;
  const days = dayNumber(point.end) - dayNumber(point.start) + 1;
  const covered = dayNumber(end) - dayNumber(start) + 1;
  const cut = point.partial && covered < days;
  let label = formatDate(point.start);
  if (cut && unit !== 'day') label = formatDateRange(start, end);
  else if (unit === 'week') label = t('range.weekOf', { day: formatDate(point.start) });
  else if (unit === 'month') label = formatMonth(point.label);
  return {
    label,
    tick: unit === 'month' ? formatMonth(point.label) : yearsApart ? formatDate(start) : formatDayMonth(start),
    visitors: point.visitors,
    revenue: point.revenue,
    share: cut ? covered / days : 1,
    note: t('range.partialDays', { covered, days }),
  };
}

/**
 * The change against the earlier period, or `otherwise` when there is none to compare with.
 * @param {number} before
 * @param {number} after
 * @param {string} otherwise
 * @param {string} against what the change is measured against ("vs previous period")
 * @returns {string | (string | Node)[]}
 */
function versusEarlier(before, after, otherwise, against) {
  const pct = percentChange(before, after);
  if (pct === null) return otherwise;
  return [deltaNode(pct, formatChange(pct)), ` ${against}`];
}

/**
 * The totals, each against the earlier period the server chose: the days just before for one
 * run of days, the same days a year earlier for days apart (two seasons, two years apart),
 * and the change card says which.
 * @param {Summary} summary
 */
function renderTotals({ totals, previous }) {
  const perDay = totals.days > 0 ? totals.visitors / totals.days : 0;
  const before = previous ?? { visitors: 0, revenue: 0, days: 0 };
  const yearEarlier = previous?.kind === 'yearEarlier';
  const against = t(yearEarlier ? 'totals.vsYearEarlier' : 'totals.vsPrevious');
  const perVisitor = totals.visitors > 0 ? t('totals.perVisitor', { value: money(totals.revenue / totals.visitors) }) : '';
  requireElement('[data-kpi-label="change"]', HTMLElement, view.results).textContent = t(yearEarlier ? 'totals.changeYearEarlier' : 'totals.change');
  view.setKpi('visitors', formatNumber(totals.visitors), tn('totals.days', totals.days));
  view.setKpi('revenue', money(totals.revenue), versusEarlier(before.revenue, totals.revenue, perVisitor, against));
  view.setKpi('perDay', perDay >= 100 ? formatNumber(perDay) : formatDecimal(perDay), versusEarlier(before.days > 0 ? before.visitors / before.days : 0, perDay, '', against));
  const change = percentChange(before.visitors, totals.visitors);
  let note = t('totals.noPrevious');
  if (change !== null && previous?.start && previous.end) {
    note = yearEarlier
      ? t('totals.previousYearEarlier', { value: formatNumber(before.visitors) })
      : t('totals.previous', { value: formatNumber(before.visitors), range: formatDateRange(previous.start, previous.end) });
  }
  view.setKpi('change', change === null ? '—' : deltaNode(change, formatChange(change)), note);
}

/**
 * @param {HTMLElement} section
 * @param {Breakdown[]} rows
 * @param {number} total
 */
function renderBreakdown(section, rows, total) {
  const sorted = [...rows].sort((a, b) => b.visitors - a.visitors);
  const labels = sorted.map((r) => r.key);
  const visitors = sorted.map((r) => r.visitors);
  const box = requireElement('[data-chart-box]', HTMLElement, section);
  const canvas = requireElement('canvas', HTMLCanvasElement, box);
  if (section.dataset.breakdown === 'byChannel') {
    box.classList.add('chart-box-round');
    drawDoughnut(canvas, labels, visitors, t('charts.visitors'));
  } else {
    fitRows(box, sorted.length);
    drawBars(canvas, labels, visitors, t('charts.visitors'));
  }
  fillRows(requireElement('tbody', HTMLTableSectionElement, section), sorted, (row) => [
    cell(formatNumber(row.visitors), 'num'),
    cell(money(row.revenue), 'num'),
    cell(formatShare(total > 0 ? row.visitors / total : 0), 'num'),
  ]);
}

/** @param {string | undefined} name */
function breakdownOf(name) {
  return name === 'byMuseum' || name === 'byChannel' || name === 'byDistrict' ? name : null;
}

/** @param {unknown} answer */
function render(answer) {
  const summary = /** @type {Summary} */ (answer);
  rangePicker?.describe(summary.range, summary.granularity);
  if (summary.totals.visitors === 0 && summary.monthly.length === 0) {
    // A period and a year or season are both kept: say so when they share no day at all.
    const params = new URLSearchParams(window.location.search);
    const apart = summary.range === null && rangePicker?.current() && (params.has('year') || params.has('season'));
    return view.showState('empty', apart ? t('state.noCommonDays') : undefined);
  }
  view.showState(null);
  renderTotals(summary);
  const unit = summary.granularity;
  const yearsApart = summary.series.length > 0 && summary.series[0].start.slice(0, 4) !== summary.series[summary.series.length - 1].end.slice(0, 4);
  const points = summary.series.map((p) => trendPoint(p, unit, summary.range, yearsApart));
  requireElement('#trend-note', HTMLElement).textContent = t('charts.trendNote', { unit: t(UNIT_KEYS[unit]) });
  requireElement('#trend-partial', HTMLElement).hidden = !summary.series.some((p) => p.partial);
  drawTrend(requireElement('#trend-chart', HTMLCanvasElement), points, { visitors: t('charts.visitors'), revenue: t('charts.revenue'), currency });
  requireElement('#trend-rows', HTMLTableSectionElement).replaceChildren(
    ...summary.series.map((p, i) =>
      element('tr', { className: p.partial ? 'is-partial' : undefined }, [
        element('th', { scope: 'row' }, [points[i].label, p.partial ? ` (${t('range.partial')})` : '']),
        cell(formatNumber(p.visitors), 'num'),
        cell(money(p.revenue), 'num'),
      ]),
    ),
  );
  for (const section of view.results.querySelectorAll('[data-breakdown]')) {
    if (!(section instanceof HTMLElement)) continue;
    const name = breakdownOf(section.dataset.breakdown);
    renderBreakdown(section, name ? summary[name] : [], summary.totals.visitors);
  }
}

/** @param {URLSearchParams} params */
const queryOf = (params) => (params.toString() ? `?${params}` : '');

function refresh() {
  if (!filterBar || !rangePicker) return;
  syncAddress(rangePicker.appendAddress(filterBar.appendTo(new URLSearchParams())));
  const data = rangePicker.appendQuery(filterBar.appendTo(new URLSearchParams()));
  const exported = new URLSearchParams(data);
  exported.delete('granularity');
  // Arabic readers' weeks start on Sunday, as the workspace's calendar shows them.
  if (lang === 'ar') data.set('weekStart', 'sunday');
  exportLink.href = `/api/dashboard/export.csv${queryOf(exported)}`;
  return view.load(`/api/dashboard/summary${queryOf(data)}`, render);
}

async function start() {
  const filters = await loadFilters(view);
  if (!filters) {
    exportLink.hidden = true;
    return;
  }
  rangePicker = createRangePicker(rangeRoot, filters, () => void refresh());
  rangePicker.restore(new URLSearchParams(window.location.search));
  filterBar = createFilterBar(filtersRoot, filters, () => void refresh());
  filterBar.restore(new URLSearchParams(window.location.search));
  await refresh();
}

await start();
