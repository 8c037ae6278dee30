// The filters bar of the Dashboard and Comparison pages: one checkbox dropdown per dimension,
// built from /api/dashboard/filters (which already holds only what the user may see), with
// its state read from and written to the query string.
import { api } from '../core/api.js';
import { element } from '../core/dom.js';
import { formatDateRange, formatNumber, formatYear, signInAgainOn401, t, tn } from './common.js';

function optionsFor(dimension, filters) {
  switch (dimension) {
    case 'year':
      return filters.years.map((year) => ({ value: String(year), label: formatYear(year) }));
    case 'season':
      return filters.seasons.map((s) => ({ value: String(s.id), label: s.name, hint: formatDateRange(s.startDate, s.endDate) }));
    default:
      return (filters[`${dimension}s`] ?? []).map((value) => ({ value, label: value }));
  }
}

function buildDropdown(details, options, onChange) {
  const dimension = details.dataset.filter;
  const list = details.querySelector('[data-filter-options]');
  const valueLabel = details.querySelector('[data-filter-value]');
  const boxes = options.map((option, index) => {
    const id = `filter-${dimension}-${index}`;
    const box = element('input', { type: 'checkbox', id, value: option.value });
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
  if (options.length === 0) list.append(element('p', { className: 'muted dropdown-empty', text: t('filters.none') }));

  function refreshLabel() {
    const chosen = boxes.filter((b) => b.box.checked);
    valueLabel.textContent = chosen.length === 0 ? t('filters.all') : chosen.length === 1 ? chosen[0].option.label : tn('filters.selected', chosen.length);
    details.classList.toggle('dropdown-active', chosen.length > 0);
  }

  // Arrow keys move between the options, Escape closes and returns to the toggle.
  details.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && details.open) {
      event.preventDefault();
      details.open = false;
      details.querySelector('summary').focus();
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const inputs = boxes.map((b) => b.box);
    if (inputs.length === 0) return;
    event.preventDefault();
    if (!details.open) details.open = true;
    const at = inputs.indexOf(document.activeElement);
    const next = event.key === 'ArrowDown' ? (at + 1) % inputs.length : (at <= 0 ? inputs.length : at) - 1;
    inputs[next].focus();
  });

  return {
    dimension,
    values: () => boxes.filter((b) => b.box.checked).map((b) => b.option.value),
    set(values) {
      const wanted = new Set(values);
      for (const b of boxes) b.box.checked = wanted.has(b.option.value);
      refreshLabel();
    },
  };
}

/**
 * Builds the bar inside `root` (rendered by views/partials/dashboard-filters.ejs).
 * `onChange` runs after any change, with the chosen values by dimension.
 */
export function createFilterBar(root, filters, onChange) {
  const clear = root.querySelector('[data-filters-clear]');
  const all = [...root.querySelectorAll('details[data-filter]')];
  const changed = () => {
    clear.hidden = all.length === 0 || dropdowns.every((d) => d.values().length === 0);
    onChange();
  };
  const dropdowns = all.map((details) => buildDropdown(details, optionsFor(details.dataset.filter, filters), changed));

  // One dropdown open at a time; a click elsewhere closes it.
  for (const details of all) {
    details.addEventListener('toggle', () => {
      if (details.open) for (const other of all) if (other !== details) other.open = false;
    });
  }
  document.addEventListener('click', (event) => {
    for (const details of all) if (details.open && !details.contains(event.target)) details.open = false;
  });
  clear.addEventListener('click', () => {
    for (const d of dropdowns) d.set([]);
    changed();
    (all[0]?.querySelector('summary') ?? clear).focus();
  });

  return {
    /** Restores the choices from a query string, keeping only values that are offered. */
    restore(params) {
      for (const d of dropdowns) d.set(params.getAll(d.dimension));
      clear.hidden = dropdowns.every((d) => d.values().length === 0);
    },
    /** Adds the current choices to `params` (each dimension repeatable). */
    appendTo(params) {
      for (const d of dropdowns) for (const value of d.values()) params.append(d.dimension, value);
      return params;
    },
  };
}

function scope(kind, { visible, total }) {
  if (visible >= total) return t(kind === 'museums' ? 'access.allMuseums' : 'access.allChannels');
  return tn(`access.${kind}`, total, { visible: formatNumber(visible), total: formatNumber(total) });
}

/**
 * Tells a restricted user what the figures cover ("2 of 6 museums"), so the permission
 * filter is never silent. Returns false when the account can see no data at all.
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
            element('span', { className: 'badge', 'data-access': 'museums', text: scope('museums', access.museums) }),
            element('span', { className: 'badge', 'data-access': 'channels', text: scope('channels', access.channels) }),
          ]),
    ]),
  );
  return !blind;
}

/**
 * Fetches what the filters may offer and tells a restricted user what they see. Resolves
 * with the answer, or with null when the page has nothing to show (after saying why).
 */
export async function loadFilters(view) {
  let filters;
  try {
    filters = await api('GET', '/api/dashboard/filters');
  } catch (err) {
    if (!signInAgainOn401(err)) view.showState('error');
    return null;
  }
  if (!showAccess(document.getElementById('access-notice'), filters.access)) {
    document.querySelector('[data-filters]').hidden = true;
    view.results.hidden = true;
    return null;
  }
  return filters;
}
