// What every workspace page script shares: the signed-in user and the vocabulary (rendered by
// the server into data-context), requests behind the rule (docs/decisions.md) that a 401 or 403 signs the
// user out, error messages in the page's language, and small pieces of markup the pages repeat.
import { api, ApiError, sessionClient } from '../core/api.js';
import { element, findElement } from '../core/dom.js';
import { formatDay, formatTenths } from '../core/format.js';
import { has, t } from '../core/i18n.js';
import { readJsonAttribute } from '../core/page.js';

/** @typedef {import('../../../src/workspace/domain')} Vocabulary */
/** @typedef {Vocabulary['DOMAIN']} Domain */
/** @typedef {import('../../../src/workspace/domain').Role} Role */

/** The signed-in user, as the server hands it to the page. @typedef {import('../../../src/workspace/pages/context').PageUser} Me */

/** A member as GET /api/members answers. @typedef {import('../../../src/workspace/members/service').MemberBody} Member */

/** @typedef {{ id: number, name: string }} Brand */

/** A campaign as GET /api/campaigns answers. @typedef {import('../../../src/workspace/campaigns/service').CampaignView} Campaign */

/**
 * What the server renders into the page for its scripts (src/workspace/pages/render.ts).
 * @typedef {object} PageContext
 * @property {Me | null} [user]
 * @property {{ maxBytes: number, maxFiles: number } | null} [uploads]
 * @property {Domain} domain the workspace's vocabulary: statuses, roles, platforms, kinds…
 * @property {import('../../../src/workspace/pages/context').PageCapabilities} can what the user may do before
 *   there is a record to ask (each record the API answers carries its own `can`)
 * @property {number} passwordMinLength the shortest password the server accepts
 */

export const context = /** @type {PageContext} */ (readJsonAttribute('data-context'));
export const domain = context.domain;
/** What the user may do before there is a record to ask, by the server's rules. */
export const can = context.can;

/**
 * The signed-in user, on every page with the sidebar; the forced password page has none, and
 * its scripts do not read it.
 * @type {Me}
 */
export const me = /** @type {Me} */ (context.user);

/**
 * Sizes in MB with one decimal; a file under a tenth of a megabyte does not show as 0.0.
 * @param {number} mb
 */
export const formatMb = (mb) => (mb < 0.1 ? t('common.megabytesBelow', { size: formatTenths(0.1) }) : t('common.megabytes', { size: formatTenths(mb) }));

/**
 * A span of calendar days, either end of which may be open.
 * @param {string | null} start
 * @param {string | null} end
 */
export function dateRange(start, end) {
  if (start && end) return t('common.dateRange', { start: formatDay(start), end: formatDay(end) });
  if (start) return t('common.from', { date: formatDay(start) });
  if (end) return t('common.until', { date: formatDay(end) });
  return t('common.noDates');
}

/**
 * `<input type="datetime-local">` works in local time without an offset.
 * @param {string | null | undefined} iso
 */
export function toLocalInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** @param {string} value */
export function fromLocalInput(value) {
  return value ? new Date(value).toISOString() : null;
}

let signingOut = false;

/** Ends the session (best effort: the server may already consider it over) and goes to /login. */
export async function signOut() {
  if (signingOut) return;
  signingOut = true;
  try {
    // Outside the session rule: a 401 here, from a session already gone, must not sign out again.
    await api('POST', '/api/auth/logout');
  } catch {
    // The session may already be gone; the sign-in page is the answer either way.
  }
  window.location.assign('/login');
}

/** The requests of the workspace pages: a 401 or 403 signs the user out (docs/decisions.md). */
export const { call, guard } = sessionClient({ endsSession: (status) => status === 401 || status === 403, leave: signOut });

/**
 * Every page of a list the API serves in pages of at most `limit`.
 * @param {string} url
 * @param {string} key the list's name in the answer
 * @param {number} [limit]
 * @param {import('../core/api.js').RequestOptions} [options]
 * @returns {Promise<unknown[]>}
 */
export async function callAll(url, key, limit = 200, options = {}) {
  /** @type {unknown[]} */
  const items = [];
  for (let offset = 0; ; offset += limit) {
    const sep = url.includes('?') ? '&' : '?';
    const answer = /** @type {Record<string, unknown[]>} */ (await call('GET', `${url}${sep}limit=${limit}&offset=${offset}`, undefined, options));
    const page = answer[key] ?? [];
    items.push(...page);
    if (page.length < limit) return items;
  }
}

/** @type {Record<number, string>} */
const BY_STATUS = { 400: 'badInput', 404: 'notFound', 409: 'conflict', 413: 'tooLarge', 415: 'badType', 429: 'throttled' };

/**
 * A message for a failed request, in the page's language: the translation of the server's
 * error code when there is one, else a message for its status.
 * @param {unknown} err
 */
export function errorMessage(err) {
  if (err instanceof ApiError) {
    if (err.code && has(`errors.${err.code}`)) return t(`errors.${err.code}`);
    return t(`errors.${BY_STATUS[err.status] ?? 'generic'}`);
  }
  return t('errors.network');
}

