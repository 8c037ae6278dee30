// The outbox (for those who administer the workspace; the server refuses the page and its API to anyone else):
// each mail's recipient, subject, kind and fate, newest first, a page at a time. A mail that
// failed or was not sent can be sent again.
import { element, requireElement } from '../core/dom.js';
import { formatMoment } from '../core/format.js';
import { t, tIsolated } from '../core/i18n.js';
import { announce, call, errorMessage } from './common.js';
import { actionButton } from './icons.js';

/** @typedef {import('../../../src/workspace/mail/service').MailBody} Mail */

const table = requireElement('[data-mail]', HTMLTableElement);
const body = requireElement('tbody', HTMLTableSectionElement, table);
const state = requireElement('[data-state]', HTMLElement);
const statusFilter = requireElement('[data-mail-status]', HTMLSelectElement);
const more = requireElement('[data-mail-more]', HTMLButtonElement);
/** @type {Mail[]} */
let shown = [];
/** @type {number | null} */
let cursor = null;

const BADGES = { pending: 'badge-warning', sent: 'badge-success', failed: 'badge-danger', skipped: 'badge-muted' };

/** @param {Mail} mail */
function row(mail) {
  const retryable = mail.status === 'failed' || mail.status === 'skipped';
  return element('tr', { 'data-mail-id': mail.id }, [
    element('td', { className: 'cell-wide' }, [
      element('div', { className: 'person-text' }, [
        element('span', { className: 'person-name' }, [element('bdi', { text: mail.subject })]),
        element('span', { className: 'person-sub', dir: 'ltr', text: mail.to }),
        mail.lastError ? element('span', { className: 'field-error', dir: 'ltr', title: t('mail.lastError'), text: mail.lastError }) : null,
      ]),
    ]),
    element('td', { 'data-label': t('mail.status') }, [element('span', { className: `badge ${BADGES[mail.status]}`, text: t(`mail.statuses.${mail.status}`) })]),
    element('td', { 'data-label': t('mail.kind'), text: t(`mail.kinds.${mail.kind}`) }),
    element('td', { 'data-label': t('mail.created'), text: formatMoment(mail.createdAt) }),
    element('td', { 'data-label': t('mail.sent'), text: mail.sentAt ? formatMoment(mail.sentAt) : '—' }),
    element('td', { className: 'num', 'data-label': t('mail.attempts'), text: String(mail.attempts) }),
    element('td', {}, [
      retryable
        ? element('div', { className: 'record-actions' }, [
            actionButton({ text: t('mail.retry'), label: t('mail.retryNamed', { subject: mail.subject, to: mail.to }), icon: 'refresh', onClick: () => retry(mail) }),
          ])
        : null,
    ]),
  ]);
}

function render() {
  body.replaceChildren(...shown.map(row));
  more.hidden = cursor === null;
  state.textContent = shown.length ? '' : t(statusFilter.value ? 'mail.emptyFiltered' : 'mail.empty');
}

/** @param {boolean} next whether to add the next page to what is shown, rather than start again */
async function load(next) {
  table.setAttribute('aria-busy', 'true');
  const query = new URLSearchParams();
  if (statusFilter.value) query.set('status', statusFilter.value);
  if (next && cursor !== null) query.set('before', String(cursor));
  try {
    const page = /** @type {{ messages: Mail[], nextCursor: number | null }} */ (await call('GET', `/api/mail?${query}`));
    shown = next ? [...shown, ...page.messages] : page.messages;
    cursor = page.nextCursor;
    render();
  } catch (err) {
    state.textContent = errorMessage(err);
  } finally {
    table.setAttribute('aria-busy', 'false');
  }
}

/** @param {Mail} mail */
async function retry(mail) {
  try {
    const { message } = /** @type {{ message: Mail }} */ (await call('POST', `/api/mail/${mail.id}/retry`));
    shown = shown.map((m) => (m.id === message.id ? message : m));
    render();
    announce(tIsolated('mail.retried', { subject: message.subject, to: message.to }));
  } catch (err) {
    announce(errorMessage(err));
  }
}

statusFilter.addEventListener('change', () => void load(false));
more.addEventListener('click', () => void load(true));
void load(false);
