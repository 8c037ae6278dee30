// The workspace's live events: one stream per page (GET /api/events) of what colleagues do
// that this member may see, each record as the API gives it to this member, with its `can`.
// Pages subscribe to the kinds they show and apply each change in place; what changed by
// someone else's hand is marked for a moment and said through the page's live region. A form
// open on a record that changes is never rewritten under the member's hands: a notice says so,
// with a Reload button. The member's own role or brands changing reloads the page (once no form
// is open); an account that ends goes to the sign-in page.
import { eventStream } from '../core/live.js';
import { element } from '../core/dom.js';
import { t, tn } from '../core/i18n.js';
import { announce, call, me, signOut } from './common.js';

/** @typedef {import('./conversation.js').Comment} Comment */
/** @typedef {import('./notifications.js').Notification} Notification */

/**
 * Who acted: a member's id, or null for the system.
 * @typedef {{ by: number | null }} Attributed
 */

/**
 * What each event's data holds. A record (`post`, `task`, `asset`) is the body the API gives
 * this member for it, and is absent when it is deleted (or no longer this member's to see).
 * @typedef {object} LiveEvents
 * @property {Attributed & { notification: Notification | null, unread: number }} notification a new
 *   notification with the unread count; null with the count alone when that changed otherwise
 * @property {Attributed & { id: number, action: 'created' | 'updated' | 'moved' | 'deleted', post?: unknown }} post
 * @property {Attributed & { id: number, action: 'created' | 'updated' | 'deleted', task?: unknown }} task
 * @property {Attributed & { id: number, action: 'created' | 'updated' | 'deleted', asset?: unknown }} asset
 * @property {Attributed & { id: number, action: 'created' | 'updated' | 'deleted', postId?: number, taskId?: number, comment?: Comment }} comment
 * @property {Attributed & { reason: 'role' | 'brands' | 'password' | 'deleted' }} access
 * @property {Attributed} reset what was missed is too old to replay: everything shown is read again
 */

/** How long a change stays marked. */
export const HIGHLIGHT_MS = 3000;
const HIGHLIGHT = 'is-live-change';
/** Changes said within this long of each other are said together. */
const GATHER_MS = 400;
/** More together than this are said as how many there were (a bulk move). */
const GATHER_MAX = 3;

// A refused stream may mean the session ended: asking the API finds out, and signs out if so.
const stream = eventStream('/api/events', { onRefused: () => call('GET', '/api/auth/me') });

/**
 * Calls `handler` with every `name` event until the returned function is called.
 * @template {keyof LiveEvents} K
 * @param {K} name
 * @param {(data: LiveEvents[K]) => void} handler
 * @returns {() => void}
 */
export function subscribe(name, handler) {
  return stream.on(name, (data) => handler(/** @type {LiveEvents[K]} */ (data)));
}

/**
 * `subscribe` for a part of the page that comes and goes, such as a panel in a dialog: the
 * handler runs while `node` is on the page, and the subscription ends at the first event after
 * the node has left it.
 * @template {keyof LiveEvents} K
 * @param {Node} node
 * @param {K} name
 * @param {(data: LiveEvents[K]) => void} handler
 */
export function subscribeWhileShown(node, name, handler) {
  let shown = node.isConnected;
  const stop = subscribe(name, (data) => {
    if (node.isConnected) {
      shown = true;
      handler(data);
    } else if (shown) {
      stop();
    }
  });
  // It is built before it is placed: by its first frame it is on the page.
  requestAnimationFrame(() => {
    shown ||= node.isConnected;
  });
  return stop;
}

/**
 * Whether a change is someone else's: the member's own (made here or in another tab) is
 * applied without a mark or a word, as the page that made it already said it.
 * @param {Attributed} event
 */
export const byOther = (event) => event.by !== me.id;

/**
 * Takes a mark off `node` so that the next one starts its fade from the beginning (a style
 * read in between makes the browser see the mark go).
 * @param {Element} node
 */
function restart(node) {
  if (!node.classList.contains(HIGHLIGHT)) return;
  node.classList.remove(HIGHLIGHT);
  node.getBoundingClientRect();
}

/**
 * Marks `node` as just changed, for a moment.
 * @param {Element | null | undefined} node
 */
export function flash(node) {
  if (!node) return;
  restart(node);
  node.classList.add(HIGHLIGHT);
  setTimeout(() => node.classList.remove(HIGHLIGHT), HIGHLIGHT_MS);
}

/**
 * The records of a list that the page draws again and again (a board, a calendar, a grid)
 * marked while they are just changed, in each drawing: `show()` after drawing marks them
 * again, their fade carried on from where it was rather than started over.
 * @param {ParentNode} root
 * @param {string} attribute the records' id attribute, such as `data-post-id`
 */
