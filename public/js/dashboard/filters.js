// The filters bar of the Dashboard and Comparison pages: one checkbox dropdown per dimension,
// built from /api/dashboard/filters (which already holds only what the user may see), with
// its state read from and written to the query string.
import { element, nextTask, requireElement } from '../core/dom.js';
import { formatDateRange, formatNumber, formatYear } from '../core/format.js';
import { t, tn } from '../core/i18n.js';
import { readJsonAttribute } from '../core/page.js';
import { call } from './common.js';

/** @typedef {{ id: number, name: string, startDate: string, endDate: string }} Season */
/** @typedef {{ visible: number, total: number }} Scope */

/**
 * The answer of GET /api/dashboard/filters.
 * @typedef {object} Filters
 * @property {string[]} museums
 * @property {string[]} channels
 * @property {number[]} years
 * @property {string[]} districts
 * @property {Season[]} seasons
 * @property {string} today
 * @property {Record<string, { from: string, to: string }>} presets
 * @property {{ museums: Scope, channels: Scope, restricted: boolean }} access
 */

/** @typedef {{ value: string, label: string, hint?: string }} FilterOption */

/**
 * @param {string} dimension
 * @param {Filters} filters
 * @returns {FilterOption[]}
 */
function optionsFor(dimension, filters) {
  switch (dimension) {
    case 'year':
      return filters.years.map((year) => ({ value: String(year), label: formatYear(year) }));
    case 'season':
      return filters.seasons.map((s) => ({ value: String(s.id), label: s.name, hint: formatDateRange(s.startDate, s.endDate) }));
    case 'museum':
      return filters.museums.map((value) => ({ value, label: value }));
    case 'channel':
      return filters.channels.map((value) => ({ value, label: value }));
    case 'district':
      return filters.districts.map((value) => ({ value, label: value }));
    default:
      return [];
  }
}

/**
 * @param {HTMLDetailsElement} details
 * @param {FilterOption[]} options
 * @param {() => void} onChange
 */
function buildDropdown(details, options, onChange) {
  const dimension = details.dataset.filter ?? '';
  const list = requireElement('[data-filter-options]', HTMLElement, details);
  const valueLabel = requireElement('[data-filter-value]', HTMLElement, details);
  const summary = requireElement('summary', HTMLElement, details);
  /** @type {{ box: HTMLInputElement, option: FilterOption }[]} */
  let boxes = [];

  /**
   * Lists `offered` as checkboxes, keeping checked those of `chosen` still among them.
   * @param {FilterOption[]} offered
   * @param {string[]} chosen
   */
  function fill(offered, chosen) {
    const wanted = new Set(chosen);
    list.replaceChildren();
    boxes = offered.map((option, index) => {
      const id = `filter-${dimension}-${index}`;
      const box = element('input', { type: 'checkbox', id, value: option.value });
      box.checked = wanted.has(option.value);
      list.append(
        element('label', { className: 'check dropdown-option', for: id }, [
          box,
          element('span', { className: 'option-text' }, [
            element('span', { text: option.label }),
            option.hint ? element('span', { className: 'option-hint', text: option.hint }) : null,
          ]),
        ]),
      );
      box.addEventListener('change', () => {
        refreshLabel();
        onChange();
      });
      return { box, option };
    });
    if (offered.length === 0) list.append(element('p', { className: 'muted dropdown-empty', text: t('filters.none') }));
    refreshLabel();
  }

  function refreshLabel() {
    const chosen = boxes.filter((b) => b.box.checked);
    valueLabel.textContent = chosen.length === 0 ? t('filters.all') : chosen.length === 1 ? chosen[0].option.label : tn('filters.selected', chosen.length);
    details.classList.toggle('dropdown-active', chosen.length > 0);
  }

  fill(options, []);

  // Arrow keys move between the options, Escape closes and returns to the toggle.
  details.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && details.open) {
      event.preventDefault();
      details.open = false;
      summary.focus();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const inputs = boxes.map((b) => b.box);
    if (inputs.length === 0) return;
    event.preventDefault();
    if (!details.open) details.open = true;
    const at = inputs.findIndex((input) => input === document.activeElement);
    const next = event.key === 'ArrowDown' ? (at + 1) % inputs.length : (at <= 0 ? inputs.length : at) - 1;
    inputs[next].focus();
  });

  return {
    dimension,
    values: () => boxes.filter((b) => b.box.checked).map((b) => b.option.value),
    /** @param {string[]} values */
    set(values) {
      const wanted = new Set(values);
      for (const b of boxes) b.box.checked = wanted.has(b.option.value);
      refreshLabel();
    },
    /** @param {FilterOption[]} offered */
    offer(offered) {
      fill(
        offered,
        boxes.filter((b) => b.box.checked).map((b) => b.option.value),
      );
    },
  };
}

/**
 * Builds the bar inside `root` (rendered by views/partials/dashboard-filters.ejs).
 * `onChange` runs after any change.
 * @param {HTMLElement} root
 * @param {Filters} filters
 * @param {() => void} onChange
 */
