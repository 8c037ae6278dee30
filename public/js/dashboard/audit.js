// The audit trail in Settings: newest events first, filtered by action and by who acted,
// older pages on demand (the server's nextCursor), and the same events as CSV.
import { element, requireElement } from '../core/dom.js';
import { formatMoment } from '../core/format.js';
import { t } from '../core/i18n.js';
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
const shown = (value) => (value === undefined ? '' : JSON.stringify(value));

/** @param {AuditEvent} e */
function row(e) {
  const change = e.before === undefined && e.after === undefined ? '' : `${shown(e.before) || '—'} → ${shown(e.after) || '—'}`;
  return element('tr', {}, [
    cell(formatMoment(e.at)),
    cell(e.actor),
    cell(t(`audit.actions.${e.action}`)),
    cell(e.target ?? ''),
    cell(element('code', { className: 'audit-change', text: change })),
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
