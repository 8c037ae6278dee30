// The audit trail in Settings: newest events first, filtered by action and by who acted,
// older pages on demand (the server's nextCursor), and the same events as CSV.
import { element, requireElement } from '../core/dom.js';
import { formatMoment, formatNumber } from '../core/format.js';
import { has, t } from '../core/i18n.js';
import { call, cell } from './common.js';

/** @typedef {{ id: number, at: string, actor: string, action: string, target: string | null, before?: unknown, after?: unknown, ip: string | null }} AuditEvent */

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

/**
 * A recorded value as a reader says it: an empty list of museums or channels means every one.
 * @param {unknown} value
 */
function said(value) {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.length ? value.map(String).join(', ') : t('audit.every');
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return t(value ? 'audit.yes' : 'audit.no');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

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
    return element('span', { className: 'audit-change', text: `${said(e.before)} → ${said(e.after)}` });
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
        before && after ? `${said(before[f])} → ${said(after[f])}` : said((after ?? before)?.[f]),
      ]),
    ),
  );
}

/** @param {AuditEvent} e */
function row(e) {
  return element('tr', {}, [
    cell(formatMoment(e.at)),
    cell(e.actor),
    cell(t(`audit.actions.${e.action}`)),
    cell(e.target ?? ''),
    cell(changeOf(e) ?? ''),
    cell(e.ip ?? ''),
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
