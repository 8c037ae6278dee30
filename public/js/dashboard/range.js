// The dates of a data page: a named period ("last 30 days", worked out by the server from its
// clock, so a bookmark keeps meaning "the last 30 days") or a custom from/to range, and the
// grouping of the trend. The address holds `range=<preset>` or `from`/`to`, and `granularity`.
import { requireElement } from '../core/dom.js';
import { formatDate, formatDateRange } from '../core/format.js';
import { t } from '../core/i18n.js';

/** @typedef {{ from: string, to: string }} Range */
/**
 * Presets by name; Partial, since "custom" and a name from an old address are none of them.
 * @typedef {{ today: string, presets: Partial<Record<string, Range>> }} RangeSource
 */

const ISO = /^\d{4}-\d{2}-\d{2}$/;

/** @param {string} iso */
function dayBefore(iso) {
  return new Date(Date.parse(`${iso}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

/**
 * Days up to a month, weeks up to half a year, months beyond: autoGranularity in dates.ts.
 * @param {{ start: string, end: string }} shown
 */
function autoUnit(shown) {
  const days = (Date.parse(`${shown.end}T00:00:00Z`) - Date.parse(`${shown.start}T00:00:00Z`)) / 86_400_000 + 1;
  if (days <= 31) return 'day';
  return days <= 183 ? 'week' : 'month';
}

/**
 * @param {HTMLElement} root views/partials/dashboard-range.ejs
 * @param {RangeSource} source the answer of /api/dashboard/filters
 * @param {() => void} onChange
 */
export function createRangePicker(root, source, onChange) {
  const preset = requireElement('[data-range-preset]', HTMLSelectElement, root);
  const custom = requireElement('[data-range-custom]', HTMLElement, root);
  const from = requireElement('[data-range-from]', HTMLInputElement, root);
  const to = requireElement('[data-range-to]', HTMLInputElement, root);
  const apply = requireElement('[data-range-apply]', HTMLButtonElement, root);
  const error = requireElement('[data-range-error]', HTMLElement, root);
  const note = requireElement('[data-range-note]', HTMLElement, root);
  const granularity = root.querySelector('[data-range-granularity]');
  const lastDay = dayBefore(source.today);
  from.max = lastDay;
  to.max = lastDay;
  /** The dates the figures last covered: a custom range starts from them. @type {{ start: string, end: string } | null} */
  let lastShown = null;

  /** The range in force: the preset's, the custom one, or none (all dates). @returns {Range | null} */
  function current() {
    if (preset.value === 'custom') return from.value && to.value ? { from: from.value, to: to.value } : null;
    return source.presets[preset.value] ?? null;
  }

  function valid() {
    const bad = preset.value === 'custom' && Boolean(from.value && to.value) && from.value > to.value;
    error.hidden = !bad;
    from.setAttribute('aria-invalid', String(bad));
    to.setAttribute('aria-invalid', String(bad));
    return !bad;
  }

  preset.addEventListener('change', () => {
    const chosen = source.presets[preset.value];
    custom.hidden = preset.value !== 'custom';
    if (preset.value === 'custom') {
      if (!from.value && !to.value && lastShown) {
        from.value = lastShown.start;
        to.value = lastShown.end;
      }
      from.focus();
      return;
    }
    if (chosen) {
      from.value = chosen.from;
      to.value = chosen.to;
    }
    valid();
    onChange();
  });
  apply.addEventListener('click', () => {
    if (valid()) onChange();
  });
  for (const input of [from, to]) {
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && valid()) onChange();
    });
  }
  if (granularity instanceof HTMLSelectElement) granularity.addEventListener('change', () => onChange());

  const picker = {
    /** @param {URLSearchParams} params the page's address */
    restore(params) {
      const named = params.get('range') ?? '';
      const a = params.get('from') ?? '';
      const b = params.get('to') ?? '';
      if (source.presets[named]) {
        preset.value = named;
        from.value = source.presets[named].from;
        to.value = source.presets[named].to;
      } else if (ISO.test(a) && ISO.test(b) && a <= b) {
        preset.value = 'custom';
        from.value = a;
        to.value = b;
      } else {
        preset.value = '';
      }
      custom.hidden = preset.value !== 'custom';
      const unit = params.get('granularity') ?? '';
      if (granularity instanceof HTMLSelectElement && ['day', 'week', 'month'].includes(unit)) granularity.value = unit;
    },
    /** @param {URLSearchParams} params the page's address */
    appendAddress(params) {
      const range = current();
      if (preset.value === 'custom' && range) {
        params.set('from', range.from);
        params.set('to', range.to);
      } else if (range) {
        params.set('range', preset.value);
      }
      if (granularity instanceof HTMLSelectElement && granularity.value) params.set('granularity', granularity.value);
      return params;
    },
    /** @param {URLSearchParams} params a data request's query */
    appendQuery(params) {
      const range = current();
      if (range) {
        params.set('from', range.from);
        params.set('to', range.to);
      }
      if (granularity instanceof HTMLSelectElement && granularity.value) params.set('granularity', granularity.value);
      return params;
    },
    /** The range in force, or null for all dates. */
    current,
    /**
     * Says which dates the figures cover and up to when data runs; with the grouping the
     * server chose when the reader left it automatic.
     * @param {{ start: string, end: string } | null} shown
     * @param {string} [chosenUnit]
     */
    describe(shown, chosenUnit) {
      lastShown = shown;
      const parts = [];
      if (shown) parts.push(t('range.showing', { range: formatDateRange(shown.start, shown.end) }));
      parts.push(t('range.throughYesterday', { day: formatDate(lastDay) }));
      note.textContent = parts.join(' ');
      const auto = granularity instanceof HTMLSelectElement ? granularity.querySelector('[data-auto-option]') : null;
      // The server chose the unit only when the reader left it automatic; else the automatic
      // option names what it would choose, by the server's rule (autoGranularity in dates.ts).
      const unit = granularity instanceof HTMLSelectElement && granularity.value && shown ? autoUnit(shown) : chosenUnit;
      if (auto && unit) auto.textContent = t('range.auto', { unit: t(`range.${unit}`) });
    },
  };
  // Up to when the data runs is known before the figures come: said at once, in the space the
  // note keeps for itself, so the first screen is whole before the figures' answer.
  picker.describe(null);
  return picker;
}
