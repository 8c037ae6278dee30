// The Dashboard page: dates and filters kept in the address, totals, the trend by day, week
// or month (visitors or revenue, with the same days a year earlier and a 7-day average when
// asked), and the breakdowns by museum, channel and district (each a chart and a sortable
// table, the top ten and the rest as "Other"). A bar, slice, row or point drills down: it
// adds that filter or period as a step, the address keeps the steps, breadcrumbs lead back.
// A saved view opens by its id (`view=<id>`): the server reads its address under the
// reader's own access, until the reader changes something.
import { element, nextTask, requireElement } from '../core/dom.js';
import { formatChange, formatDate, formatDateRange, formatDayMonth, formatDecimal, formatMonth, formatNumber, compareText, formatShare } from '../core/format.js';
import { t, tn } from '../core/i18n.js';
import { lang } from '../core/page.js';
import { drawWhenNear } from '../core/chart.js';
import { drawBars, drawDoughnut, drawTrend, fitRows } from './charts.js';
import { cell, currency, deltaNode, drawBreakdownsInTurn, money, fillRows, percentChange, resultsView, syncAddress } from './common.js';
import { baseOf, effective, periodStep, readSteps, withSteps } from './drill.js';
import { createFilterBar, loadFilters, readFilters } from './filters.js';
import { createRangePicker } from './range.js';
import { sortRows, sortableBreakdowns } from './sortable.js';
import { createViewsMenu, viewOfAddress } from './views.js';
import { createNotes } from './notes.js';
import { createReports } from './reports.js';
import { readJsonAttribute } from '../core/page.js';
import { offerNewFigures } from './live.js';

/** @typedef {import('./common.js').Totals} Totals */
/** @typedef {{ key: string, visitors: number, revenue: number }} Breakdown */
/** @typedef {{ start: string, end: string, label: string, visitors: number, revenue: number, partial: boolean }} SeriesPoint */
/** @typedef {import('./drill.js').Step} Step */
/** @typedef {'visitors' | 'revenue'} Metric */

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
 * @property {{ start: string, end: string, visitors: number, revenue: number }[]} [earlier] asked with earlier=year: each point's days a year before
 */

const exportLink = requireElement('#export-link', HTMLAnchorElement);
const excelLink = requireElement('#export-xlsx-link', HTMLAnchorElement);
const filtersRoot = requireElement('[data-filters]', HTMLElement);
const rangeRoot = requireElement('[data-range]', HTMLElement);
const crumbs = requireElement('[data-crumbs]', HTMLElement);
const metricChoice = requireElement('[data-metric]', HTMLFieldSetElement);
const earlierChoice = requireElement('#trend-earlier', HTMLInputElement);
const averageChoice = requireElement('#trend-average', HTMLInputElement);
const viewNotice = requireElement('#view-notice', HTMLElement);
const view = resultsView(() => (filterBar ? refresh() : start()));

/** Breakdowns show this many values, the rest summed as "Other" until the reader shows them all. */
const TOP = 10;
/** The days a rolling average of a day series spans. */
const AVERAGE_DAYS = 7;
/** The page's own choices in the address, beside the filters and the drill-down steps. */
const CHOICES = ['metric', 'yearEarlier', 'average'];

/** The reader's own selection (filters and dates, as the bars set them), without the steps. */
let base = new URLSearchParams();
/** The drill-down steps taken from `base`, in order. @type {Step[]} */
let steps = [];
/** The last answer, drawn again when a chart choice or a table's order changes. @type {Summary | undefined} */
let shown;
/** The saved view shown as it was saved, whose figures the server reads by its id; null once anything changes. @type {import('./views.js').SavedView | null} */
let openView = null;
/** @type {ReturnType<typeof createViewsMenu> | undefined} */
let viewsMenu;
/** @type {ReturnType<typeof createNotes> | undefined} */
let notes;
/** The trend as last drawn, redrawn when its notes arrive. @type {import('chart.js').Chart<'line'> | undefined} */
let trendChart;
/** What the server says this reader may do on the page. */
const context = /** @type {{ can?: { writeNotes?: boolean, scheduleForOthers?: boolean }, me?: number | null }} */ (readJsonAttribute('data-context'));
const can = context.can ?? {};
/** Breakdowns whose every value is shown, not only the top ten. */
const expanded = new Set();
/** @type {Record<BreakdownName, import('./sortable.js').SortOrder>} */
const orders = {
  byMuseum: { key: 'visitors', direction: 'descending' },
  byChannel: { key: 'visitors', direction: 'descending' },
  byDistrict: { key: 'visitors', direction: 'descending' },
};
/** @typedef {'byMuseum' | 'byChannel' | 'byDistrict'} BreakdownName */
/** @type {Record<BreakdownName, import('./drill.js').Dimension>} */
const DIMENSION_OF = { byMuseum: 'museum', byChannel: 'channel', byDistrict: 'district' };

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

