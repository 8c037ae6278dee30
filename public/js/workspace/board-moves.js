// Moving a post: by its menu or by dropping its card on a column the server says it may go to;
// publishing asks for the link, scheduling for the moment when it has none, sending back why.
import { ApiError } from '../core/api.js';
import { dropTarget } from '../core/dom.js';
import { t, tIsolated } from '../core/i18n.js';
import { afterChange, APPROVED, columns, FIELD_OF_CODE, PUBLISHED, replacePost, SCHEDULED, sendsBack, statusName, view } from './board-state.js';
import { announce, call, domain, errorMessage, fromLocalInput, vocabularyOptions } from './common.js';
import { formGuard } from './live.js';
import { editInModal } from './records.js';

/** @typedef {import('./board-state.js').Post} Post */
/** @typedef {import('./board-state.js').PostStatus} PostStatus */

/**
 * @param {Post} post
 * @param {PostStatus} status
 */
export async function move(post, status) {
  if (status === post.status) return;
  if (status === PUBLISHED) return publish(post);
  if (sendsBack(post, status)) return sendBack(post, status);
  if (status === SCHEDULED && !post.scheduledAt) return schedule(post);
  try {
    const { post: updated } = /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status }));
    announce(tIsolated('board.moved', { title: post.title, status: statusName(status) }));
    await afterChange(() => replacePost(updated), post.id);
  } catch (err) {
    announce(errorMessage(err));
  }
}

/**
 * The field of a form a refusal is about, with the server's reason.
 * @param {unknown} err
 */
export function fieldRefusal(err) {
  const name = err instanceof ApiError && err.code ? FIELD_OF_CODE[err.code] : undefined;
  return name && err instanceof ApiError ? { name, message: t(`errors.${err.code}`) } : null;
}

/**
 * A move's form (the publication link, the moment, the reason) opened again on the post as a
 * colleague left it, after its notice's Reload, while that move is still the member's to make.
 * @param {unknown} latest what the form's guard gave back
 * @param {PostStatus} status
 * @param {(post: Post) => Promise<unknown>} form
 */
export async function moveAgain(latest, status, form) {
  const post = /** @type {Post | null} */ (latest);
  if (post && post.status !== status && post.can.moves.includes(status)) await form(post);
}

/** @param {Post} post */
export async function publish(post) {
  const guard = formGuard('post', post.id);
  const updated = await editInModal({
    notice: guard.element,
    title: t('board.publish.title'),
    confirmText: t('board.publish.submit'),
    fields: [
      {
        name: 'publicationUrl',
        label: t('board.publish.link'),
        type: 'url',
        inputmode: 'url',
        dir: 'ltr',
        required: true,
        hint: t('board.publish.message', { title: post.title }),
        value: post.publicationUrl ?? '',
        maxlength: 2000,
      },
    ],
    send: async (values) =>
      /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: PUBLISHED, publicationUrl: values.publicationUrl.trim() })).post,
    refusedField: fieldRefusal,
  });
  const latest = guard.finish();
  if (!updated) return moveAgain(latest, PUBLISHED, publish);
  announce(tIsolated('board.moved', { title: post.title, status: statusName(PUBLISHED) }));
  await afterChange(() => replacePost(updated), post.id);
}

/**
 * A post without a moment is scheduled once it has one: the modal asks for it.
 * @param {Post} post
 */
export async function schedule(post) {
  const guard = formGuard('post', post.id);
  const updated = await editInModal({
    notice: guard.element,
    title: t('board.schedule.title'),
    confirmText: t('board.schedule.submit'),
    fields: [{ name: 'scheduledAt', label: t('post.scheduledAt'), type: 'datetime-local', required: true, hint: t('board.schedule.message', { title: post.title }) }],
    check: (values) => ({ scheduledAt: values.scheduledAt ? '' : t('errors.SCHEDULE_REQUIRED') }),
    send: async (values) =>
      /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: SCHEDULED, scheduledAt: fromLocalInput(values.scheduledAt) })).post,
    refusedField: fieldRefusal,
  });
  const latest = guard.finish();
  if (!updated) return moveAgain(latest, SCHEDULED, schedule);
  announce(tIsolated('board.moved', { title: post.title, status: statusName(SCHEDULED) }));
  await afterChange(() => replacePost(updated), post.id);
}

/**
 * A reviewer returns someone's post to its author, saying why in the modal (the server
 * requires the reason and adds it to the post's comments).
 * @param {Post} post
 * @param {PostStatus} status
 */
export async function sendBack(post, status) {
  const guard = formGuard('post', post.id);
  const updated = await editInModal({
    notice: guard.element,
    title: t('review.sendBackTitle'),
    confirmText: t('review.sendBack'),
    fields: [
      { name: 'status', label: t('review.moveTo'), type: 'select', options: vocabularyOptions(domain.postStatuses.filter((s) => sendsBack(post, s)).reverse(), 'status'), value: status },
      { name: 'comment', label: t('review.reason'), type: 'textarea', rows: 4, required: true, maxlength: domain.commentMaxLength, hint: t('review.sendBackMessage', { title: post.title }) },
    ],
    check: (values) => ({ comment: values.comment.trim() ? '' : t('review.reasonRequired') }),
    send: async (values) =>
      /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: values.status, comment: values.comment.trim() })).post,
  });
  const latest = guard.finish();
  if (!updated) {
    await moveAgain(latest, status, (again) => sendBack(again, status));
    return null;
  }
  announce(tIsolated('review.sentBack', { title: post.title, status: statusName(updated.status) }));
  await afterChange(() => replacePost(updated), post.id);
  return updated;
}

/** @param {Post} post */
export async function approve(post) {
  try {
    const { post: updated } = /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: APPROVED }));
    announce(tIsolated('review.approved', { title: post.title }));
    await afterChange(() => replacePost(updated), post.id);
    return updated;
  } catch (err) {
    announce(errorMessage(err));
    return null;
  }
}

for (const [status, column] of columns) {
  dropTarget(column, {
    accepts: () => !view.dragging || view.dragging.can.moves.includes(status),
    onDrop: (id) => {
      const post = view.posts.find((p) => String(p.id) === id);
      if (post) void move(post, status);
    },
  });
}
