// Budget: a campaign's planned and spent money, by category (a Chart.js bar chart with the
// same figures in a table), and its entries. Amounts travel in minor units (cents, fils);
// managers and superadmins write, contributors read.
import { announce, call, callAll, element, errorMessage, formatDay, formatMoney, isManager, isRtl, lang, t } from './common.js';
import { iconButton } from './icons.js';
import { deleteWithConfirmation, editInModal, orNull } from './records.js';

const DEFAULT_CURRENCY = 'QAR';
const KINDS = ['planned', 'spent'];

const select = document.getElementById('budget-campaign');
const panel = document.querySelector('[data-budget]');
const state = document.querySelector('[data-state]');
const addButton = document.querySelector('[data-new-entry]');
const categoriesBody = document.querySelector('[data-categories] tbody');
const entriesBody = document.querySelector('[data-entries] tbody');
const canvas = document.querySelector('[data-chart]');
const manager = isManager();

let campaigns = [];
let entries = [];
let summary = null;
let chart = null;

const { Chart } = window;
Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
Chart.defaults.locale = lang;
Chart.defaults.maintainAspectRatio = false;
if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) Chart.defaults.animation = false;

const currency = () => summary?.currency ?? entries[0]?.currency ?? DEFAULT_CURRENCY;
const money = (minor) => formatMoney(minor, currency());

/** Axis labels in major units, short ("QAR 12K"), in the page's language. */
function axisMoney(major) {
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency: currency(), notation: 'compact', maximumFractionDigits: 1 }).format(major);
  } catch {
    return new Intl.NumberFormat(lang, { notation: 'compact' }).format(major);
  }
}

function drawChart() {
  const rows = summary.byCategory;
  const data = {
    labels: rows.map((r) => r.category),
    datasets: [
      { label: t('budget.planned'), data: rows.map((r) => r.planned / 100), backgroundColor: '#98a2b3', borderRadius: 4 },
      { label: t('budget.spent'), data: rows.map((r) => r.spent / 100), backgroundColor: '#1f5fbf', borderRadius: 4 },
    ],
  };
  const direction = { rtl: isRtl, textDirection: isRtl ? 'rtl' : 'ltr' };
  chart?.destroy();
  chart = new Chart(canvas, {
    type: 'bar',
    data,
    options: {
      plugins: {
        legend: { position: 'bottom', ...direction },
        tooltip: { ...direction, callbacks: { label: (ctx) => `${ctx.dataset.label}: ${money(ctx.parsed.y * 100)}` } },
      },
      scales: {
        x: { reverse: isRtl, grid: { display: false } },
        y: { position: isRtl ? 'right' : 'left', beginAtZero: true, ticks: { callback: (value) => axisMoney(value) } },
      },
    },
  });
}

function numberCell(text, label) {
  return element('td', { className: 'num', 'data-label': label, text });
}

function entryRow(entry) {
  const actions = manager
    ? [
        iconButton({ label: t('budget.editNamed', { category: entry.category }), icon: 'edit', onClick: () => saveEntry(entry) }),
        iconButton({ label: t('budget.deleteNamed', { category: entry.category }), icon: 'trash', danger: true, onClick: () => deleteEntry(entry) }),
      ]
    : [];
  return element('tr', { 'data-entry-id': entry.id }, [
    element('td', { 'data-label': t('budget.date'), text: formatDay(entry.date) }),
    element('td', { className: 'cell-wide', 'data-label': t('budget.category') }, [
      element('span', { className: 'person-name', text: entry.category }),
      ' ',
      element('span', { className: `badge ${entry.kind === 'planned' ? 'badge-muted' : ''}`, text: t(`budget.kind.${entry.kind}`) }),
      entry.description ? element('span', { className: 'entry-note', text: entry.description }) : null,
    ]),
    numberCell(formatMoney(entry.amount, entry.currency), t('budget.amount')),
    element('td', {}, [element('div', { className: 'record-actions' }, actions)]),
  ]);
}

function render() {
  document.querySelector('[data-total="planned"]').textContent = money(summary.planned);
  document.querySelector('[data-total="spent"]').textContent = money(summary.spent);
  document.querySelector('[data-total="remaining"]').textContent = money(summary.remaining);
  document.querySelector('[data-remaining-box]').classList.toggle('kpi-box-over', summary.remaining < 0);
  categoriesBody.replaceChildren(
    ...(summary.byCategory.length
      ? summary.byCategory.map((r) =>
          element('tr', {}, [element('th', { scope: 'row', text: r.category }), numberCell(money(r.planned), t('budget.planned')), numberCell(money(r.spent), t('budget.spent'))]),
        )
      : [element('tr', {}, [element('td', { colspan: '3', className: 'muted', text: t('budget.noCategories') })])]),
  );
  entriesBody.replaceChildren(
    ...(entries.length ? entries.map(entryRow) : [element('tr', {}, [element('td', { colspan: '4', className: 'muted', text: t('budget.noEntries') })])]),
  );
  drawChart();
}

async function loadCampaign() {
  const campaignId = select.value;
  if (!campaignId) return;
  panel.setAttribute('aria-busy', 'true');
  try {
    const [s, list] = await Promise.all([
      call('GET', `/api/budget-entries/summary?campaignId=${campaignId}`),
      callAll(`/api/budget-entries?campaignId=${campaignId}`, 'entries', 500),
    ]);
    summary = s.summary;
    entries = list;
    panel.hidden = false;
    state.textContent = '';
    render();
  } catch (err) {
    state.textContent = errorMessage(err);
  } finally {
    panel.setAttribute('aria-busy', 'false');
  }
}

function toMinor(text) {
  const value = Number(String(text).replace(',', '.'));
  return Number.isFinite(value) && value >= 0 ? Math.round(value * 100) : NaN;
}

async function saveEntry(entry) {
  const saved = await editInModal({
    title: entry ? t('budget.editTitle') : t('budget.newTitle'),
    confirmText: entry ? t('common.save') : t('budget.add'),
    fields: [
      { name: 'kind', label: t('budget.kindLabel'), type: 'select', options: KINDS.map((k) => ({ value: k, label: t(`budget.kind.${k}`) })), value: entry?.kind ?? 'spent' },
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
      if (entry) return (await call('PATCH', `/api/budget-entries/${entry.id}`, body)).entry;
      return (await call('POST', '/api/budget-entries', { ...body, campaignId: Number(select.value) })).entry;
    },
  });
  if (!saved) return;
  await loadCampaign();
  announce(t(entry ? 'budget.updated' : 'budget.created', { category: saved.category }));
}

async function deleteEntry(entry) {
  const deleted = await deleteWithConfirmation(
    'budget',
    { category: entry.category, amount: formatMoney(entry.amount, entry.currency) },
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
addButton?.addEventListener('click', () => saveEntry(null));

async function start() {
  try {
    campaigns = (await call('GET', '/api/campaigns')).campaigns;
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
