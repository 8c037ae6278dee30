// The Comparison page: two periods (a year or a season each) under the same filters, with
// per-museum and per-channel values, absolute and percent change, and grouped bar charts.
import { element } from '../core/dom.js';
import {
  cell,
  deltaNode,
  fillRows,
  formatChange,
  formatNumber,
  formatSigned,
  formatYear,
  isRtl,
  percentChange,
  resultsView,
  syncAddress,
  t,
  tn,
} from './common.js';
import { drawGrouped, fitRows } from './charts.js';
import { createFilterBar, loadFilters } from './filters.js';

const sides = { a: document.getElementById('side-a'), b: document.getElementById('side-b') };
const sidesCard = document.getElementById('sides');
const filtersRoot = document.querySelector('[data-filters]');
const view = resultsView(() => (filterBar ? refresh() : start()));

let filterBar;

function fillSides(filters) {
  const years = [...filters.years].map(Number).sort((x, y) => y - x);
  for (const select of Object.values(sides)) {
    select.replaceChildren(
      years.length ? element('optgroup', { label: t('comparison.years') }, years.map((y) => element('option', { value: String(y), text: formatYear(y) }))) : null,
      filters.seasons.length
        ? element('optgroup', { label: t('comparison.seasons') }, filters.seasons.map((s) => element('option', { value: `season:${s.id}`, text: s.name })))
        : null,
    );
  }
  // By default the latest year against the one before it.
  const offered = (select, value) => [...select.options].some((o) => o.value === value);
  const params = new URLSearchParams(window.location.search);
  const fallbackB = sides.b.options[0]?.value ?? '';
  const fallbackA = sides.a.options[years.length > 1 ? 1 : 0]?.value ?? '';
  sides.a.value = offered(sides.a, params.get('a')) ? params.get('a') : fallbackA;
  sides.b.value = offered(sides.b, params.get('b')) ? params.get('b') : fallbackB;
  return sides.a.options.length > 0;
}

const labelOf = (side) => sides[side].selectedOptions[0]?.textContent ?? '';

function changeCells(a, b, pct) {
  return [
    cell(deltaNode(b - a, formatSigned(b - a)), 'num'),
    pct === null
      ? cell(element('abbr', { title: t('comparison.notAvailableLong'), text: t('comparison.notAvailable') }), 'num muted')
      : cell(deltaNode(pct, formatChange(pct)), 'num'),
  ];
}

function renderBreakdown(section, rows) {
  const sorted = [...rows].sort((x, y) => y.b - x.b || y.a - x.a);
  const box = section.querySelector('[data-chart-box]');
  fitRows(box, sorted.length, 46);
  drawGrouped(
    box.querySelector('canvas'),
    sorted.map((r) => r.key),
    [
      { label: labelOf('a'), data: sorted.map((r) => r.a) },
      { label: labelOf('b'), data: sorted.map((r) => r.b) },
    ],
  );
  for (const side of ['a', 'b']) section.querySelector(`[data-side-head="${side}"]`).textContent = labelOf(side);
  fillRows(section.querySelector('tbody'), sorted, (row) => [
    cell(formatNumber(row.a), 'num'),
    cell(formatNumber(row.b), 'num'),
    ...changeCells(row.a, row.b, row.changePct ?? null),
  ]);
}

function render(result) {
  const a = result.a.totals;
  const b = result.b.totals;
  if (a.visitors === 0 && b.visitors === 0) return view.showState('empty');
  view.showState(null);
  for (const side of ['a', 'b']) {
    view.results.querySelector(`[data-kpi-label="${side}"]`).textContent = t('comparison.visitorsOf', { label: labelOf(side) });
    view.setKpi(side, formatNumber(result[side].totals.visitors), tn('totals.days', result[side].totals.days));
  }
  const pct = percentChange(a.visitors, b.visitors);
  view.setKpi('change', deltaNode(b.visitors - a.visitors, formatSigned(b.visitors - a.visitors)), `${labelOf('a')} ${isRtl ? '←' : '→'} ${labelOf('b')}`);
  view.setKpi('changePct', pct === null ? t('comparison.notAvailable') : deltaNode(pct, formatChange(pct)), pct === null ? t('comparison.notAvailableLong') : '');
  for (const section of view.results.querySelectorAll('[data-breakdown]')) renderBreakdown(section, result[section.dataset.breakdown] ?? []);
}

function refresh() {
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
  filterBar = createFilterBar(filtersRoot, filters, refresh);
  filterBar.restore(new URLSearchParams(window.location.search));
  for (const select of Object.values(sides)) select.addEventListener('change', refresh);
  await refresh();
}

start();