export function createFilterBar(root, filters, onChange) {
  const clear = requireElement('[data-filters-clear]', HTMLButtonElement, root);
  const all = [...root.querySelectorAll('details[data-filter]')].filter((node) => node instanceof HTMLDetailsElement);
  /** @type {ReturnType<typeof buildDropdown>[]} */
  const dropdowns = [];
  const changed = () => {
    clear.hidden = all.length === 0 || dropdowns.every((d) => d.values().length === 0);
    onChange();
  };
  for (const details of all) dropdowns.push(buildDropdown(details, optionsFor(details.dataset.filter ?? '', filters), changed));

  // One dropdown open at a time; a click elsewhere closes it.
  for (const details of all) {
    details.addEventListener('toggle', () => {
      if (details.open) for (const other of all) if (other !== details) other.open = false;
    });
  }
  document.addEventListener('click', (event) => {
    for (const details of all) if (details.open && !(event.target instanceof Node && details.contains(event.target))) details.open = false;
  });
  clear.addEventListener('click', () => {
    for (const d of dropdowns) d.set([]);
    changed();
    (all[0]?.querySelector('summary') ?? clear).focus();
  });

  return {
    /**
     * Restores the choices from a query string, keeping only values that are offered.
     * @param {URLSearchParams} params
     */
    restore(params) {
      for (const d of dropdowns) d.set(params.getAll(d.dimension));
      clear.hidden = dropdowns.every((d) => d.values().length === 0);
    },
    /**
     * Adds the current choices to `params` (each dimension repeatable).
     * @param {URLSearchParams} params
     */
    appendTo(params) {
      for (const d of dropdowns) for (const value of d.values()) params.append(d.dimension, value);
      return params;
    },
    /**
     * Offers what the filters hold now (a season added, renamed or deleted elsewhere), the
     * choices still offered kept.
     * @param {Filters} fresh
     */
    update(fresh) {
      for (const [i, d] of dropdowns.entries()) d.offer(optionsFor(all[i].dataset.filter ?? '', fresh));
      clear.hidden = dropdowns.every((d) => d.values().length === 0);
    },
  };
}

/**
 * What the filters may offer now, read again without touching the page; null when it cannot be read.
 * @returns {Promise<Filters | null>}
 */
export async function readFilters() {
  try {
    return /** @type {Filters} */ (await call('GET', '/api/dashboard/filters'));
  } catch {
    return null;
  }
}

/**
 * @param {'museums' | 'channels'} kind
 * @param {Scope} scope
 */
function scopeText(kind, { visible, total }) {
  if (visible >= total) return t(kind === 'museums' ? 'access.allMuseums' : 'access.allChannels');
  return tn(`access.${kind}`, total, { visible: formatNumber(visible), total: formatNumber(total) });
}

/**
 * Tells a restricted user what the figures cover ("2 of 6 museums"), so the permission
 * filter is never silent. Returns false when the account can see no data at all.
 * @param {HTMLElement} notice
 * @param {Filters['access'] | undefined} access
 */
export function showAccess(notice, access) {
  if (!access || !access.restricted) return true;
  const blind = (access.museums.visible === 0 && access.museums.total > 0) || (access.channels.visible === 0 && access.channels.total > 0);
  notice.hidden = false;
  notice.classList.toggle('notice-warning', blind);
  notice.replaceChildren(
    element('span', { className: 'notice-icon', 'aria-hidden': 'true', text: blind ? '!' : 'i' }),
    element('div', { className: 'notice-body' }, [
      element('strong', { className: 'notice-title', text: t(blind ? 'access.blindTitle' : 'access.title') }),
      element('p', { text: blind ? t('access.noData') : t('access.text') }),
      blind
        ? null
        : element('p', { className: 'notice-badges' }, [
            element('span', { className: 'badge', 'data-access': 'museums', text: scopeText('museums', access.museums) }),
            element('span', { className: 'badge', 'data-access': 'channels', text: scopeText('channels', access.channels) }),
          ]),
    ]),
  );
  return !blind;
}

/**
 * The filters the server sent with the page, which spare its first start a round trip before
 * the figures can be asked for. Used once: a start again (after an error) asks afresh.
 * @type {Filters | undefined}
 */
let sent = /** @type {{ filters?: Filters }} */ (readJsonAttribute('data-context')).filters;

/**
 * Takes what the filters may offer (sent with the page, or fetched) and tells a restricted
 * user what they see. Resolves with the answer, or with null when the page has nothing to show
 * (after saying why), always in a task of its own: with the filters sent, nothing else would
 * end the task that evaluated the page's scripts, and the bars built from the answer would run
 * in it too.
 * @param {ReturnType<typeof import('./common.js').resultsView>} view
 * @returns {Promise<Filters | null>}
 */
export async function loadFilters(view) {
  /** @type {Filters} */
  let filters;
  try {
    filters = sent ?? /** @type {Filters} */ (await call('GET', '/api/dashboard/filters'));
    sent = undefined;
  } catch {
    view.showState('error');
    return null;
  }
  await nextTask();
  if (!showAccess(requireElement('#access-notice', HTMLElement), filters.access)) {
    requireElement('[data-filters]', HTMLElement).hidden = true;
    document.querySelector('[data-range]')?.setAttribute('hidden', '');
    view.results.hidden = true;
    return null;
  }
  return filters;
}
