// The Comparison page: a range of dates against an earlier one of the same length (by
// default year to date against the same days of last year), or two chosen years or seasons,
// under the same filters; both date ranges printed, key figures and per-museum and
// per-channel values with absolute and percent change, and grouped bar charts.
import { element, nextTask, requireElement } from '../core/dom.js';
import { formatChange, formatDate, formatDateRange, formatMoney, formatNumber, formatSigned, formatYear, compareText } from '../core/format.js';
import { t, tn } from '../core/i18n.js';
import { lang } from '../core/page.js';
import { drawWhenNear } from '../core/chart.js';
import { drawGrouped, fitRows } from './charts.js';
import { cell, currency, deltaNode, drawBreakdownsInTurn, fromTo, money, fillRows, resultsView, syncAddress } from './common.js';
import { createFilterBar, loadFilters, readFilters } from './filters.js';
import { createRangePicker } from './range.js';
import { nameHeader, sortRows, sortableBreakdowns } from './sortable.js';
import { createViewsMenu, viewOfAddress } from './views.js';
import { offerNewFigures } from './live.js';

/** @typedef {{ a: number, b: number, change: number, changePct: number | null }} MetricChange */
/** @typedef {{ key: string, a: number, b: number, change: number, changePct: number | null, revenue: MetricChange }} ComparedRow visitors, then revenue */
/** @typedef {{ label: string, start: string | null, end: string | null, totals: import('./common.js').Totals }} Side */

/**
 * The answer of GET /api/dashboard/compare.
 * @typedef {object} Comparison
 * @property {Side} a
 * @property {Side} b
 * @property {{ visitors: MetricChange, revenue: MetricChange, revenuePerVisitor: MetricChange }} metrics
 * @property {ComparedRow[]} byMuseum
 * @property {ComparedRow[]} byChannel
 */

/** @typedef {'a' | 'b'} SideName */

const SIDES = /** @type {const} */ (['a', 'b']);
const sides = { a: requireElement('#side-a', HTMLSelectElement), b: requireElement('#side-b', HTMLSelectElement) };
const sidesCard = requireElement('#sides', HTMLElement);
const filtersRoot = requireElement('[data-filters]', HTMLElement);
const rangeRoot = requireElement('[data-range]', HTMLElement);
const mode = requireElement('#compare-mode', HTMLSelectElement);
const exportLink = requireElement('#export-link', HTMLAnchorElement);
const excelLink = requireElement('#export-xlsx-link', HTMLAnchorElement);
const partialNote = requireElement('#partial-note', HTMLElement);
const metricChoice = requireElement('[data-metric]', HTMLFieldSetElement);
const viewNotice = requireElement('#view-notice', HTMLElement);
/** The saved view shown as it was saved, whose figures the server reads by its id; null once anything changes. @type {import('./views.js').SavedView | null} */
let openView = null;
/** @type {ReturnType<typeof createViewsMenu> | undefined} */
let viewsMenu;
const MODES = ['year', 'yearWeekday', 'previous', 'sides'];
/** The labels of the two sides in the last answer: the dates when the sides are ranges. */
const shownLabels = { a: '', b: '' };
/** The last day with figures: yesterday, where every named range ends. */
let lastDay = '';
/** @type {ReturnType<typeof createRangePicker> | undefined} */
let rangePicker;
const view = resultsView(() => (filterBar ? refresh() : start()));

/** @type {ReturnType<typeof createFilterBar> | undefined} */
let filterBar;
/** The last answer, drawn again when the reader switches between visitors and revenue. @type {Comparison | undefined} */
let shown;

/** @typedef {'byMuseum' | 'byChannel'} BreakdownName */
/** How each breakdown's table is ordered; the chart keeps period B's largest first. @type {Record<BreakdownName, import('./sortable.js').SortOrder>} */
const orders = {
  byMuseum: { key: 'b', direction: 'descending' },
  byChannel: { key: 'b', direction: 'descending' },
};

/** The figure the breakdowns show: visitors, or revenue. */
function metric() {
  const checked = metricChoice.querySelector('input:checked');
  return checked instanceof HTMLInputElement && checked.value === 'revenue' ? 'revenue' : 'visitors';
}

/**
 * @param {import('./filters.js').Filters} filters
 * @param {URLSearchParams} params the address, or the saved view's
 */
