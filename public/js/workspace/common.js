// What every workspace page script shares: its translated strings and the signed-in user
// (rendered by the server into data-strings and data-context), formatting in the page's
// language, the API with SPEC.md's rule that a 401 or 403 signs the user out, and small
// pieces of markup the pages repeat.
import { api, ApiError } from '../core/api.js';
import { element } from '../core/dom.js';
import { has, isRtl, lang, readJsonAttribute, t, tn } from '../core/i18n.js';

export const context = readJsonAttribute('data-context');
export const me = context.user ?? null;

const integerFormat = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
const megabytes = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
const dayFormat = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortMoment = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' });
const shortMomentWithYear = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' });

export const formatNumber = (n) => integerFormat.format(n);
export const formatPercent = (fraction) => percent.format(fraction);
/** Sizes in MB with one decimal; a file under a tenth of a megabyte does not show as 0.0. */
export const formatMb = (mb) => (mb < 0.1 ? t('common.megabytesBelow', { size: megabytes.format(0.1) }) : t('common.megabytes', { size: megabytes.format(mb) }));

/** A calendar day (YYYY-MM-DD), the same day wherever the reader is. */
export function formatDay(isoDay) {
  return isoDay ? dayFormat.format(Date.parse(`${isoDay}T00:00:00Z`)) : '';
}

/** A span of calendar days, either end of which may be open. */
export function dateRange(start, end) {
  if (start && end) return t('common.dateRange', { start: formatDay(start), end: formatDay(end) });
  if (start) return t('common.from', { date: formatDay(start) });
  if (end) return t('common.until', { date: formatDay(end) });
  return t('common.noDates');
}

/** A moment, in the reader's own time zone; the year only when it is not this one. */
export function formatShortMoment(iso) {
  const date = new Date(iso);
  return (date.getFullYear() === new Date().getFullYear() ? shortMoment : shortMomentWithYear).format(date);
}

/** Amounts are kept in minor units (cents); shown in the entry's currency. */
export function formatMoney(minor, currency) {
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(minor / 100);
  } catch {
    return `${new Intl.NumberFormat(lang, { minimumFractionDigits: 2 }).format(minor / 100)} ${currency}`;
  }
}

/** `<input type="datetime-local">` works in local time without an offset. */
export function toLocalInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function fromLocalInput(value) {
  return value ? new Date(value).toISOString() : null;
}

let signingOut = false;

/** Ends the session (best effort: the server may already consider it over) and goes to /login. */
export async function signOut() {
  if (signingOut) return;
  signingOut = true;
  try {
    await api('POST', '/api/auth/logout');
  } catch {
    // The session may already be gone; the sign-in page is the answer either way.
  }
  window.location.assign('/login');
}

/** True for the answers after which SPEC.md wants the client signed out. */
export function endsSession(status) {
  return status === 401 || status === 403;
}

/**
 * The API as the pages use it: a 401 or 403 signs the user out and never settles, so that
 * the page does not flash an error while it leaves.
 */
export async function call(method, url, body) {
  try {
    return await api(method, url, body);
  } catch (err) {
    if (err instanceof ApiError && endsSession(err.status)) {
      await signOut();
      return new Promise(() => {});
    }
    throw err;
  }
}

/** Every page of a list the API serves in pages of at most `limit`. */
export async function callAll(url, key, limit = 200) {
  const items = [];
  for (let offset = 0; ; offset += limit) {
    const sep = url.includes('?') ? '&' : '?';
    const page = (await call('GET', `${url}${sep}limit=${limit}&offset=${offset}`))[key];
    items.push(...page);
    if (page.length < limit) return items;
  }
}

/** A message for a failed request, in the page's language. */
export function errorMessage(err) {
  if (err instanceof ApiError) {
    if (err.code && has(`errors.${err.code}`)) return t(`errors.${err.code}`);
    const byStatus = { 400: 'badInput', 404: 'notFound', 409: 'conflict', 413: 'tooLarge', 415: 'badType', 429: 'throttled' };
    return t(`errors.${byStatus[err.status] ?? 'generic'}`);
  }
  return t('errors.network');
}

/** The input fields a 400 named, as `{field: true}` (paths look like `body.title`). */
export function invalidFields(err) {
  const issues = err instanceof ApiError ? (err.details?.issues ?? []) : [];
  return Object.fromEntries(issues.map((i) => [String(i.path).split('.')[1], true]).filter(([name]) => name));
}

let toastTimer;

/** A short confirmation at the bottom of the page, also read by screen readers. */
export function announce(message) {
  const toast = document.getElementById('ws-toast');
  if (!toast) return;
  toast.textContent = message;
  toast.classList.add('is-visible');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => toast.classList.remove('is-visible'), 4000);
}

function initials(name) {
  const words = String(name || '?').trim().split(/\s+/).slice(0, 2);
  return words.map((w) => Array.from(w)[0] ?? '').join('').toUpperCase() || '?';
}

/** A person's picture, or their initials; decorative unless `label` is given. */
export function avatar(person, size = 'small', label) {
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': 'true' };
  if (person?.avatar) return element('img', { className: `avatar avatar-${size}`, src: person.avatar, alt: label ?? '', width: 40, height: 40 });
  const tone = person ? person.id % 8 : 'none';
  return element('span', { className: `avatar avatar-${size} avatar-tone-${tone}`, ...a11y, text: person ? initials(person.name) : '?' });
}

export function isManager(user = me) {
  return user?.role === 'superadmin' || user?.role === 'manager';
}

export function isSuperadmin(user = me) {
  return user?.role === 'superadmin';
}

/** Select options from records: `[{value, label}]`, optionally led by a "none" choice. */
export function options(records, label = (r) => r.name, none) {
  const list = records.map((r) => ({ value: String(r.id), label: label(r) }));
  return none === undefined ? list : [{ value: '', label: none }, ...list];
}

export function byId(records) {
  return new Map(records.map((r) => [r.id, r]));
}

export { ApiError, element, isRtl, lang, t, tn };