/**
 * The input fields a 400 named, as `{field: true}` (paths look like `body.title`).
 * @param {unknown} err
 * @returns {Record<string, true>}
 */
export function invalidFields(err) {
  const issues = err instanceof ApiError ? (err.details?.issues ?? []) : [];
  /** @type {Record<string, true>} */
  const fields = {};
  for (const issue of issues) {
    const name = issue.path.split('.')[1];
    if (name) fields[name] = true;
  }
  return fields;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/**
 * A short confirmation at the bottom of the page, also read by screen readers: a string, or
 * the nodes of `tIsolated` when it names a record or a person.
 * @param {string | (string | Node)[]} message
 */
export function announce(message) {
  const toast = document.getElementById('ws-toast');
  if (!toast) return;
  toast.replaceChildren(...[message].flat());
  toast.classList.add('is-visible');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => toast.classList.remove('is-visible'), 4000);
}

/** @param {string | null | undefined} name */
function initials(name) {
  const words = (name || '?').trim().split(/\s+/).slice(0, 2);
  return words.map((w) => Array.from(w)[0] ?? '').join('').toUpperCase() || '?';
}

/** @typedef {{ id: number, name: string, avatar?: string | null }} Person */

/**
 * A person's picture, or their initials; decorative unless `label` is given.
 * @param {Person | null} person
 * @param {string} [size]
 * @param {string} [label]
 */
export function avatar(person, size = 'small', label) {
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': 'true' };
  if (person?.avatar) return element('img', { className: `avatar avatar-${size}`, src: person.avatar, alt: label ?? '', width: 40, height: 40 });
  const tone = person ? person.id % 8 : 'none';
  return element('span', { className: `avatar avatar-${size} avatar-tone-${tone}`, ...a11y, text: person ? initials(person.name) : '?' });
}

/** @typedef {{ value: string, label: string }} Option */

/**
 * Select options from records: `[{value, label}]`, optionally led by a "none" choice.
 * @template {{ id: number, name: string }} R
 * @param {R[]} records
 * @param {(record: R) => string} [label]
 * @param {string} [none]
 * @returns {Option[]}
 */
export function options(records, label = (r) => r.name, none) {
  const list = records.map((r) => ({ value: String(r.id), label: label(r) }));
  return none === undefined ? list : [{ value: '', label: none }, ...list];
}

/**
 * Select options from a list of the vocabulary, each labelled by its translation under `prefix`.
 * @param {readonly string[]} values
 * @param {string} prefix
 * @returns {Option[]}
 */
export function vocabularyOptions(values, prefix) {
  return values.map((value) => ({ value, label: t(`${prefix}.${value}`) }));
}

/**
 * @template {{ id: number }} R
 * @param {R[]} records
 */
export function byId(records) {
  return new Map(records.map((r) => [r.id, r]));
}

// ## The record a search result opened

/**
 * The id in the page's address under `param` (`/workspace/tasks?task=7`): the record a
 * search result points at; null when there is none.
 * @param {string} param
 */
export function targetOf(param) {
  const value = new URL(window.location.href).searchParams.get(param);
  return value && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

/**
 * Shows the record a search result opened, once the page has drawn its list: scrolled into
 * view, outlined, and focused, so that keyboard and screen reader users arrive on it too.
 * When it is not there (deleted since, or no longer the user's to see), says so.
 * @param {ParentNode} root where the page draws its records
 * @param {string} attribute the records' id attribute, such as `data-post-id`
 * @param {number | null} id
 */
export function revealTarget(root, attribute, id) {
  if (id === null) return;
  const node = findElement(`[${attribute}="${id}"]`, HTMLElement, root);
  if (!node) {
    announce(t('search.gone'));
    return;
  }
  node.classList.add('is-search-target');
  if (!node.hasAttribute('tabindex')) node.setAttribute('tabindex', '-1');
  node.scrollIntoView({ block: 'center', inline: 'center' });
  node.focus({ preventScroll: true });
}

/**
 * The record a link names (`?<param>=ID`, from a search result or a notification), once the
 * page has drawn its list: revealed there when shown, else asked of the API (it may be under
 * another filter); null, said in the toast, when it is gone. The address then drops it.
 * @template {{ id: number }} R
 * @param {{ param: string, shown: R[], root: ParentNode, attribute: string, fetch: (id: number) => Promise<R>, gone: string }} options
 * @returns {Promise<R | null>}
 */
export async function linkedRecord({ param, shown, root, attribute, fetch, gone }) {
  const id = targetOf(param);
  if (id === null) return null;
  const url = new URL(window.location.href);
  url.searchParams.delete(param);
  window.history.replaceState(null, '', url);
  const found = shown.find((r) => r.id === id);
  if (found) {
    revealTarget(root, attribute, id);
    return found;
  }
  try {
    return await fetch(id);
  } catch {
    announce(gone);
    return null;
  }
}