function fillSides(filters, params) {
  const years = [...filters.years].map(Number).sort((x, y) => y - x);
  for (const select of Object.values(sides)) {
    select.replaceChildren(
      ...[
        years.length ? element('optgroup', { label: t('comparison.years') }, years.map((y) => element('option', { value: String(y), text: formatYear(y) }))) : null,
        filters.seasons.length
          ? element('optgroup', { label: t('comparison.seasons') }, filters.seasons.map((s) => element('option', { value: `season:${s.id}`, text: s.name })))
          : null,
      ].filter((group) => group !== null),
    );
  }
  // By default the latest year against the one before it.
  /**
   * @param {HTMLSelectElement} select
   * @param {string | null} value
   * @returns {value is string}
   */
  const offered = (select, value) => [...select.options].some((o) => o.value === value);
  const wantedA = params.get('a');
  const wantedB = params.get('b');
  const fallbackB = sides.b.options.item(0)?.value ?? '';
  const fallbackA = sides.a.options.item(years.length > 1 ? 1 : 0)?.value ?? '';
  sides.a.value = offered(sides.a, wantedA) ? wantedA : fallbackA;
  sides.b.value = offered(sides.b, wantedB) ? wantedB : fallbackB;
  return sides.a.options.length > 0;
}

/** @param {SideName} side */
const labelOf = (side) => shownLabels[side];

const byRange = () => mode.value !== 'sides';

function showMode() {
  for (const node of sidesCard.querySelectorAll('[data-named-side]')) if (node instanceof HTMLElement) node.hidden = byRange();
  rangeRoot.hidden = !byRange();
}

/** @param {number} major */
const moneyChange = (major) => formatMoney(major, currency, { signed: true });

/**
 * A percent change as shown, to one decimal. One that rounds to 0.0% is shown as no change,
 * so the arrow and colour never claim a rise or a fall the printed figure does not show.
 * @param {number} pct
 */
const pctNode = (pct) => deltaNode(Math.round(Math.abs(pct) * 10) === 0 ? 0 : pct, formatChange(pct));

/**
 * A cell that names its column, for the narrow layout where each row stands alone as a card.
 * @param {HTMLTableCellElement} td
 * @param {string} label
 */
function labelled(td, label) {
  td.dataset.label = label;
  return td;
}

/**
 * The cells of a row after its name: both sides, the change and the percent change.
 * @param {MetricChange} m
 * @param {(n: number) => string} format
 * @param {(n: number) => string} formatDifference the same figure with its sign
 */
function comparedCells(m, format, formatDifference) {
  return [
    labelled(cell(format(m.a), 'num'), labelOf('a')),
    labelled(cell(format(m.b), 'num'), labelOf('b')),
    labelled(cell(deltaNode(m.change, formatDifference(m.change)), 'num'), t('comparison.change')),
    labelled(
      m.changePct === null
        ? cell(element('abbr', { title: t('comparison.notAvailableLong'), text: t('comparison.notAvailable') }), 'num muted')
        : cell(pctNode(m.changePct), 'num'),
      t('comparison.changePct'),
    ),
  ];
}

/**
 * One breakdown in the chosen figure: each key's visitors, or its revenue.
 * @param {HTMLElement} section
 * @param {BreakdownName} name
 * @param {ComparedRow[]} rows
 */
function renderBreakdown(section, name, rows) {
  const revenue = metric() === 'revenue';
  const figures = rows.map((row) => ({ key: row.key, ...(revenue ? row.revenue : { a: row.a, b: row.b, change: row.change, changePct: row.changePct }) }));
  const ranked = [...figures].sort((x, y) => y.b - x.b || y.a - x.a || compareText(x.key, y.key));
  const box = requireElement('[data-chart-box]', HTMLElement, section);
  fitRows(box, ranked.length, 46);
  const canvas = requireElement('canvas', HTMLCanvasElement, box);
  const sides = [
    { label: labelOf('a'), data: ranked.map((r) => r.a) },
    { label: labelOf('b'), data: ranked.map((r) => r.b) },
  ];
  drawWhenNear(canvas, () => drawGrouped(canvas, ranked.map((r) => r.key), sides, revenue ? currency : undefined));
  requireElement('[data-chart-note]', HTMLElement, section).textContent = t(revenue ? 'comparison.chartNoteRevenue' : 'comparison.chartNote');
  for (const side of SIDES) nameHeader(requireElement(`[data-side-head="${side}"]`, HTMLElement, section), labelOf(side));
  fillRows(requireElement('tbody', HTMLTableSectionElement, section), sortRows(figures, orders[name]), (row) =>
    revenue ? comparedCells(row, money, moneyChange) : comparedCells(row, formatNumber, formatSigned),
  );
}

