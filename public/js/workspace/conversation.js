// The conversation around a post or a task: its comment thread with a composer, and a post's
// history. Both are built as plain elements that the board's post panel and the tasks page
// put into their dialogs. A colleague's comment joins an open thread as it is written (the
// list is a live region, so it is read out), and one deleted leaves it.
import { element } from '../core/dom.js';
import { formatList, formatMoment } from '../core/format.js';
import { t } from '../core/i18n.js';
import { announce, avatar, call, domain, errorMessage } from './common.js';
import { iconButton } from './icons.js';
import { byOther, flash, subscribeWhileShown } from './live.js';
import { confirmDelete } from './records.js';

/** A comment as the API answers it, with what the reader may do to it. @typedef {import('../../../src/workspace/comments/service').CommentView} Comment */

/** A line of a post's history. @typedef {import('../../../src/workspace/posts/repository').PostEvent} PostEvent */

let serial = 0;

/**
 * What a line of a post's history says: an edit names the fields it changed (older edits, recorded
 * without them, say only that the content changed).
 * @param {PostEvent} e
 */
function historyText(e) {
  const status = (/** @type {string | null} */ s) => (s ? t(`status.${s}`) : '');
  const vars = { actor: e.actorName ?? t('comments.formerMember'), from: status(e.from), to: status(e.to), fields: formatList(e.fields.map((f) => t(`activity.fields.${f}`))) };
  if (e.kind === 'edited' && e.fields.length > 0) return t('activity.editedFields', vars);
  return t(`activity.kinds.${e.kind}`, vars);
}

/**
 * @param {Comment} comment
 * @param {() => void} onDeleted
 */
function commentItem(comment, onDeleted) {
  const name = comment.authorName ?? t('comments.formerMember');
  const item = element('li', { className: 'comment', 'data-comment-id': comment.id }, [
    avatar(comment.authorId === null ? null : { id: comment.authorId, name }, 'small'),
    element('div', { className: 'comment-main' }, [
      element('p', { className: 'comment-meta' }, [
        element('strong', { dir: 'auto', text: name }),
        element('time', { datetime: comment.createdAt, text: formatMoment(comment.createdAt) }),
      ]),
      element('p', { className: 'comment-body', dir: 'auto', text: comment.body }),
    ]),
    comment.can.delete
      ? iconButton({
          label: t('comments.delete'),
          icon: 'trash',
          danger: true,
          onClick: async () => {
            const deleted = await confirmDelete({
              title: t('comments.deleteTitle'),
              message: t('comments.deleteMessage'),
              confirmText: t('comments.delete'),
              url: `/api/comments/${comment.id}`,
              returnFocus: () => item.closest('.thread')?.querySelector('textarea') ?? null,
            });
            if (!deleted) return;
            announce(t('comments.deleted'));
            onDeleted();
          },
        })
      : null,
  ]);
  return item;
}

/** @typedef {{ postId: number } | { taskId: number }} Subject */

/**
 * The comment thread of a post or a task with its composer: loads when built, adds a sent
 * comment at the end, and follows the thread's live events while it is shown.
 * @param {Subject} subject
 */