/** The figure the charts draw. @returns {Metric} */
function metric() {
  const checked = metricChoice.querySelector('input:checked');
  return checked instanceof HTMLInputElement && checked.value === 'revenue' ? 'revenue' : 'visitors';
}

/**
 * Takes a drill-down step: the figures narrow to it, and the address and breadcrumbs gain it.
 * A step that changes nothing (the museum already chosen alone, the period already shown) is
 * not taken.
 * @param {Step} step
 */
function drill(step) {
  const now = effective(withSteps(base, steps));
  if (step.kind === 'range' ? now.get('from') === step.from && now.get('to') === step.to : now.getAll(step.kind).join('\n') === step.value) return;
  steps = [...steps, step];
  leaveView();
  void apply(true);
}

/** What is shown is no longer the saved view as it was saved: the figures follow the bars from now on. */
function leaveView() {
  if (!openView) return;
  openView = null;
  viewsMenu?.changed();
  viewNotice.hidden = true;
}

/** Shows the filters and dates the steps lead to in the bars, then loads the figures. @param {boolean} push */
function apply(push) {
  const now = effective(withSteps(base, steps));
  rangePicker?.restore(now);
  filterBar?.restore(now);
  return refresh(push);
}

/** @param {Step} step */
function stepName(step) {
  if (step.kind === 'range') return step.from === step.to ? formatDate(step.from) : formatDateRange(step.from, step.to);
  return [`${t(`filters.${step.kind}`)}: `, element('bdi', { text: step.value })];
}

/** The breadcrumbs: the reader's own selection, then each step, each but the last a way back. */
function renderCrumbs() {
  crumbs.hidden = steps.length === 0;
  const list = requireElement('ol', HTMLOListElement, crumbs);
  const items = [{ name: /** @type {string | (string | Node)[]} */ (t('drill.overview')), depth: 0 }, ...steps.map((step, i) => ({ name: stepName(step), depth: i + 1 }))];
  list.replaceChildren(
    ...items.map(({ name, depth }) => {
      if (depth === steps.length) return element('li', {}, element('span', { 'aria-current': 'page' }, name));
      const link = element('a', { href: `?${addressOf(steps.slice(0, depth))}` }, name);
      link.addEventListener('click', (event) => {
        event.preventDefault();
        steps = steps.slice(0, depth);
        leaveView();
        void apply(true);
      });
      return element('li', {}, link);
    }),
  );
}

/**
 * The page's address: the selection, the steps, and the chart choices.
 * @param {readonly Step[]} path
 */
function addressOf(path) {
  const params = withSteps(base, path);
  if (metric() === 'revenue') params.set('metric', 'revenue');
  if (earlierChoice.checked) params.set('yearEarlier', '1');
  if (averageChoice.checked) params.set('average', '1');
  return params;
}

/**
 * A rolling average of each day and the days before it; none until a whole window has passed,
 * as an average of fewer days would swing with a single busy day.
 * @param {number[]} values
 * @returns {(number | null)[]}
 */
function rollingAverage(values) {
  let sum = 0;
  return values.map((value, i) => {
    sum += value - (i >= AVERAGE_DAYS ? values[i - AVERAGE_DAYS] : 0);
    return i >= AVERAGE_DAYS - 1 ? sum / AVERAGE_DAYS : null;
  });
}

/**
 * @param {HTMLElement} section
 * @param {BreakdownName} name
 * @param {Breakdown[]} rows
 * @param {number} total
 */
