// Numbers, money and dates in the page's language, with Intl: the one place where either
// application builds a formatter, so that both show figures the same way.
import { lang } from './page.js';

/**
 * Makes a formatter when first asked for it: building one costs a few milliseconds (more for
 * dates), and a page uses only some of them, so building them all as the module loads held
 * up every page's first frame.
 * @template T
 * @param {() => T} make
 * @returns {() => T}
 */
function once(make) {
  /** @type {T | undefined} */
  let made;
  return () => (made ??= make());
}

const integer = once(() => new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }));
const decimal = once(() => new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }));
const tenths = once(() => new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }));
const cents = once(() => new Intl.NumberFormat(lang, { minimumFractionDigits: 0, maximumFractionDigits: 2 }));
const signed = once(() => new Intl.NumberFormat(lang, { maximumFractionDigits: 0, signDisplay: 'exceptZero' }));
const compact = once(() => new Intl.NumberFormat(lang, { notation: 'compact', maximumFractionDigits: 1 }));
const year = once(() => new Intl.NumberFormat(lang, { useGrouping: false }));
const percent = once(() => new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }));
const share = once(() => new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }));
const change = once(() => new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' }));
const month = once(() => new Intl.DateTimeFormat(lang, { month: 'short', year: 'numeric', timeZone: 'UTC' }));
// Day, month's name and year, rather than dateStyle 'medium': in Arabic that style pads a
// single day's digits but not a range's, so the two would read differently side by side.
const mediumDate = once(() => new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }));
const dayMonth = once(() => new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' }));
const day = once(() => new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }));
const moment = once(() => new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }));
const momentWithYear = once(() => new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' }));
// A collator has its own list of locales to build (25 to 40 ms at a phone's speed), and only
// a reader who orders a table by its names needs one.
const collator = once(() => new Intl.Collator(lang));
const list = once(() => new Intl.ListFormat(lang, { type: 'conjunction' }));

/**
 * A formatter kept in `cache` by its options, built the first time they are asked for: a
 * chart's axis and a table format the same currency hundreds of times as a page draws.
 * @template F
 * @param {Map<string, F>} cache
 * @param {object} options
 * @param {() => F} make
 * @returns {F}
 */
function keptBy(cache, options, make) {
  const key = JSON.stringify(options);
  let made = cache.get(key);
  if (made === undefined) {
    made = make();
    cache.set(key, made);
  }
  return made;
}

/** @type {Map<string, Intl.NumberFormat>} */
const numberFormats = new Map();
/** @type {Map<string, Intl.DateTimeFormat>} */
const dateFormats = new Map();

/** A number formatter whose options depend on what it formats (a currency). @param {Intl.NumberFormatOptions} options */
const numberFormat = (options) => keptBy(numberFormats, options, () => new Intl.NumberFormat(lang, options));

/** A date formatter for options only one page uses (the calendar's). @param {Intl.DateTimeFormatOptions} options */
export const dateFormat = (options) => keptBy(dateFormats, options, () => new Intl.DateTimeFormat(lang, options));

/** "a, b and c" in the page's language. @param {string[]} items */
export const formatList = (items) => list().format(items);

/** Orders two names as the page's language sorts them. @param {string} a @param {string} b */
export const compareText = (a, b) => collator().compare(a, b);

/** Calendar days travel as YYYY-MM-DD and are shown as that day wherever the reader is. */
const utcDay = (/** @type {string} */ isoDay) => Date.parse(`${isoDay}T00:00:00Z`);

/** @param {number} n */
export const formatNumber = (n) => integer().format(n);
/** @param {number} n */
export const formatDecimal = (n) => decimal().format(n);
/** Always one decimal: 0.5, 12.0. @param {number} n */
export const formatTenths = (n) => tenths().format(n);
/** @param {number} n */
export const formatSigned = (n) => signed().format(n);
/** @param {number} n */
export const formatCompact = (n) => compact().format(n);
/** @param {number | string} y */
export const formatYear = (y) => year().format(Number(y));
/** @param {number} fraction */
export const formatPercent = (fraction) => percent().format(fraction);
/** @param {number} fraction */
export const formatShare = (fraction) => share().format(fraction);
/** `pct` is in percent: 12.5 means +12.5%. @param {number} pct */
export const formatChange = (pct) => change().format(pct / 100);

/**
 * An amount without a currency; cents matter in a per-visitor average, not in a total of millions.
 * @param {number} n
 */
export const formatAmount = (n) => (Math.abs(n) >= 1000 ? integer : cents)().format(n);

/**
 * Money kept in minor units (cents, fils), in its currency; a code Intl does not know is
 * written after the number.
 * @param {number} minor
 * @param {string} currency
 */
export function formatCurrency(minor, currency) {
  try {
    return numberFormat({ style: 'currency', currency }).format(minor / 100);
  } catch {
    return `${numberFormat({ minimumFractionDigits: 2 }).format(minor / 100)} ${currency}`;
  }
}

/**
 * Money in major units, in its currency: whole units in totals of thousands, cents in a
 * per-visitor average. A `signed` amount is a change: Intl puts its sign beside the
 * number, where a "+" glued on the front of Arabic text ends up on the far side of it.
 * @param {number} major
 * @param {string} currency
 * @param {{ signed?: boolean }} [options]
 */
export function formatMoney(major, currency, { signed = false } = {}) {
  const digits = Math.abs(major) >= 1000 ? { maximumFractionDigits: 0, minimumFractionDigits: 0 } : {};
  /** @type {Intl.NumberFormatOptions} */
  const sign = signed ? { signDisplay: 'exceptZero' } : {};
  try {
    return numberFormat({ style: 'currency', currency, ...digits, ...sign }).format(major);
  } catch {
    return `${signed ? numberFormat({ maximumFractionDigits: 2, ...digits, ...sign }).format(major) : formatAmount(major)} ${currency}`;
  }
}

/**
 * Money in major units, short ("QAR 12K"), for a chart's axis.
 * @param {number} major
 * @param {string} currency
 */
export function formatCompactCurrency(major, currency) {
  try {
    return numberFormat({ style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 }).format(major);
  } catch {
    return numberFormat({ notation: 'compact' }).format(major);
  }
}

/** @param {string} yearMonth YYYY-MM */
export function formatMonth(yearMonth) {
  const [y, m] = yearMonth.split('-').map(Number);
  return month().format(Date.UTC(y, m - 1, 1));
}

/** A calendar day in the locale's medium style (the dashboard's tables and filters). @param {string} isoDay */
export const formatDate = (isoDay) => mediumDate().format(utcDay(isoDay));

/** A calendar day without its year, for a chart's axis. @param {string} isoDay */
export const formatDayMonth = (isoDay) => dayMonth().format(utcDay(isoDay));

/**
 * @param {string} startDay
 * @param {string} endDay
 */
export const formatDateRange = (startDay, endDay) => mediumDate().formatRange(utcDay(startDay), utcDay(endDay));

/** A calendar day with its month's name (the workspace's records); '' for none. @param {string | null | undefined} isoDay */
export const formatDay = (isoDay) => (isoDay ? day().format(utcDay(isoDay)) : '');

/**
 * A moment, in the reader's own time zone; the year only when it is not this one.
 * @param {string} iso
 */
export function formatMoment(iso) {
  const date = new Date(iso);
  return (date.getFullYear() === new Date().getFullYear() ? moment : momentWithYear)().format(date);
}
