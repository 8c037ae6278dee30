// The notifications bell of every workspace page: the unread count, kept by the live events
// as notifications come and are read (on this device or another), and the panel that lists
// them, each a link to its post or task; a new one joins the open panel's list and is said.
import { element } from '../core/dom.js';
import { formatMoment, formatNumber } from '../core/format.js';
import { has, t, tIsolated, tnIsolated } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { announce, call, errorMessage } from './common.js';
import { byOther, flash, subscribe, tell } from './live.js';

/**
 * A notification as the API answers it.
 * @typedef {object} Notification
 * @property {number} id
 * @property {import('../../../src/workspace/domain').NotificationKind} kind
 * @property {number | null} postId
 * @property {number | null} taskId
 * @property {number | null} actorId
 * @property {string | null} actorName
 * @property {string} title the title of its post or task (the first post's, when it counts several)
 * @property {number} count how many alike happenings of one request it stands for (a bulk move)
 * @property {string} createdAt
 * @property {string | null} readAt
 */

/** @typedef {{ notifications: Notification[], unread: number }} Notifications */

const buttons = [...document.querySelectorAll('[data-notifications-open]')].filter((b) => b instanceof HTMLButtonElement);

/** Several posts at once are on the board; one opens its own panel. @param {Notification} n */
const linkOf = (n) => (n.count > 1 ? '/workspace' : n.postId !== null ? `/workspace?post=${n.postId}` : `/workspace/tasks?task=${n.taskId}`);

/** @param {number} unread */
function showCount(unread) {
  for (const button of buttons) {
    const count = button.querySelector('[data-notifications-count]');
    if (count instanceof HTMLElement) {
      count.textContent = unread > 99 ? `${formatNumber(99)}+` : formatNumber(unread);
      count.hidden = unread === 0;
    }
    const label = unread ? t('notifications.openUnread', { count: formatNumber(unread) }) : t('notifications.open');
    button.setAttribute('aria-label', label);
    button.title = label;
  }
}

/** @returns {Promise<Notifications | null>} */
async function load() {
  try {
    const answer = /** @type {Notifications} */ (await call('GET', '/api/notifications'));
    showCount(answer.unread);
    return answer;
  } catch {
    return null;
  }
}

/**
 * What a notification says. The sentence reads in the page's direction; the name and the title
 * each in their own.
 * @param {Notification} n
 */
function sentence(n) {
  const vars = { actor: n.actorName ?? t('notifications.someone'), title: n.title };
  return n.count > 1 && has(`notifications.many.${n.kind}.other`) ? tnIsolated(`notifications.many.${n.kind}`, n.count, vars) : tIsolated(`notifications.kinds.${n.kind}`, vars);
}

/** @param {Notification} n */
function item(n) {
  const text = sentence(n);
  const link = element('a', { href: linkOf(n), className: `notification${n.readAt ? '' : ' is-unread'}` }, [
    n.readAt ? null : element('span', { className: 'notification-dot', role: 'img', 'aria-label': t('notifications.unread') }),
    element('span', { className: 'notification-text' }, text),
    element('time', { className: 'notification-time', datetime: n.createdAt, text: formatMoment(n.createdAt) }),
  ]);
  link.addEventListener('click', (event) => {
    if (n.readAt) return;
    event.preventDefault();
    // Read or not, the link is followed: marking it is a courtesy, not a condition.
    void call('POST', '/api/notifications/read', { ids: [n.id] })
      .catch(() => undefined)
      .finally(() => window.location.assign(link.href));
  });
  return element('li', { 'data-notification-id': n.id }, [link]);
}

/**
 * The open panel's list, its "mark all" button and its live region, while it is open: a
 * notification that comes meanwhile joins the list at the top.
 * @type {{ list: HTMLElement, markAll: HTMLButtonElement, said: HTMLElement } | null}
 */
let panel = null;

async function openPanel() {
  const answer = await load();
  const list = element('ul', { className: 'notification-list' });
  // The page's own live region is behind the modal: one that comes while the panel is open is read out here.
  const said = element('p', { className: 'sr-only', role: 'status' });
  const markAll = element('button', { type: 'button', className: 'button button-ghost', text: t('notifications.markAll') });
  /** @param {Notifications} data */
  const show = (data) => {
    list.replaceChildren(...data.notifications.map(item));
    if (data.notifications.length === 0) list.append(element('li', { className: 'muted notification-empty', text: t('notifications.empty') }));
    markAll.hidden = data.unread === 0;
  };
  if (answer) show(answer);
  else list.append(element('li', { className: 'muted', text: t('notifications.loadFailed') }));
  panel = answer ? { list, markAll, said } : null;
  const markAllRead = async () => {
    try {
      const marked = /** @type {Notifications} */ (await call('POST', '/api/notifications/read', { all: true }));
      show(marked);
      showCount(marked.unread);
      announce(t('notifications.marked'));
    } catch (err) {
      announce(errorMessage(err));
    }
  };
  markAll.addEventListener('click', () => void markAllRead());
  await openModal({
    title: t('notifications.title'),
    content: element('div', { className: 'notification-panel' }, [element('div', { className: 'notification-tools' }, [markAll]), list, said]),
    isConfirm: false,
    confirmText: t('common.close'),
  });
  panel = null;
}

/**
 * A notification the live events bring: the count follows, the bell is marked, and the
 * notification is said (and joins the panel's list when it is open).
 * @param {import('./live.js').LiveEvents['notification']} event
 */
function arrived(event) {
  showCount(event.unread);
  if (panel) panel.markAll.hidden = event.unread === 0;
  const n = event.notification;
  if (!n) return;
  if (panel) {
    const fresh = item(n);
    const shown = panel.list.querySelector(`[data-notification-id="${n.id}"]`);
    if (shown) shown.replaceWith(fresh);
    else panel.list.prepend(fresh);
    panel.list.querySelector('.notification-empty')?.remove();
    if (byOther(event)) {
      flash(fresh.firstElementChild);
      panel.said.replaceChildren(...sentence(n));
    }
  }
  if (!byOther(event)) return;
  for (const button of buttons) flash(button);
  tell(sentence(n));
}

if (buttons.length) {
  for (const button of buttons) button.addEventListener('click', () => void openPanel());
  subscribe('notification', arrived);
  subscribe('reset', () => void load());
  void load();
}