function renderBreakdown(section, name, rows, total) {
  const chosen = metric();
  const dimension = DIMENSION_OF[name];
  const ranked = [...rows].sort((a, b) => b[chosen] - a[chosen] || compareText(a.key, b.key));
  const whole = expanded.has(name) || ranked.length <= TOP;
  const top = whole ? ranked : ranked.slice(0, TOP);
  const rest = whole ? [] : ranked.slice(TOP);
  const other = rest.length > 0 ? { key: tn('drill.other', rest.length), visitors: rest.reduce((n, r) => n + r.visitors, 0), revenue: rest.reduce((n, r) => n + r.revenue, 0) } : null;
  const drawn = other ? [...top, other] : top;
  const labels = drawn.map((r) => r.key);
  const values = drawn.map((r) => r[chosen]);
  const box = requireElement('[data-chart-box]', HTMLElement, section);
  const canvas = requireElement('canvas', HTMLCanvasElement, box);
  const pick = (/** @type {number} */ i) => {
    if (i < top.length) drill({ kind: dimension, value: top[i].key });
  };
  const options = { currency: chosen === 'revenue' ? currency : undefined, onPick: pick };
  if (name === 'byChannel') {
    box.classList.add('chart-box-round');
    drawWhenNear(canvas, () => drawDoughnut(canvas, labels, values, t(`charts.${chosen}`), options));
  } else {
    fitRows(box, drawn.length);
    drawWhenNear(canvas, () => drawBars(canvas, labels, values, t(`charts.${chosen}`), options));
  }
  const withShare = (/** @type {Breakdown} */ r) => ({ ...r, share: total > 0 ? r.visitors / total : 0 });
  const ordered = sortRows(top.map(withShare), orders[name]);
  const figures = (/** @type {Breakdown & { share: number }} */ row) => [
    cell(formatNumber(row.visitors), 'num'),
    cell(money(row.revenue), 'num'),
    cell(formatShare(row.share), 'num'),
  ];
  fillRows(requireElement('tbody', HTMLTableSectionElement, section), ordered, figures, {
    onPick: (row) => drill({ kind: dimension, value: row.key }),
    hint: 'hint-drill',
  });
  if (other) {
    const tbody = requireElement('tbody', HTMLTableSectionElement, section);
    const row = element('tr', { className: 'is-other' }, [element('th', { scope: 'row', text: other.key }), ...figures(withShare(other))]);
    [...row.cells].forEach((td, i) => {
      if (i > 0) td.dataset.label = tbody.rows.item(0)?.cells.item(i)?.dataset.label ?? '';
    });
    tbody.append(row);
  }
  const more = requireElement('[data-show-all]', HTMLButtonElement, section);
  more.hidden = ranked.length <= TOP;
  more.textContent = expanded.has(name) ? t('drill.showTop', { count: formatNumber(TOP) }) : tn('drill.showAll', ranked.length);
  more.setAttribute('aria-expanded', String(expanded.has(name)));
}

/** @param {string | undefined} name @returns {BreakdownName | null} */
function breakdownOf(name) {
  return name === 'byMuseum' || name === 'byChannel' || name === 'byDistrict' ? name : null;
}

function renderTrend() {
  if (!shown) return;
  const summary = shown;
  const unit = summary.granularity;
  const chosen = metric();
  const yearsApart = summary.series.length > 0 && summary.series[0].start.slice(0, 4) !== summary.series[summary.series.length - 1].end.slice(0, 4);
  const points = summary.series.map((p) => trendPoint(p, unit, summary.range, yearsApart));
  const earlier = earlierChoice.checked && summary.earlier ? summary.earlier : undefined;
  averageChoice.closest('[data-average-choice]')?.toggleAttribute('hidden', unit !== 'day');
  const average = unit === 'day' && averageChoice.checked ? rollingAverage(summary.series.map((p) => p[chosen])) : undefined;
  requireElement('#trend-note', HTMLElement).textContent = t(chosen === 'revenue' ? 'charts.trendNoteRevenue' : 'charts.trendNoteVisitors', { unit: t(UNIT_KEYS[unit]) });
  requireElement('#trend-partial', HTMLElement).hidden = !summary.series.some((p) => p.partial);
  const pickPoint = (/** @type {number} */ i) => drill(periodStep(summary.series[i], summary.range));
  const canvas = requireElement('#trend-chart', HTMLCanvasElement);
  drawWhenNear(canvas, () => {
    trendChart = drawTrend(canvas, points, {
      metric: chosen,
      label: t(`charts.${chosen}`),
      currency,
      earlier: earlier ? { label: t('charts.yearEarlier'), values: earlier.map((p) => p[chosen]) } : undefined,
      average: average ? { label: t('charts.average7'), values: average } : undefined,
      onPick: pickPoint,
      notes: {
        list: () => notes?.marks(summary.series) ?? [],
        placed: (xOf, top) => notes?.place(notes.marks(summary.series), xOf, top),
      },
    });
  });
  requireElement('[data-earlier-column]', HTMLElement).hidden = !earlier;
  requireElement('#trend-rows', HTMLTableSectionElement).replaceChildren(
    ...summary.series.map((p, i) => {
      const button = element('button', { type: 'button', className: 'drill-button', 'aria-describedby': 'hint-period' }, [points[i].label, p.partial ? ` (${t('range.partial')})` : '']);
      button.addEventListener('click', () => pickPoint(i));
      const before = earlier?.[i];
      return element('tr', { className: p.partial ? 'is-partial' : undefined }, [
        element('th', { scope: 'row' }, button),
        cell(formatNumber(p.visitors), 'num'),
        cell(money(p.revenue), 'num'),
        before ? cell(chosen === 'revenue' ? money(before.revenue) : formatNumber(before.visitors), 'num') : null,
      ]);
    }),
  );
}

