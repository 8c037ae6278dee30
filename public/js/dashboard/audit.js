// The audit trail in Settings: newest events first, filtered by action and by who acted,
// older pages on demand (the server's nextCursor), and the same events as CSV.
import { element, requireElement } from '../core/dom.js';
import { formatDate, formatMoment, formatNumber } from '../core/format.js';
import { has, t } from '../core/i18n.js';
import { call, cell, fromTo } from './common.js';

/** @typedef {{ id: number, at: string, actor: string, action: string, target: string | null, targetName?: string, before?: unknown, after?: unknown, ip: string | null }} AuditEvent */

const form = requireElement('#audit-filters', HTMLFormElement);
const action = requireElement('#audit-action', HTMLSelectElement);
const actor = requireElement('#audit-actor', HTMLInputElement);
const rows = requireElement('#audit-rows', HTMLTableSectionElement);
const more = requireElement('#audit-more', HTMLButtonElement);
const empty = requireElement('#audit-empty', HTMLElement);
const exportLink = requireElement('#audit-export', HTMLAnchorElement);

/** @type {number | null} */
let cursor = null;

function filters() {
  const params = new URLSearchParams();
  if (action.value) params.set('action', action.value);
  if (actor.value.trim()) params.set('actor', actor.value.trim());
  return params;
}

/** @param {unknown} value */
const isRecord = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Fields whose stored values are codes, each shown as its translation. @type {Record<string, string>} */
const CODED = { role: 'role', pinMadeBy: 'audit.pinMadeBy', format: 'audit.formats', against: 'audit.against', action: 'audit.actions' };
/** Fields that hold calendar days. */
const DAYS = new Set(['startDate', 'endDate', 'date', 'from', 'to']);

/**
 * A recorded value as a reader says it: an empty list of museums or channels means every one,
 * days and codes in the page's language.
 * @param {unknown} value
 * @param {string} [field]
 */
function said(value, field) {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : t('audit.every');
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return t(value ? 'audit.yes' : 'audit.no');
  if (typeof value !== 'string') return JSON.stringify(value);
  if (field && DAYS.has(field) && /^\d{4}-\d{2}-\d{2}$/.test(value)) return formatDate(value);
  const code = field && CODED[field] ? `${CODED[field]}.${value}` : '';
  return code && has(code) ? t(code) : value;
}

/**
 * A recorded value as nodes: each name of a list in a <bdi> of its own, so that a list of
 * Arabic and Latin museum names keeps its order and its commas in either page's direction.
 * @param {unknown} value
 * @param {string} [field]
 * @returns {(string | Node)[]}
 */
function isolated(value, field) {
  if (!Array.isArray(value) || value.length === 0) return [element('bdi', { text: said(value, field) })];
  return value.flatMap((item, i) => [i > 0 ? t('audit.separator') : '', element('bdi', { text: String(item) })]).filter((part) => part !== '');
}

/**
 * A change from one value to the other.
 * @param {unknown} before
 * @param {unknown} after
 * @param {string} [field]
 */
const change = (before, after, field) => fromTo(isolated(before, field), isolated(after, field), t('audit.towards'));

/** @param {string} field */
const fieldName = (field) => (has(`audit.fields.${field}`) ? t(`audit.fields.${field}`) : field);

/**
 * What changed, one line per field: "Museums: A, B → A" for a change, "Name: Salma" for what
 * was added or removed; the record's id is in the target column already.
 * @param {AuditEvent} e
 */
function changeOf(e) {
  if (e.before === undefined && e.after === undefined) return null;
  const before = isRecord(e.before) ? /** @type {Record<string, unknown>} */ (e.before) : null;
  const after = isRecord(e.after) ? /** @type {Record<string, unknown>} */ (e.after) : null;
  if ((e.before !== undefined && !before) || (e.after !== undefined && !after)) {
    return element('span', { className: 'audit-change' }, change(e.before, e.after));
  }
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].filter(
    (f) => f !== 'id' && JSON.stringify(before?.[f]) !== JSON.stringify(after?.[f]),
  );
  return element(
    'ul',
    { className: 'audit-change' },
    fields.map((f) =>
      element('li', {}, [
        element('span', { className: 'audit-field', text: `${fieldName(f)}: ` }),
        ...(before && after ? change(before[f], after[f], f) : isolated((after ?? before)?.[f], f)),
      ]),
    ),
  );
}

/**
 * Who acted; a failed sign-in has no one signed in, and its stored "anonymous" is said in
 * the page's language.
 * @param {AuditEvent} e
 */
const actorOf = (e) => (e.action === 'signInFailed' && e.actor === 'anonymous' ? t('audit.anonymous') : e.actor);

/**
 * What the event is about: the user's or season's name as it was then; events recorded
 * before names were kept say "User #2".
 * @param {AuditEvent} e
 */
function targetOf(e) {
  if (e.targetName) return e.targetName;
  if (!e.target) return '';
  // A target without a colon (a setting's name) has no id.
  const [kind, id] = /** @type {[string, string?]} */ (e.target.split(':'));
  if (id !== undefined && /^\d+$/.test(id) && has(`audit.targets.${kind}`)) return t(`audit.targets.${kind}`, { id });
  return has(`audit.targets.${e.target}`) ? t(`audit.targets.${e.target}`) : e.target;
}

/**
 * One event. The cells carry their column's name, which the narrow layout (a card per event)
 * prints beside the value because it has no header row.
 * @param {AuditEvent} e
 */
function row(e) {
  const labelled = (/** @type {string} */ className, /** @type {string} */ label, /** @type {string} */ text) =>
    element('td', { className, 'data-label': t(label) }, text ? element('bdi', { text }) : null);
  return element('tr', {}, [
    cell(formatMoment(e.at), 'audit-at'),
    labelled('audit-actor', 'audit.actor', actorOf(e)),
    cell(t(`audit.actions.${e.action}`), 'audit-action'),
    labelled('audit-target', 'audit.target', targetOf(e)),
    cell(changeOf(e), 'audit-what'),
    labelled('audit-ip', 'audit.ip', e.ip ?? ''),
  ]);
}

/** @param {boolean} fresh */
async function load(fresh) {
  const params = filters();
  exportLink.href = `/api/audit/export.csv${params.toString() ? `?${params}` : ''}`;
  if (!fresh && cursor !== null) params.set('cursor', String(cursor));
  const answer = /** @type {{ events: AuditEvent[], nextCursor: number | null }} */ (await call('GET', `/api/audit?${params}`));
  if (fresh) rows.replaceChildren();
  rows.append(...answer.events.map(row));
  cursor = answer.nextCursor;
  more.hidden = cursor === null;
  empty.hidden = rows.children.length > 0;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void load(true);
});
more.addEventListener('click', () => void load(false));

await load(true);
