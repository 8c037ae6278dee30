// What every dashboard page script shares: requests behind the dashboard's session rule, the
// results area of the data pages, and the small pieces of markup they repeat.
import { ApiError, newestOnly, sessionClient } from '../core/api.js';
import { afterNextFrame, element, requireElement } from '../core/dom.js';
import { formatMoney } from '../core/format.js';
import { has, t } from '../core/i18n.js';
import { readJsonAttribute } from '../core/page.js';

/** The dashboard's currency (DASHBOARD_CURRENCY), given by the server in the page's context. */
export const currency = /** @type {{ currency?: string }} */ (readJsonAttribute('data-context')).currency ?? 'QAR';

/** A revenue figure in the dashboard's currency and the page's language. @param {number} major */
export const money = (major) => formatMoney(major, currency);

/**
 * A signed-out session (or one that expired) goes back to the PIN page, which then returns
 * here. A 403 is no reason to leave: it refuses one action to a signed-in viewer.
 */
export const { call, guard } = sessionClient({
  endsSession: (status) => status === 401,
  leave: () => window.location.assign(`/dashboard/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`),
});

/**
 * A failed request in the page's words: the translation of the server's error code
 * (`errors.<CODE>`) when the page has one, else the page's own message `fallback` (a key).
 * @param {unknown} err
 * @param {string} fallback
 */
export function errorText(err, fallback) {
  if (err instanceof ApiError && err.code && has(`errors.${err.code}`)) return t(`errors.${err.code}`);
  return t(fallback);
}

/** @typedef {{ visitors: number, revenue: number, days: number }} Totals */

/** Percent change from `before` to `after`; null when there is nothing to compare with.
 * @param {number} before
 * @param {number} after
 */
export function percentChange(before, after) {
  return before > 0 ? ((after - before) / before) * 100 : null;
}

/**
 * A change shown by colour, arrow, sign and (for screen readers) a word, so that colour is
 * never the only cue.
 * @param {number} value
 * @param {string} text
 */
export function deltaNode(value, text) {
  const direction = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  return element('span', { className: `delta delta-${direction}` }, [
    element('span', { className: 'delta-arrow', 'aria-hidden': 'true' }),
    element('span', { className: 'sr-only', text: `${t(`totals.${direction}`)}: ` }),
    element('bdi', { text }),
  ]);
}

/**
 * "A → B": a change from one side to the other, with the arrow drawn along the reading
 * direction (no font the pages use carries "→", and looking for one slowed the first layout)
 * and read out as `towards` ("to"). Isolate each side (<bdi>) for the arrow to keep the page's
 * direction between a Latin name and an Arabic one.
 * @param {(Node | string)[]} from
 * @param {(Node | string)[]} to
 * @param {string} towards
 */
export function fromTo(from, to, towards) {
  return [...from, ' ', element('span', { className: 'arrow-mark', 'aria-hidden': 'true' }), element('span', { className: 'sr-only', text: ` ${towards} ` }), ' ', ...to];
}

/**
 * @param {import('../core/dom.js').Child | import('../core/dom.js').Child[]} content
 * @param {string} [className]
 */
export function cell(content, className) {
  return element('td', { className }, content);
}

/** @typedef {{ key: string }} KeyedRow */

/**
 * Fills a breakdown table: one row per key, its name as the row header, then `cells(row)`.
 * With `onPick`, the name is a button and a click anywhere on the row picks it (drill-down);
 * the element `hint` names tells screen readers what the button does.
 * @template {KeyedRow} R
 * @param {HTMLTableSectionElement} tbody
 * @param {R[]} rows
 * @param {(row: R) => HTMLTableCellElement[]} cells
 * @param {{ onPick: (row: R) => void, hint: string }} [drill]
 */
export function fillRows(tbody, rows, cells, drill) {
  tbody.replaceChildren(
    ...rows.map((row) => {
      if (!drill) return element('tr', {}, [element('th', { scope: 'row', text: row.key }), ...cells(row)]);
      const button = element('button', { type: 'button', className: 'drill-button', 'aria-describedby': drill.hint }, element('bdi', { text: row.key }));
      const tr = element('tr', { className: 'is-drillable' }, [element('th', { scope: 'row' }, button), ...cells(row)]);
      // The button is the row's keyboard way in; a pointer may click anywhere on the row.
      tr.addEventListener('click', () => drill.onPick(row));
      return tr;
    }),
  );
  // Each figure carries its column's name, which a narrow screen prints above it when the
  // rows stand alone as cards (the header row is then only for screen readers).
  const names = [...(tbody.closest('table')?.tHead?.rows[0]?.cells ?? [])].map((th) => th.dataset.label ?? th.textContent.trim());
  for (const tr of tbody.rows) {
    for (const td of tr.cells) if (td.tagName === 'TD') td.dataset.label ||= names[td.cellIndex] ?? '';
  }
}

