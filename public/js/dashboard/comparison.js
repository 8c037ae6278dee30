// The Comparison page: two periods (a year or a season each) under the same filters, with
// per-museum and per-channel values, absolute and percent change, and grouped bar charts.
import { element, requireElement } from '../core/dom.js';
import { formatChange, formatNumber, formatSigned, formatYear } from '../core/format.js';
import { t, tn } from '../core/i18n.js';
import { isRtl } from '../core/page.js';
import { drawGrouped, fitRows } from './charts.js';
import { cell, deltaNode, fillRows, percentChange, resultsView, syncAddress } from './common.js';
import { createFilterBar, loadFilters } from './filters.js';

/** @typedef {{ key: string, a: number, b: number, change: number, changePct: number | null }} ComparedRow */
/** @typedef {{ label: string, totals: import('./common.js').Totals }} Side */

/**
 * The answer of GET /api/dashboard/compare.
 * @typedef {object} Comparison
 * @property {Side} a
 * @property {Side} b
 * @property {ComparedRow[]} byMuseum
 * @property {ComparedRow[]} byChannel
 */

/** @typedef {'a' | 'b'} SideName */

const SIDES = /** @type {const} */ (['a', 'b']);
const sides = { a: requireElement('#side-a', HTMLSelectElement), b: requireElement('#side-b', HTMLSelectElement) };
const sidesCard = requireElement('#sides', HTMLElement);
const filtersRoot = requireElement('[data-filters]', HTMLElement);
const view = resultsView(() => (filterBar ? refresh() : start()));

/** @type {ReturnType<typeof createFilterBar> | undefined} */
let filterBar;

/** @param {import('./filters.js').Filters} filters */
function fillSides(filters) {
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
  const params = new URLSearchParams(window.location.search);
  const wantedA = params.get('a');
  const wantedB = params.get('b');
  const fallbackB = sides.b.options[0]?.value ?? '';
  const fallbackA = sides.a.options[years.length > 1 ? 1 : 0]?.value ?? '';
  sides.a.value = offered(sides.a, wantedA) ? wantedA : fallbackA;
  sides.b.value = offered(sides.b, wantedB) ? wantedB : fallbackB;
  return sides.a.options.length > 0;
}

/** @param {SideName} side */
const labelOf = (side) => sides[side].selectedOptions[0]?.textContent ?? '';

/**
 * @param {number} a
 * @param {number} b
 * @param {number | null} pct
 */
function changeCells(a, b, pct) {
  return [
    cell(deltaNode(b - a, formatSigned(b - a)), 'num'),
    pct === null
      ? cell(element('abbr', { title: t('comparison.notAvailableLong'), text: t('comparison.notAvailable') }), 'num muted')
      : cell(deltaNode(pct, formatChange(pct)), 'num'),
  ];
}

/**
 * @param {HTMLElement} section
 * @param {ComparedRow[]} rows
 */
function renderBreakdown(section, rows) {
  const sorted = [...rows].sort((x, y) => y.b - x.b || y.a - x.a);
  const box = requireElement('[data-chart-box]', HTMLElement, section);
  fitRows(box, sorted.length, 46);
  drawGrouped(
    requireElement('canvas', HTMLCanvasElement, box),
    sorted.map((r) => r.key),
    [
      { label: labelOf('a'), data: sorted.map((r) => r.a) },
      { label: labelOf('b'), data: sorted.map((r) => r.b) },
    ],
  );
  for (const side of SIDES) requireElement(`[data-side-head="${side}"]`, HTMLElement, section).textContent = labelOf(side);
  fillRows(requireElement('tbody', HTMLTableSectionElement, section), sorted, (row) => [
    cell(formatNumber(row.a), 'num'),
    cell(formatNumber(row.b), 'num'),
    ...changeCells(row.a, row.b, row.changePct ?? null),
  ]);
}

/** @param {unknown} answer */
function render(answer) {
  const result = /** @type {Comparison} */ (answer);
  const a = result.a.totals;
  const b = result.b.totals;
  if (a.visitors === 0 && b.visitors === 0) return view.showState('empty');
  view.showState(null);
  for (const side of SIDES) {
    requireElement(`[data-kpi-label="${side}"]`, HTMLElement, view.results).textContent = t('comparison.visitorsOf', { label: labelOf(side) });
    view.setKpi(side, formatNumber(result[side].totals.visitors), tn('totals.days', result[side].totals.days));
  }
  const pct = percentChange(a.visitors, b.visitors);
  view.setKpi('change', deltaNode(b.visitors - a.visitors, formatSigned(b.visitors - a.visitors)), `${labelOf('a')} ${isRtl ? '←' : '→'} ${labelOf('b')}`);
  view.setKpi('changePct', pct === null ? t('comparison.notAvailable') : deltaNode(pct, formatChange(pct)), pct === null ? t('comparison.notAvailableLong') : '');
  for (const section of view.results.querySelectorAll('[data-breakdown]')) {
    if (!(section instanceof HTMLElement)) continue;
    const name = section.dataset.breakdown;
    renderBreakdown(section, name === 'byMuseum' || name === 'byChannel' ? result[name] : []);
  }
}

function refresh() {
  if (!filterBar) return;
  const params = new URLSearchParams({ a: sides.a.value, b: sides.b.value });
  filterBar.appendTo(params);
  syncAddress(params);
  return view.load(`/api/dashboard/compare?${params}`, render);
}

async function start() {
  const filters = await loadFilters(view);
  if (!filters) {
    sidesCard.hidden = true;
    return;
  }
  if (!fillSides(filters)) {
    sidesCard.hidden = true;
    filtersRoot.hidden = true;
    view.showState('noSides');
    return;
  }
  filterBar = createFilterBar(filtersRoot, filters, () => void refresh());
  filterBar.restore(new URLSearchParams(window.location.search));
  for (const select of Object.values(sides)) select.addEventListener('change', () => void refresh());
  await refresh();
}

await start();