export function highlights(root, attribute) {
  /** @type {Map<number, number>} when each mark began */
  const since = new Map();
  const nodesOf = (/** @type {number} */ id) => root.querySelectorAll(`[${attribute}="${id}"]`);
  function show() {
    const now = Date.now();
    for (const [id, start] of since) {
      for (const node of nodesOf(id)) {
        if (!(node instanceof HTMLElement) || node.classList.contains(HIGHLIGHT)) continue;
        node.style.setProperty('--live-elapsed', `${start - now}ms`);
        node.classList.add(HIGHLIGHT);
      }
    }
  }
  return {
    /** @param {number} id */
    mark(id) {
      const start = Date.now();
      since.set(id, start);
      for (const node of nodesOf(id)) restart(node);
      show();
      setTimeout(() => {
        if (since.get(id) !== start) return;
        since.delete(id);
        for (const node of nodesOf(id)) node.classList.remove(HIGHLIGHT);
      }, HIGHLIGHT_MS);
    },
    show,
  };
}

/**
 * Draws a list again without losing the member's place in it: the focus goes back to the same
 * control of the same record (its first control when that one is gone), or to `fallback`
 * when the record itself has left the list.
 * @param {ParentNode} root
 * @param {string} attribute the records' id attribute
 * @param {() => void} draw
 * @param {HTMLElement | null} fallback
 */
export function keepingFocus(root, attribute, draw, fallback) {
  const active = document.activeElement;
  const holder = active instanceof HTMLElement && root.contains(active) ? active.closest(`[${attribute}]`) : null;
  draw();
  if (!holder || !(active instanceof HTMLElement) || active.isConnected) return;
  const again = root.querySelector(`[${attribute}="${holder.getAttribute(attribute)}"]`);
  const kind = active.classList[0];
  const same = again && kind ? again.querySelector(`.${CSS.escape(kind)}`) : null;
  const first = again?.querySelector('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled])');
  const target = same ?? first ?? fallback;
  if (target instanceof HTMLElement) target.focus({ preventScroll: true });
}

/** @type {(string | HTMLElement)[][]} */
let gathered = [];

/**
 * Says a colleague's change through the page's live region. Changes that come together (a
 * move and the notification it brings) are said one line each; many at once (a bulk move),
 * as how many there were.
 * @param {(string | HTMLElement)[]} message from `tIsolated`
 */
export function tell(message) {
  gathered.push(message);
  if (gathered.length > 1) return;
  setTimeout(() => {
    const said = gathered;
    gathered = [];
    announce(said.length > GATHER_MAX ? tn('live.changes', said.length) : said.map((line) => element('span', { className: 'ws-toast-line' }, line)));
  }, GATHER_MS);
}

/**
 * Watches a form open on a post or a task while it is edited. A colleague's change to the
 * record leaves the form as it is; `element` (placed at the top of the form, and a polite live
 * region) then says so, with a Reload button that closes the form, or says that the record is
 * gone. Once the form closes, `finish()` ends the watch and gives the record as it is now when
 * Reload closed it, for the page to open the form again on it.
 * @param {'post' | 'task'} kind
 * @param {number} id
 */
export function formGuard(kind, id) {
  const notice = element('div', { className: 'live-notice', role: 'status' });
  /** @type {unknown} */
  let latest = null;
  let reload = false;
  /** @param {{ id: number, action: string, by: number | null, post?: unknown, task?: unknown }} event */
  const watch = (event) => {
    if (event.id !== id || !byOther(event)) return;
    latest = (kind === 'post' ? event.post : event.task) ?? null;
    if (latest === null) {
      notice.replaceChildren(element('p', { text: t(`live.${kind}Gone`) }));
      return;
    }
    const button = element('button', { type: 'button', className: 'button button-small', text: t('live.reload') });
    button.addEventListener('click', () => {
      reload = true;
      notice.closest('dialog')?.close();
    });
    notice.replaceChildren(element('p', { text: t(`live.${kind}Changed`) }), button);
  };
  const stop = kind === 'post' ? subscribe('post', watch) : subscribe('task', watch);
  return {
    element: notice,
    /** @returns {unknown} the record to open the form on again, or null */
    finish() {
      stop();
      return reload ? latest : null;
    },
  };
}

// The member's own access changed: the page is drawn by the server for a role and brands, so it
// is loaded again, but never under an open form: the form says so and the page reloads once it
// closes. An account that ended (deleted, or its password changed) leaves for the sign-in page.
subscribe('access', ({ reason }) => {
  if (reason === 'deleted' || reason === 'password') {
    stream.close();
    void signOut();
    return;
  }
  const open = document.querySelector('dialog[open]');
  if (!open) {
    window.location.reload();
    return;
  }
  if (open.querySelector('[data-access-changed]')) return;
  // An alert is read out as it is added; the form around it keeps what was typed.
  open.querySelector('.modal-body')?.prepend(element('div', { className: 'live-notice', role: 'alert', 'data-access-changed': true }, [element('p', { text: t('live.accessChanged') })]));
  open.addEventListener('close', () => window.location.reload(), { once: true });
});