/** Draws the breakdown `section` stands for, of the figures shown. @param {HTMLElement} section */
function renderSection(section) {
  const name = breakdownOf(section.dataset.breakdown);
  if (shown && name) renderBreakdown(section, name, shown[name], shown.totals.visitors);
}

function renderBreakdowns() {
  for (const section of view.results.querySelectorAll('[data-breakdown]')) if (section instanceof HTMLElement) renderSection(section);
}

/** @param {unknown} answer */
async function render(answer) {
  const summary = /** @type {Summary} */ (answer);
  rangePicker?.describe(summary.range, summary.granularity);
  // No row matches at all (a saved view of a museum out of reach, filters that exclude each
  // other): the empty state says so, rather than charts of zeros.
  if (summary.totals.days === 0) {
    // A period and a year or season are both kept: say so when they share no day at all.
    const params = new URLSearchParams(window.location.search);
    const apart = summary.range === null && rangePicker?.current() && (params.has('year') || params.has('season'));
    view.showState('empty', apart ? t('state.noCommonDays') : undefined);
    return;
  }
  view.showState(null);
  shown = summary;
  renderTotals(summary);
  renderTrend();
  await drawBreakdownsInTurn(view.results, renderSection, () => shown === summary);
  void loadNotes();
}

/** The notes of the dates shown, for the museums chosen; the trend is redrawn with their marks. */
async function loadNotes() {
  if (!shown || !notes) return;
  const summary = shown;
  await notes.load(summary.range, effective(withSteps(base, steps)).getAll('museum'));
  if (shown === summary) trendChart?.update('none');
}

/** @param {URLSearchParams} params */
const queryOf = (params) => (params.toString() ? `?${params}` : '');

/** The selection as the bars hold it, without the steps. */
function selectionOf() {
  if (!filterBar || !rangePicker) return new URLSearchParams();
  return rangePicker.appendAddress(filterBar.appendTo(new URLSearchParams()));
}

/** The chart choices alone, as the address holds them beside a view. */
function choicesOf() {
  const params = addressOf([]);
  for (const name of [...params.keys()]) if (!CHOICES.includes(name)) params.delete(name);
  return params;
}

/** @param {boolean} [push] a new entry in the browser's history (a drill-down step), so Back undoes it */
function refresh(push = false) {
  if (!filterBar || !rangePicker) return;
  renderCrumbs();
  let data;
  let exported;
  if (openView) {
    syncAddress(new URLSearchParams([['view', String(openView.id)], ...choicesOf()]), { push });
    data = new URLSearchParams({ view: String(openView.id) });
    exported = new URLSearchParams(data);
  } else {
    syncAddress(addressOf(steps), { push });
    data = rangePicker.appendQuery(filterBar.appendTo(new URLSearchParams()));
    exported = new URLSearchParams(data);
    exported.delete('granularity');
  }
  // Arabic readers' weeks start on Sunday, as the workspace's calendar shows them.
  if (lang === 'ar') data.set('weekStart', 'sunday');
  if (earlierChoice.checked) data.set('earlier', 'year');
  exportLink.href = `/api/dashboard/export.csv${queryOf(exported)}`;
  // The workbook's sheets are labelled, and run, in the page's language.
  excelLink.href = `/api/dashboard/export.xlsx${queryOf(new URLSearchParams([...exported, ['lang', lang]]))}`;
  return view.load(`/api/dashboard/summary${queryOf(data)}`, render);
}

/** The reader changed a filter or the dates: what the bars now hold is the new selection, and the steps are done with. */
function selectionChanged() {
  base = selectionOf();
  steps = [];
  leaveView();
  void refresh();
}

/**
 * Reads an address: the selection (normalised by the bars, which keep only what they offer)
 * and the steps after it, and the chart choices.
 * @param {URLSearchParams} params
 */
