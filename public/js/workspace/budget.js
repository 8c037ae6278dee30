// Budget: a campaign's planned and spent money, by category (a Chart.js bar chart with the
// same figures in a table), and its entries. Amounts travel in minor units (cents, fils);
// what each reader may change the server says with each entry.
import { newestOnly } from '../core/api.js';
import { direction, drawWhenNear } from '../core/chart.js';
import { element, findElement, requireElement } from '../core/dom.js';
import { formatCompactCurrency, formatCurrency, formatDay } from '../core/format.js';
import { t, tIsolated } from '../core/i18n.js';
import { isRtl } from '../core/page.js';
import { announce, call, callAll, domain, errorMessage, vocabularyOptions } from './common.js';
import { iconButton } from './icons.js';
import { deleteWithConfirmation, editInModal, orNull } from './records.js';

/** @typedef {import('../../../src/workspace/domain').BudgetKind} BudgetKind */

/** A budget entry as the API answers it; `amount` is in minor units of `currency`. @typedef {import('../../../src/workspace/budget/service').BudgetEntryView} Entry */

/** The answer of GET /api/budget-entries/summary. @typedef {import('../../../src/workspace/budget/repository').BudgetSummary} Summary */

const DEFAULT_CURRENCY = 'QAR';
/** @type {BudgetKind} */
const DEFAULT_KIND = 'spent';
/** @type {BudgetKind} */
const PLANNED = 'planned';

const select = requireElement('#budget-campaign', HTMLSelectElement);
const panel = requireElement('[data-budget]', HTMLElement);
const state = requireElement('[data-state]', HTMLElement);
const addButton = findElement('[data-new-entry]', HTMLButtonElement);
const categoriesBody = requireElement('[data-categories] tbody', HTMLTableSectionElement);
const entriesBody = requireElement('[data-entries] tbody', HTMLTableSectionElement);
const canvas = requireElement('[data-chart]', HTMLCanvasElement);

/** @type {import('./common.js').Campaign[]} */
let campaigns = [];
/** @type {Entry[]} */
let entries = [];
/** @type {Summary | null} */
let summary = null;
/** @type {import('chart.js').Chart<'bar'> | null} */
let chart = null;
/** The chosen campaign's figures; a campaign chosen while figures are on their way wins. */
const figureLoads = newestOnly();

const currency = () => summary?.currency ?? entries.at(0)?.currency ?? DEFAULT_CURRENCY;
/** @param {number} minor */
const money = (minor) => formatCurrency(minor, currency());

/**
 * Draws the figures' chart once it comes near the screen (a chart already there at once).
 * @param {Summary} figures
 * @param {typeof import('chart.js').Chart} Chart
 */
function drawChart(figures, Chart) {
  const rows = figures.byCategory;
  const data = {
    labels: rows.map((r) => r.category),
    datasets: [
      { label: t('budget.planned'), data: rows.map((r) => r.planned / 100), backgroundColor: '#98a2b3', borderRadius: 4 },
      { label: t('budget.spent'), data: rows.map((r) => r.spent / 100), backgroundColor: '#1f5fbf', borderRadius: 4 },
    ],
  };
  chart?.destroy();
  chart = new Chart(canvas, {
    type: 'bar',
    data,
    options: {
      plugins: {
        legend: { position: 'bottom', ...direction },
        tooltip: { ...direction, callbacks: { label: (ctx) => `${ctx.dataset.label ?? ''}: ${money((ctx.parsed.y ?? 0) * 100)}` } },
      },
      scales: {
        x: { reverse: isRtl, grid: { display: false } },
        // Axis labels in major units, short ("QAR 12K").
        y: { position: isRtl ? 'right' : 'left', beginAtZero: true, ticks: { callback: (value) => formatCompactCurrency(Number(value), currency()) } },
      },
    },
  });
}

/**
 * @param {string} text
 * @param {string} label
 */
function numberCell(text, label) {
  return element('td', { className: 'num', 'data-label': label, text });
}

/** @param {Entry} entry */
function entryRow(entry) {
  const actions = [
    entry.can.edit ? iconButton({ label: t('budget.editNamed', { category: entry.category }), icon: 'edit', onClick: () => saveEntry(entry) }) : null,
    entry.can.delete ? iconButton({ label: t('budget.deleteNamed', { category: entry.category }), icon: 'trash', danger: true, onClick: () => deleteEntry(entry) }) : null,
  ];
  return element('tr', { 'data-entry-id': entry.id }, [
    element('td', { 'data-label': t('budget.date'), text: formatDay(entry.date) }),
    element('td', { className: 'cell-wide', 'data-label': t('budget.category') }, [
      element('span', { className: 'person-name', text: entry.category }),
      ' ',
      element('span', { className: `badge ${entry.kind === PLANNED ? 'badge-muted' : ''}`, text: t(`budget.kind.${entry.kind}`) }),
      entry.description ? element('span', { className: 'entry-note', text: entry.description }) : null,
    ]),
    numberCell(formatCurrency(entry.amount, entry.currency), t('budget.amount')),
    element('td', {}, [element('div', { className: 'record-actions' }, actions)]),
  ]);
}