/** @param {Comparison['metrics']} metrics */
function renderMetrics(metrics) {
  const table = requireElement('#metrics', HTMLTableElement);
  for (const side of SIDES) requireElement(`[data-side-head="${side}"]`, HTMLElement, table).textContent = labelOf(side);
  /** @type {[string, MetricChange, (n: number) => string, (n: number) => string][]} */
  const rows = [
    [t('totals.visitors'), metrics.visitors, formatNumber, formatSigned],
    [t('totals.revenue'), metrics.revenue, money, moneyChange],
    [t('comparison.revenuePerVisitor'), metrics.revenuePerVisitor, money, moneyChange],
  ];
  requireElement('tbody', HTMLTableSectionElement, table).replaceChildren(
    ...rows.map(([name, m, format, formatDifference]) =>
      element('tr', {}, [element('th', { scope: 'row', text: name }), ...comparedCells(m, format, formatDifference)]),
    ),
  );
}

/**
 * Warns when one side holds figures on fewer days than the other (a year still running, a
 * museum that opened later): its total then falls short for want of days, not of visitors.
 * @param {Comparison} result
 */
function describeCoverage(result) {
  /** @type {[SideName, SideName]} */
  const [short, long] = result.a.totals.days < result.b.totals.days ? ['a', 'b'] : ['b', 'a'];
  const days = result[short].totals.days;
  const vars = { label: labelOf(short), other: formatNumber(result[long].totals.days), otherLabel: labelOf(long), date: formatDate(lastDay) };
  partialNote.hidden = days === result[long].totals.days;
  const end = result[short].end;
  requireElement('[data-partial-text]', HTMLElement, partialNote).textContent =
    end !== null && end > lastDay ? tn('comparison.partialToDate', days, vars) : tn('comparison.partialDays', days, vars);
  // Advising "The same dates a year earlier" while it is chosen would change nothing: the days
  // still differ there (a leap day, a year that has not run its course), and the main line says so.
  requireElement('[data-partial-hint]', HTMLElement, partialNote).hidden = mode.value === 'year';
}

/**
 * A side's dates as printed: a year or season still running ends at the last day with figures.
 * @param {Side} side
 */
function datesOf({ start, end }) {
  if (!start || !end) return '';
  return formatDateRange(start, end > lastDay && start <= lastDay ? lastDay : end);
}

/** @param {unknown} answer */
async function render(answer) {
  const result = /** @type {Comparison} */ (answer);
  const a = result.a.totals;
  const b = result.b.totals;
  if (a.visitors === 0 && b.visitors === 0) {
    view.showState('empty');
    return;
  }
  view.showState(null);
  for (const side of SIDES) {
    const { start, end } = result[side];
    const range = start && end ? formatDateRange(start, end) : '';
    shownLabels[side] = byRange() ? range : (sides[side].selectedOptions.item(0)?.textContent ?? result[side].label);
  }
  renderMetrics(result.metrics);
  rangePicker?.describe(null);
  for (const side of SIDES) {
    requireElement(`[data-kpi-label="${side}"]`, HTMLElement, view.results).textContent = t('comparison.visitorsOf', { label: labelOf(side) });
    const dates = byRange() ? '' : datesOf(result[side]);
    view.setKpi(side, formatNumber(result[side].totals.visitors), [dates, tn('totals.days', result[side].totals.days)].filter(Boolean).join(' · '));
  }
  describeCoverage(result);
  // The change as the server worked it out, never again here: one rule, one rounding.
  const { change, changePct: pct } = result.metrics.visitors;
  view.setKpi('change', deltaNode(change, formatSigned(change)), fromTo([element('bdi', { text: labelOf('a') })], [element('bdi', { text: labelOf('b') })], t('comparison.towards')));
  view.setKpi('changePct', pct === null ? t('comparison.notAvailable') : pctNode(pct), pct === null ? t('comparison.notAvailableLong') : '');
  shown = result;
  await drawBreakdownsInTurn(view.results, renderSection, () => shown === result);
}

/** @param {string | undefined} name @returns {BreakdownName | null} */
const breakdownOf = (name) => (name === 'byMuseum' || name === 'byChannel' ? name : null);

/** Draws the breakdown `section` stands for, of the figures shown. @param {HTMLElement} section */
function renderSection(section) {
  const name = breakdownOf(section.dataset.breakdown);
  if (shown && name) renderBreakdown(section, name, shown[name]);
}

function renderBreakdowns() {
  for (const section of view.results.querySelectorAll('[data-breakdown]')) if (section instanceof HTMLElement) renderSection(section);
}

/**
 * The page's address: what the data request asks, and the figure the breakdowns show; while a
 * saved view is shown as saved, its id instead of what it asks.
 * @param {URLSearchParams} params
 */
function showAddress(params) {
  const address = openView ? new URLSearchParams({ view: String(openView.id) }) : new URLSearchParams(params);
  if (metric() === 'revenue') address.set('metric', 'revenue');
  syncAddress(address);
}