/**
 * Puts the page's state in its address, so the view can be bookmarked and shared, and keeps
 * the header's language links pointing at the same view. `push` makes it a new entry of the
 * browser's history (a drill-down step, which Back undoes); otherwise it replaces the current.
 * @param {URLSearchParams} params
 * @param {{ push?: boolean }} [options]
 */
export function syncAddress(params, { push = false } = {}) {
  const query = params.toString();
  const url = query ? `${window.location.pathname}?${query}` : window.location.pathname;
  if (push && url !== `${window.location.pathname}${window.location.search}`) window.history.pushState(null, '', url);
  else window.history.replaceState(null, '', url);
  for (const link of document.querySelectorAll('.lang-toggle a[hreflang]')) {
    const target = new URLSearchParams(params);
    target.set('lang', link.getAttribute('hreflang') ?? '');
    link.setAttribute('href', `${window.location.pathname}?${target}`);
  }
}

/**
 * Draws the results' breakdowns (`[data-breakdown]`) with `draw`, each in a frame of its own after
 * the one that showed the totals, while `current()` holds (a newer answer draws its own). Drawn
 * with the totals, they made one task and one layout longer than a slow phone should be held
 * for, and on a phone they are below the first screen. A data page stays busy until the last.
 * @param {HTMLElement} results
 * @param {(section: HTMLElement) => void} draw
 * @param {() => boolean} current
 */
export async function drawBreakdownsInTurn(results, draw, current) {
  for (const section of results.querySelectorAll('[data-breakdown]')) {
    await afterNextFrame();
    if (!current()) return;
    if (section instanceof HTMLElement) draw(section);
  }
}

/** @typedef {'loading' | 'empty' | 'error' | 'noSides'} StateKind */

/**
 * The results area of a data page (views/partials/dashboard-state.ejs beside #results):
 * loading, empty and error states, the totals cards, and loads where only the latest wins.
 * @param {() => unknown} onRetry
 */
export function resultsView(onRetry) {
  const results = requireElement('#results', HTMLElement);
  const stateCard = requireElement('#state-card', HTMLElement);
  const status = requireElement('#load-status', HTMLElement);
  const retry = requireElement('[data-state-retry]', HTMLButtonElement, stateCard);
  const loads = newestOnly();
  /** How many loads have started: a load that is no longer the latest leaves the page's state to the latest. */
  let started = 0;

  /**
   * @param {StateKind | null} kind
   * @param {string} [hint] what to do about it, when the page knows better than the general advice
   */
  function showState(kind, hint = kind === 'empty' ? t('state.emptyHint') : '') {
    stateCard.hidden = !kind;
    results.hidden = Boolean(kind);
    if (!kind) return;
    requireElement('[data-state-title]', HTMLElement, stateCard).textContent = t(`state.${kind}`);
    requireElement('[data-state-hint]', HTMLElement, stateCard).textContent = hint;
    retry.hidden = kind !== 'error';
  }

  /** @param {boolean} busy */
  function setBusy(busy) {
    results.setAttribute('aria-busy', String(busy));
    results.classList.toggle('is-loading', busy);
    if (!busy) results.classList.remove('is-first-load');
  }

  retry.addEventListener('click', () => void onRetry());

  return {
    results,
    showState,
    /**
     * @param {string} name
     * @param {string | Node} value
     * @param {string | Node | (string | Node)[]} note
     */
    setKpi(name, value, note) {
      requireElement(`[data-kpi="${name}"]`, HTMLElement, results).replaceChildren(value);
      requireElement(`[data-kpi-note="${name}"]`, HTMLElement, results).replaceChildren(...(Array.isArray(note) ? note : [note]));
    },
    /**
     * GETs `url` and hands the answer to `render`, unless a newer load started meanwhile.
     * @param {string} url
     * @param {(data: unknown) => void | Promise<void>} render
     */
    async load(url, render) {
      const mine = (started += 1);
      setBusy(true);
      status.textContent = t('state.loading');
      try {
        await render(await loads.run((signal) => call('GET', url, undefined, { signal })));
        // A load that started while this answer was still being drawn speaks for both, whether
        // its own answer is still on its way or has already been shown (or failed).
        if (mine !== started) return;
        status.textContent = t('state.updated');
      } catch {
        showState('error');
        status.textContent = t('state.error');
      }
      setBusy(false);
    },
  };
}
