// What every dashboard page script shares: number and date formatting in the page's
// language, the results area of the data pages, and the small pieces of markup they repeat.
import { api, ApiError } from '../core/api.js';
import { element } from '../core/dom.js';
import { lang, t } from '../core/i18n.js';

export { isRtl, lang, t, tn } from '../core/i18n.js';

const integerFormat = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
const decimalFormat = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
const moneyFormat = new Intl.NumberFormat(lang, { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const signedFormat = new Intl.NumberFormat(lang, { maximumFractionDigits: 0, signDisplay: 'exceptZero' });
const changeFormat = new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const percentFormat = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
const shareFormat = new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const compactFormat = new Intl.NumberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 });
const yearFormat = new Intl.NumberFormat(lang, { useGrouping: false });
const monthFormat = new Intl.DateTimeFormat(lang, { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dateFormat = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });

export const formatNumber = (n) => integerFormat.format(n);
export const formatDecimal = (n) => decimalFormat.format(n);
// Cents matter in a per-visitor average, not in a total of millions.
export const formatMoney = (n) => (Math.abs(n) >= 1000 ? integerFormat : moneyFormat).format(n);
export const formatSigned = (n) => signedFormat.format(n);
export const formatCompact = (n) => compactFormat.format(n);
export const formatYear = (y) => yearFormat.format(Number(y));
/** `pct` is in percent: 12.5 means +12.5%. */
export const formatChange = (pct) => changeFormat.format(pct / 100);
export const formatShare = (fraction) => shareFormat.format(fraction);
export const formatPercent = (fraction) => percentFormat.format(fraction);

export function formatMonth(yearMonth) {
  const [year, month] = yearMonth.split('-').map(Number);
  return monthFormat.format(Date.UTC(year, month - 1, 1));
}

export function formatDate(isoDate) {
  return dateFormat.format(Date.parse(`${isoDate}T00:00:00Z`));
}

export function formatDateRange(startDate, endDate) {
  return dateFormat.formatRange(Date.parse(`${startDate}T00:00:00Z`), Date.parse(`${endDate}T00:00:00Z`));
}

/** Percent change from `before` to `after`; null when there is nothing to compare with. */
export function percentChange(before, after) {
  return before > 0 ? ((after - before) / before) * 100 : null;
}

/**
 * A change shown by colour, arrow, sign and (for screen readers) a word, so that colour is
 * never the only cue.
 */
export function deltaNode(value, text) {
  const direction = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  return element('span', { className: `delta delta-${direction}` }, [
    element('span', { className: 'delta-arrow', 'aria-hidden': 'true', text: direction === 'up' ? '▲' : direction === 'down' ? '▼' : '●' }),
    element('span', { className: 'sr-only', text: `${t(`totals.${direction}`)}: ` }),
    element('bdi', { text }),
  ]);
}

export function cell(content, className) {
  return element('td', { className }, content);
}

/** Fills a breakdown table: one row per key, its name as the row header, then `cells(row)`. */
export function fillRows(tbody, rows, cells) {
  tbody.replaceChildren(...rows.map((row) => element('tr', {}, [element('th', { scope: 'row', text: row.key }), ...cells(row)])));
}

/** A signed-out session (or one that expired) goes back to the PIN page, then returns here. */
export function signInAgainOn401(err) {
  if (err instanceof ApiError && err.status === 401) {
    window.location.assign(`/dashboard/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    return true;
  }
  return false;
}

/**
 * Puts the page's state in its address, so the view can be bookmarked and shared, and keeps
 * the header's language links pointing at the same view.
 */
export function syncAddress(params) {
  const query = params.toString();
  window.history.replaceState(null, '', query ? `${window.location.pathname}?${query}` : window.location.pathname);
  for (const link of document.querySelectorAll('.lang-toggle a[hreflang]')) {
    const target = new URLSearchParams(params);
    target.set('lang', link.getAttribute('hreflang'));
    link.setAttribute('href', `${window.location.pathname}?${target}`);
  }
}

/**
 * The results area of a data page (views/partials/dashboard-state.ejs beside #results):
 * loading, empty and error states, the totals cards, and loads where only the latest wins.
 */
export function resultsView(onRetry) {
  const results = document.getElementById('results');
  const stateCard = document.getElementById('state-card');
  const status = document.getElementById('load-status');
  let latest = 0;

  function showState(kind) {
    stateCard.hidden = !kind;
    results.hidden = Boolean(kind);
    if (!kind) return;
    stateCard.querySelector('[data-state-title]').textContent = t(`state.${kind}`);
    stateCard.querySelector('[data-state-hint]').textContent = kind === 'empty' ? t('state.emptyHint') : '';
    stateCard.querySelector('[data-state-retry]').hidden = kind !== 'error';
  }

  function setBusy(busy) {
    results.setAttribute('aria-busy', String(busy));
    results.classList.toggle('is-loading', busy);
  }

  stateCard.querySelector('[data-state-retry]').addEventListener('click', onRetry);

  return {
    results,
    showState,
    setKpi(name, value, note) {
      results.querySelector(`[data-kpi="${name}"]`).replaceChildren(value);
      results.querySelector(`[data-kpi-note="${name}"]`).replaceChildren(...[].concat(note));
    },
    /** GETs `url` and hands the answer to `render`, unless a newer load started meanwhile. */
    async load(url, render) {
      const mine = ++latest;
      setBusy(true);
      status.textContent = t('state.loading');
      try {
        const data = await api('GET', url);
        if (mine !== latest) return;
        render(data);
        status.textContent = t('state.updated');
      } catch (err) {
        if (mine !== latest || signInAgainOn401(err)) return;
        showState('error');
        status.textContent = t('state.error');
      } finally {
        if (mine === latest) setBusy(false);
      }
    },
  };
}
