// Scheduled reports on the Dashboard: the page as shown (or the saved view it shows) mailed
// every Sunday or on the 1st, with its rows attached as CSV. The list holds the reports the
// reader may manage (administrators: everyone's; others: their own), each with Send now and
// Delete. The server decides who may schedule for whom, and works the figures out under the
// recipient's access when each mail is written; the page only asks.
import { ApiError } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { formatDate } from '../core/format.js';
import { t } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { lang } from '../core/page.js';
import { call, errorText } from './common.js';

/**
 * A report as GET /api/dashboard/reports answers it.
 * @typedef {object} Report
 * @property {number} id
 * @property {'weekly' | 'monthly'} frequency
 * @property {'en' | 'ar'} language
 * @property {{ id: number, name: string | null, email: string | null }} user
 * @property {{ id: number, name: string } | null} view
 * @property {string | null} query
 * @property {{ day: string, time: string, timeZone: string }} next
 * @property {{ edit: boolean, delete: boolean, send: boolean }} can
 */

/** @typedef {{ id: number, name: string, email: string | null }} Person */

/** @param {Report} report */
const nameOf = (report) => (report.view ? report.view.name : t('reports.dashboard'));
/** @param {Report} report */
const recipientOf = (report) => report.user.name ?? report.user.email ?? String(report.user.id);

/**
 * @param {object} options
 * @param {HTMLElement} options.root views/partials/dashboard-reports.ejs
 * @param {number | null} options.me the reader's user id (null for the administrator of the server's PIN)
 * @param {boolean} options.forOthers the server's word on whether the reader schedules for anyone
 * @param {() => { viewId: number } | { query: string, view?: undefined }} options.current what the page shows: its saved view, or its address
 * @param {() => string | null} options.viewName the name of the saved view the page shows as saved, if any
 */
export function createReports({ root, me, forOthers, current, viewName }) {
  const list = requireElement('[data-reports-list]', HTMLUListElement, root);
  const empty = requireElement('[data-reports-empty]', HTMLElement, root);
  const add = requireElement('[data-report-add]', HTMLButtonElement, root);
  const status = requireElement('[data-reports-status]', HTMLElement, root);
  add.hidden = !forOthers && me === null;

  /** @param {string} text */
  const say = (text) => {
    status.textContent = text;
  };

  /** Who a report may go to: anyone with an address for administrators, else the reader. @returns {Promise<Person[]>} */
  async function people() {
    if (!forOthers) return me === null ? [] : [{ id: me, name: t('reports.me'), email: null }];
    try {
      const { users } = /** @type {{ users: Person[] }} */ (await call('GET', '/api/users'));
      return users.filter((u) => u.email);
    } catch {
      return [];
    }
  }

  async function schedule() {
    const recipients = await people();
    const what = current();
    const shownView = 'viewId' in what ? viewName() : null;
    void openModal({
      title: t('reports.scheduleTitle'),
      message: shownView ? t('reports.theView', { name: shownView }) : t('reports.thisPage'),
      confirmText: t('reports.save'),
      returnFocus: add,
      fields: [
        {
          name: 'frequency',
          label: t('reports.frequency'),
          type: 'select',
          value: 'weekly',
          options: [
            { value: 'weekly', label: t('reports.weekly') },
            { value: 'monthly', label: t('reports.monthly') },
          ],
        },
        ...(forOthers
          ? [
              {
                name: 'userId',
                label: t('reports.recipient'),
                type: /** @type {const} */ ('select'),
                value: String(me ?? recipients.at(0)?.id ?? ''),
                options: recipients.map((p) => ({ value: String(p.id), label: `${p.name} <${p.email}>` })),
                required: true,
              },
            ]
          : []),
        {
          name: 'language',
          label: t('reports.language'),
          type: 'select',
          value: lang,
          options: [
            { value: 'en', label: t('reports.languages.en') },
            { value: 'ar', label: t('reports.languages.ar') },
          ],
        },
      ],
      onConfirm: async ({ values, setError }) => {
        const userId = forOthers ? Number(values.userId) : me;
        if (!userId) {
          setError(t('errors.RECIPIENT_NO_EMAIL'));
          return false;
        }
        try {
          const { report } = /** @type {{ report: Report }} */ (
            await call('POST', '/api/dashboard/reports', { ...what, frequency: values.frequency, userId, language: values.language })
          );
          say(t('reports.created', { date: formatDate(report.next.day) }));
          await load();
          return true;
        } catch (err) {
          setError(errorText(err, 'reports.failed'));
          return false;
        }
      },
    });
  }
  add.addEventListener('click', () => void schedule());

  /** @param {Report} report @param {HTMLButtonElement} button */
  async function sendNow(report, button) {
    button.disabled = true;
    try {
      await call('POST', `/api/dashboard/reports/${report.id}/send`);
      // The address keeps its own direction inside an Arabic sentence.
      say(t('reports.sent', { email: `\u2068${report.user.email ?? recipientOf(report)}\u2069` }));
    } catch (err) {
      say(errorText(err, 'reports.sendFailed'));
      if (err instanceof ApiError && err.status === 404) await load();
    } finally {
      button.disabled = false;
    }
  }

  /** @param {Report} report */
  function confirmDelete(report) {
    void openModal({
      title: t('reports.deleteTitle'),
      message: t('reports.deleteMessage', { name: nameOf(report), recipient: recipientOf(report) }),
      danger: true,
      confirmText: t('reports.deleteConfirm'),
      returnFocus: add,
      onConfirm: async ({ setError }) => {
        try {
          await call('DELETE', `/api/dashboard/reports/${report.id}`);
        } catch (err) {
          // Gone already: the outcome is the one wanted.
          if (!(err instanceof ApiError && err.status === 404)) {
            setError(errorText(err, 'reports.failed'));
            return false;
          }
        }
        say(t('reports.deleted'));
        await load();
        return true;
      },
    });
  }

  /** @param {Report} report */
  function item(report) {
    const labels = { name: nameOf(report), recipient: recipientOf(report) };
    const send = element('button', { type: 'button', className: 'button button-ghost', 'aria-label': t('reports.sendNowLabel', labels), text: t('reports.sendNow') });
    const remove = element('button', { type: 'button', className: 'button button-danger-quiet', 'aria-label': t('reports.deleteLabel', labels), text: t('reports.delete') });
    send.addEventListener('click', () => void sendNow(report, send));
    remove.addEventListener('click', () => confirmDelete(report));
    return element('li', { className: 'note report', 'data-report': String(report.id) }, [
      element('span', { className: 'note-when', text: t(report.frequency === 'weekly' ? 'reports.weeklyShort' : 'reports.monthlyShort') }),
      element('bdi', { className: 'report-name', text: labels.name }),
      element('span', { className: 'report-to' }, [`${t('reports.to')} `, element('bdi', { text: labels.recipient }), report.user.email ? element('span', { className: 'user-email', dir: 'ltr', text: report.user.email }) : null]),
      element('span', { className: 'muted report-next', text: t('reports.next', { date: formatDate(report.next.day), time: report.next.time, zone: report.next.timeZone }) }),
      element('span', { className: 'note-actions' }, [report.can.send ? send : null, report.can.delete ? remove : null]),
    ]);
  }

  async function load() {
    /** @type {Report[]} */
    let reports;
    try {
      reports = /** @type {{ reports: Report[] }} */ (await call('GET', '/api/dashboard/reports')).reports;
    } catch {
      reports = [];
    }
    empty.hidden = reports.length > 0;
    list.replaceChildren(...reports.map(item));
  }

  void load();
}