/** The request's query without the page's own choices, as the last refresh built it. */
let lastAddress = new URLSearchParams();

/** What is shown is no longer the saved view as it was saved. */
function leaveView() {
  if (!openView) return;
  openView = null;
  viewsMenu?.changed();
  viewNotice.hidden = true;
}

/** The page's address as a view would keep it: the request and the figure shown. */
function viewAddress() {
  const address = new URLSearchParams(lastAddress);
  if (metric() === 'revenue') address.set('metric', 'revenue');
  return address;
}

function refresh() {
  if (!filterBar || !rangePicker) return;
  showMode();
  let query;
  if (!byRange()) {
    query = new URLSearchParams({ a: sides.a.value, b: sides.b.value });
    filterBar.appendTo(query);
    lastAddress = query;
  } else {
    lastAddress = rangePicker.appendAddress(filterBar.appendTo(new URLSearchParams({ against: mode.value })));
    query = rangePicker.appendQuery(filterBar.appendTo(new URLSearchParams({ against: mode.value })));
  }
  showAddress(lastAddress);
  if (openView) query = new URLSearchParams({ view: String(openView.id) });
  exportLink.href = `/api/dashboard/compare.csv?${query}`;
  // The workbook's sheets are labelled, and run, in the page's language.
  excelLink.href = `/api/dashboard/compare.xlsx?${query}&lang=${lang}`;
  return view.load(`/api/dashboard/compare?${query}`, render);
}

/** The reader changed what is compared: the figures follow the page from now on. */
function changed() {
  leaveView();
  void refresh();
}

async function start() {
  const filters = await loadFilters(view);
  if (!filters) {
    sidesCard.hidden = true;
    exportLink.hidden = true;
    excelLink.hidden = true;
    return;
  }
  lastDay = filters.presets.yearToDate.to;
  const address = new URLSearchParams(window.location.search);
  const saved = address.has('view') ? await viewOfAddress(address).catch(() => null) : null;
  viewNotice.hidden = !address.has('view') || (saved !== null && saved.unseen === 0);
  if (address.has('view')) viewNotice.textContent = saved ? tn('views.unseen', saved.unseen) : t('views.gone');
  // A saved view reads its own address, with the figure the page's address may add.
  const params = saved ? new URLSearchParams(saved.query) : address;
  if (saved && address.has('metric')) params.set('metric', address.get('metric') ?? '');
  openView = saved;
  if (!fillSides(filters, params)) {
    sidesCard.hidden = true;
    filtersRoot.hidden = true;
    view.showState('noSides');
    return;
  }
  const chosen = params.get('against') ?? (params.has('a') ? 'sides' : 'year');
  mode.value = MODES.includes(chosen) ? chosen : 'year';
  rangePicker = createRangePicker(rangeRoot, filters, changed);
  // Year to date unless the address names other dates.
  if (!params.has('range') && !params.has('from')) params.set('range', 'yearToDate');
  rangePicker.restore(params);
  // The page's controls are built in turns, each a task of its own: built in one, with the
  // request for the figures, they held a slow phone's main thread for over 100 ms.
  await nextTask();
  filterBar = createFilterBar(filtersRoot, filters, changed);
  filterBar.restore(params);
  for (const select of [...Object.values(sides), mode]) select.addEventListener('change', changed);
  const wanted = metricChoice.querySelector(`input[value="${params.get('metric') === 'revenue' ? 'revenue' : 'visitors'}"]`);
  if (wanted instanceof HTMLInputElement) wanted.checked = true;
  metricChoice.addEventListener('change', () => {
    viewsMenu?.changed();
    renderBreakdowns();
    showAddress(lastAddress);
  });
  sortableBreakdowns(view.results, breakdownOf, orders, renderBreakdowns);
  await nextTask();
  const figures = refresh();
  // The saved views' menu is built while the figures are on their way.
  await nextTask();
  viewsMenu = createViewsMenu(requireElement('[data-views]', HTMLElement), {
    page: 'comparison',
    address: viewAddress,
    onSaved: (savedView) => {
      openView = savedView;
      viewsMenu?.showing(savedView);
      void refresh();
    },
  });
  viewsMenu.showing(saved);
  await figures;
}

// An import or a change of seasons elsewhere: the figures are offered again, read afresh, and
// the seasons and years on offer with them, the sides chosen kept while they are still offered.
offerNewFigures(async () => {
  const fresh = await readFilters();
  if (fresh) {
    lastDay = fresh.presets.yearToDate.to;
    fillSides(fresh, new URLSearchParams({ a: sides.a.value, b: sides.b.value }));
    filterBar?.update(fresh);
  }
  await refresh();
});
await start();