/** @param {Summary} figures */
function render(figures) {
  requireElement('[data-total="planned"]', HTMLElement).textContent = money(figures.planned);
  requireElement('[data-total="spent"]', HTMLElement).textContent = money(figures.spent);
  requireElement('[data-total="remaining"]', HTMLElement).textContent = money(figures.remaining);
  requireElement('[data-remaining-box]', HTMLElement).classList.toggle('kpi-box-over', figures.remaining < 0);
  categoriesBody.replaceChildren(
    ...(figures.byCategory.length
      ? figures.byCategory.map((r) =>
          element('tr', {}, [element('th', { scope: 'row', text: r.category }), numberCell(money(r.planned), t('budget.planned')), numberCell(money(r.spent), t('budget.spent'))]),
        )
      : [element('tr', {}, [element('td', { colspan: '3', className: 'muted', text: t('budget.noCategories') })])]),
  );
  entriesBody.replaceChildren(
    ...(entries.length ? entries.map(entryRow) : [element('tr', {}, [element('td', { colspan: '4', className: 'muted', text: t('budget.noEntries') })])]),
  );
  drawWhenNear(canvas, (Chart) => drawChart(figures, Chart));
}

async function loadCampaign() {
  const campaignId = select.value;
  if (!campaignId) return;
  panel.setAttribute('aria-busy', 'true');
  try {
    const [s, list] = await figureLoads.run((signal) =>
      Promise.all([
        /** @type {Promise<{ summary: Summary }>} */ (call('GET', `/api/budget-entries/summary?campaignId=${campaignId}`, undefined, { signal })),
        /** @type {Promise<Entry[]>} */ (callAll(`/api/budget-entries?campaignId=${campaignId}`, 'entries', 500, { signal })),
      ]),
    );
    summary = s.summary;
    entries = list;
    panel.hidden = false;
    state.textContent = '';
    render(s.summary);
  } catch (err) {
    state.textContent = errorMessage(err);
  }
  panel.setAttribute('aria-busy', 'false');
}

/** @param {string | undefined} text */
function toMinor(text) {
  const value = Number(String(text).replace(',', '.'));
  return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) : NaN;
}

/** @param {Entry | null} entry */
async function saveEntry(entry) {
  const saved = await editInModal({
    title: entry ? t('budget.editTitle') : t('budget.newTitle'),
    confirmText: entry ? t('common.save') : t('budget.add'),
    fields: [
      { name: 'kind', label: t('budget.kindLabel'), type: 'select', options: vocabularyOptions(domain.budgetKinds, 'budget.kind'), value: entry?.kind ?? DEFAULT_KIND },
      { name: 'category', label: t('budget.category'), required: true, maxlength: 200, value: entry?.category ?? '', hint: t('budget.categoryHint') },
      {
        name: 'amount',
        label: t('budget.amountLabel', { currency: currency() }),
        type: 'number',
        required: true,
        min: '0',
        inputmode: 'decimal',
        dir: 'ltr',
        value: entry ? String(entry.amount / 100) : '',
      },
      { name: 'date', label: t('budget.date'), type: 'date', value: entry?.date ?? new Date().toISOString().slice(0, 10) },
      { name: 'description', label: t('common.description'), type: 'textarea', rows: 2, maxlength: 10000, value: entry?.description ?? '' },
    ],
    check: (values) => ({
      category: values.category.trim() ? '' : t('budget.categoryRequired'),
      amount: Number.isNaN(toMinor(values.amount)) || values.amount === '' ? t('budget.amountInvalid') : '',
    }),
    send: async (values) => {
      const body = {
        kind: values.kind,
        category: values.category.trim(),
        amount: toMinor(values.amount),
        currency: entry?.currency ?? currency(),
        date: values.date || undefined,
        description: orNull(values.description),
      };
      if (entry) return /** @type {{ entry: Entry }} */ (await call('PATCH', `/api/budget-entries/${entry.id}`, body)).entry;
      return /** @type {{ entry: Entry }} */ (await call('POST', '/api/budget-entries', { ...body, campaignId: Number(select.value) })).entry;
    },
  });
  if (!saved) return;
  announce(tIsolated(entry ? 'budget.updated' : 'budget.created', { category: saved.category }));
  await loadCampaign();
}

/** @param {Entry} entry */
async function deleteEntry(entry) {
  const deleted = await deleteWithConfirmation(
    'budget',
    { category: entry.category, amount: formatCurrency(entry.amount, entry.currency) },
    `/api/budget-entries/${entry.id}`,
    () => addButton ?? select,
  );
  if (!deleted) return;
  await loadCampaign();
}

select.addEventListener('change', () => {
  const url = new URL(window.location.href);
  url.searchParams.set('campaignId', select.value);
  window.history.replaceState(null, '', url);
  void loadCampaign();
});
addButton?.addEventListener('click', () => void saveEntry(null));

async function start() {
  try {
    campaigns = /** @type {{ campaigns: import('./common.js').Campaign[] }} */ (await call('GET', '/api/campaigns')).campaigns;
  } catch (err) {
    state.textContent = errorMessage(err);
    panel.setAttribute('aria-busy', 'false');
    return;
  }
  if (!campaigns.length) {
    state.textContent = t('budget.noCampaigns');
    panel.setAttribute('aria-busy', 'false');
    return;
  }
  const wanted = new URL(window.location.href).searchParams.get('campaignId');
  select.replaceChildren(...campaigns.map((c) => element('option', { value: String(c.id), text: c.name, selected: String(c.id) === wanted })));
  if (addButton) addButton.disabled = false;
  await loadCampaign();
}

await start();