export function commentThread(subject) {
  const url = 'postId' in subject ? `/api/posts/${subject.postId}/comments` : `/api/tasks/${subject.taskId}/comments`;
  serial += 1;
  const inputId = `comment-input-${serial}`;
  const hintId = `comment-hint-${serial}`;
  const errorId = `comment-error-${serial}`;
  const list = element('ol', { className: 'comment-list', 'aria-live': 'polite', 'aria-busy': 'true' });
  const empty = element('p', { className: 'muted thread-empty', text: t('common.loading') });
  const input = element('textarea', {
    id: inputId,
    className: 'comment-input',
    rows: 3,
    maxlength: domain.commentMaxLength,
    dir: 'auto',
    'aria-describedby': `${hintId} ${errorId}`,
  });
  const error = element('p', { id: errorId, className: 'field-error', hidden: true });
  const send = element('button', { type: 'button', className: 'button button-primary comment-send', text: t('comments.send') });

  /** @param {string} message */
  function showError(message) {
    error.textContent = message;
    error.hidden = !message;
    input.setAttribute('aria-invalid', String(Boolean(message)));
  }

  /** @param {Comment[]} comments */
  function show(comments) {
    list.replaceChildren(...comments.map((c) => commentItem(c, () => void load())));
    empty.textContent = t('comments.empty');
    empty.hidden = comments.length > 0;
    list.setAttribute('aria-busy', 'false');
  }

  /**
   * Events that come while the thread is read: the answer may be from before them, so they
   * are applied after it.
   * @type {import('./live.js').LiveEvents['comment'][] | null}
   */
  let held = null;

  async function load() {
    held = [];
    try {
      show(/** @type {{ comments: Comment[] }} */ (await call('GET', url)).comments);
    } catch (err) {
      empty.hidden = false;
      empty.textContent = `${t('comments.loadFailed')} ${errorMessage(err)}`;
      list.setAttribute('aria-busy', 'false');
    }
    const missed = held;
    held = null;
    for (const event of missed) apply(event);
  }

  /** @param {number} id */
  const shownItem = (id) => list.querySelector(`[data-comment-id="${id}"]`);

  /**
   * A comment written, changed or deleted, by anyone, on this thread.
   * @param {import('./live.js').LiveEvents['comment']} event
   */
  function apply(event) {
    if (held) {
      held.push(event);
      return;
    }
    const shown = shownItem(event.id);
    if (event.action === 'deleted' || !event.comment) {
      shown?.remove();
    } else {
      const fresh = commentItem(event.comment, () => void load());
      if (shown) shown.replaceWith(fresh);
      else list.append(fresh);
      if (byOther(event)) flash(fresh);
    }
    empty.textContent = t('comments.empty');
    empty.hidden = list.childElementCount > 0;
  }

  async function submit() {
    const body = input.value.trim();
    if (!body) {
      showError(t('comments.required'));
      input.focus();
      return;
    }
    send.disabled = true;
    send.setAttribute('aria-busy', 'true');
    try {
      await call('POST', url, { body });
      input.value = '';
      showError('');
      announce(t('comments.sent'));
      await load();
    } catch (err) {
      showError(errorMessage(err));
    } finally {
      send.disabled = false;
      send.setAttribute('aria-busy', 'false');
    }
  }

  send.addEventListener('click', () => void submit());
  input.addEventListener('input', () => showError(''));
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void submit();
    }
  });
  void load();

  const thread = element('section', { className: 'thread', 'aria-labelledby': `${inputId}-heading` }, [
    element('h3', { id: `${inputId}-heading`, className: 'thread-title', text: t('comments.title') }),
    list,
    empty,
    element('div', { className: 'comment-composer' }, [
      element('label', { for: inputId, className: 'field-label', text: t('comments.label') }),
      input,
      element('p', { id: hintId, className: 'field-hint', text: t('comments.hint') }),
      error,
      element('div', { className: 'comment-actions' }, [send]),
    ]),
  ]);
  subscribeWhileShown(thread, 'comment', (event) => {
    if ('postId' in subject ? event.postId === subject.postId : event.taskId === subject.taskId) apply(event);
  });
  subscribeWhileShown(thread, 'reset', () => void load());
  return thread;
}

/**
 * A post's history, newest last, as the API tells it.
 * @param {number} postId
 */
export function postHistory(postId) {
  const list = element('ol', { className: 'history-list', 'aria-busy': 'true' });
  void call('GET', `/api/posts/${postId}/activity`)
    .then((answer) => {
      const events = /** @type {{ events: PostEvent[] }} */ (answer).events;
      list.replaceChildren(
        ...(events.length
          ? events.map((e) =>
              element('li', { className: `history-item history-${e.kind}` }, [
                element('span', { dir: 'auto', text: historyText(e) }),
                element('time', { datetime: e.createdAt, text: formatMoment(e.createdAt) }),
              ]),
            )
          : [element('li', { className: 'muted', text: t('activity.empty') })]),
      );
    })
    .catch((/** @type {unknown} */ err) => list.replaceChildren(element('li', { className: 'muted', text: errorMessage(err) })))
    .finally(() => list.setAttribute('aria-busy', 'false'));
  const headingId = `history-${postId}-${(serial += 1)}`;
  return element('section', { className: 'history', 'aria-labelledby': headingId }, [element('h3', { id: headingId, className: 'thread-title', text: t('activity.title') }), list]);
}