function readSelection(params) {
  if (!filterBar || !rangePicker) return;
  steps = readSteps(params);
  const own = baseOf(params);
  for (const name of [...CHOICES, 'view']) own.delete(name);
  rangePicker.restore(own);
  filterBar.restore(own);
  base = selectionOf();
  const metricInput = metricChoice.querySelector(`input[value="${params.get('metric') === 'revenue' ? 'revenue' : 'visitors'}"]`);
  if (metricInput instanceof HTMLInputElement) metricInput.checked = true;
  earlierChoice.checked = params.get('yearEarlier') === '1';
  averageChoice.checked = params.get('average') === '1';
}

/**
 * Shows what an address holds: a saved view (`view=<id>`, its own address read with the chart
 * choices the address adds), or a selection and its steps.
 * @param {URLSearchParams} params
 */
async function readAddress(params) {
  const view = params.has('view') ? await viewOfAddress(params).catch(() => null) : null;
  viewNotice.hidden = !params.has('view') || (view !== null && view.unseen === 0);
  if (view) {
    const held = new URLSearchParams(view.query);
    for (const name of CHOICES) if (params.has(name)) held.set(name, params.get(name) ?? '');
    readSelection(held);
    if (view.unseen > 0) viewNotice.textContent = tn('views.unseen', view.unseen);
  } else {
    if (params.has('view')) viewNotice.textContent = t('views.gone');
    readSelection(params);
  }
  openView = view;
  viewsMenu?.showing(view);
  return apply(false);
}

async function start() {
  const filters = await loadFilters(view);
  if (!filters) {
    exportLink.hidden = true;
    excelLink.hidden = true;
    return;
  }
  rangePicker = createRangePicker(rangeRoot, filters, selectionChanged);
  filterBar = createFilterBar(filtersRoot, filters, selectionChanged);
  // The page's controls are built in turns, each a task of its own: built in one, they held a
  // slow phone's main thread for over 100 ms.
  await nextTask();
  for (const [name, section] of sortableBreakdowns(view.results, breakdownOf, orders, renderBreakdowns)) {
    requireElement('[data-show-all]', HTMLButtonElement, section).addEventListener('click', () => {
      if (expanded.has(name)) expanded.delete(name);
      else expanded.add(name);
      renderBreakdowns();
    });
  }
  // A chart choice changes how the figures are drawn, not which: a view stays open, marked changed.
  const choiceChanged = () => {
    viewsMenu?.changed();
    syncAddress(openView ? new URLSearchParams([['view', String(openView.id)], ...choicesOf()]) : addressOf(steps));
  };
  metricChoice.addEventListener('change', () => {
    choiceChanged();
    renderTrend();
    renderBreakdowns();
  });
  averageChoice.addEventListener('change', () => {
    choiceChanged();
    renderTrend();
  });
  earlierChoice.addEventListener('change', () => {
    viewsMenu?.changed();
    void refresh();
  });
  await nextTask();
  notes = createNotes({
    root: requireElement('[data-notes]', HTMLElement),
    layer: requireElement('[data-marks]', HTMLElement),
    canWrite: can.writeNotes === true,
    museums: filters.museums,
    onChanged: () => void loadNotes(),
  });
  window.addEventListener('popstate', () => void readAddress(new URLSearchParams(window.location.search)));
  // The figures are asked for in a task of their own, as soon as what draws them is built.
  await nextTask();
  const figures = readAddress(new URLSearchParams(window.location.search));
  // The saved views' menu and the reports are built while the figures are on their way.
  await nextTask();
  viewsMenu = createViewsMenu(requireElement('[data-views]', HTMLElement), {
    page: 'dashboard',
    address: () => addressOf(steps),
    onSaved: (view) => {
      openView = view;
      viewsMenu?.showing(view);
      void refresh();
    },
  });
  viewsMenu.showing(openView);
  createReports({
    root: requireElement('[data-reports]', HTMLElement),
    me: context.me ?? null,
    forOthers: can.scheduleForOthers === true,
    // A view shown as saved is reported as the view, so a change to it reaches the mail.
    current: () => (openView ? { viewId: openView.id } : { query: addressOf(steps).toString() }),
    viewName: () => openView?.name ?? null,
  });
  await figures;
}

// An import or a change of seasons elsewhere: the figures are offered again, read afresh, and
// the filters with them (a season added, renamed or deleted; a museum first imported).
offerNewFigures(async () => {
  const fresh = await readFilters();
  if (fresh) filterBar?.update(fresh);
  await refresh();
});
await start();
