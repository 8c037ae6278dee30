// Several posts at once: picked one by one, by a Shift range or a whole column, then moved,
// put in a campaign or deleted in one request; a bulk move can be undone for a few seconds.
import { element, findElement, requireElement } from '../core/dom.js';
import { t, tn } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { afterChange, board, campaignLabel, columnPosts, columns, filterOf, PUBLISHED, SCHEDULED, selected, sendsBack, statusName, UNDO_MS, view, visiblePosts } from './board-state.js';
import { announce, call, domain, errorMessage } from './common.js';
import { editInModal } from './records.js';

/** @typedef {import('./board-state.js').Post} Post */
/** @typedef {import('./board-state.js').PostStatus} PostStatus */

/** The card whose box was clicked last, where a shift-click's range starts. @type {number | null} */
export let lastPicked = null;
// ## Selecting several posts

export const bulk = {
  bar: requireElement('[data-bulk]', HTMLElement),
  count: requireElement('[data-bulk-count]', HTMLElement),
  status: requireElement('[data-bulk-status]', HTMLSelectElement),
  move: requireElement('[data-bulk-move]', HTMLButtonElement),
  campaign: requireElement('[data-bulk-campaign]', HTMLSelectElement),
  assign: requireElement('[data-bulk-assign]', HTMLButtonElement),
  remove: requireElement('[data-bulk-delete]', HTMLButtonElement),
  clear: requireElement('[data-bulk-clear]', HTMLButtonElement),
};
/** Each column's box that picks all its cards at once. */
export const columnBoxes = new Map([...columns].map(([status, column]) => [status, requireElement('[data-select-column]', HTMLInputElement, column)]));
export const undo = {
  toast: requireElement('[data-undo]', HTMLElement),
  text: requireElement('[data-undo-text]', HTMLElement),
  button: requireElement('[data-undo-button]', HTMLButtonElement),
};

/** A card is picked for the bulk changes only when the user may change its post. @param {Post} post */
export const selectable = (post) => post.can.edit;

export const selectedPosts = () => view.posts.filter((p) => selected.has(p.id));

/** The cards in the order they are shown, column by column: what a shift-click's range runs over. */
export const shownOrder = () => [...columns.keys()].flatMap((status) => columnPosts(status)).filter(selectable);

/**
 * Ticks or clears the boxes of `chosen` as the selection has them, without drawing the cards
 * again (the focus stays where it is), and shows the selection.
 * @param {Post[]} chosen
 */
export function showPicked(chosen) {
  for (const p of chosen) {
    const on = selected.has(p.id);
    const node = findElement(`[data-post-id="${p.id}"]`, HTMLElement, board);
    node?.classList.toggle('is-selected', on);
    const box = node && findElement('.post-select', HTMLInputElement, node);
    if (box) box.checked = on;
  }
  showSelection();
}

/**
 * A box ticked or cleared; with Shift, every card between it and the last one picked follows.
 * @param {Post} post
 * @param {boolean} on
 * @param {boolean} range
 */
export function picked(post, on, range) {
  const order = shownOrder();
  const from = lastPicked === null ? -1 : order.findIndex((p) => p.id === lastPicked);
  const to = order.findIndex((p) => p.id === post.id);
  const span = range && from !== -1 ? order.slice(Math.min(from, to), Math.max(from, to) + 1) : [post];
  for (const p of span) {
    if (on) selected.add(p.id);
    else selected.delete(p.id);
  }
  lastPicked = post.id;
  showPicked(span);
}

/**
 * The statuses every selected post may go to. Publishing asks each post for its own link, so
 * it is left to one post at a time; scheduling needs every post to have its moment.
 * @param {Post[]} chosen
 */
export function commonMoves(chosen) {
  const sets = chosen.map((p) => new Set(p.can.moves));
  const dated = chosen.every((p) => p.scheduledAt);
  return domain.postStatuses.filter((s) => s !== PUBLISHED && (s !== SCHEDULED || dated) && sets.every((set) => set.has(s)));
}

/** The campaigns the selection may join: those of its brand, when its posts share one (a campaign never moves a post to another brand). @param {Post[]} chosen */
export function commonCampaigns(chosen) {
  const brandIds = new Set(chosen.map((p) => p.brandId));
  return brandIds.size === 1 ? view.campaigns.filter((c) => brandIds.has(c.brandId)) : [];
}

/** Each column's box: ticked when all its cards that can be picked are, mixed when some are. */
export function showColumnBoxes() {
  const shown = visiblePosts();
  for (const [status, box] of columnBoxes) {
    const pickable = columnPosts(status, shown).filter(selectable);
    const count = pickable.filter((p) => selected.has(p.id)).length;
    box.hidden = pickable.length === 0;
    box.checked = pickable.length > 0 && count === pickable.length;
    box.indeterminate = count > 0 && count < pickable.length;
  }
}

export function showSelection() {
  showColumnBoxes();
  const chosen = selectedPosts();
  bulk.bar.hidden = chosen.length === 0;
  if (chosen.length === 0) return;
  bulk.count.textContent = tn('bulk.selected', chosen.length);
  const moves = commonMoves(chosen);
  const keepStatus = bulk.status.value;
  bulk.status.replaceChildren(
    element('option', { value: '', text: t('bulk.chooseStatus') }),
    ...moves.map((s) => element('option', { value: s, text: statusName(s), selected: s === keepStatus })),
  );
  bulk.status.disabled = moves.length === 0;
  bulk.move.disabled = moves.length === 0;
  const keepCampaign = bulk.campaign.value;
  bulk.campaign.replaceChildren(
    element('option', { value: '', text: t('bulk.chooseCampaign') }),
    element('option', { value: 'none', text: t('bulk.noCampaign'), selected: keepCampaign === 'none' }),
    ...commonCampaigns(chosen).map((c) => element('option', { value: String(c.id), text: campaignLabel(c), selected: String(c.id) === keepCampaign })),
  );
}

export function clearSelection() {
  const chosen = selectedPosts();
  selected.clear();
  lastPicked = null;
  showPicked(chosen);
}

for (const [status, box] of columnBoxes) {
  box.addEventListener('change', () => {
    const pickable = columnPosts(status).filter(selectable);
    for (const p of pickable) {
      if (box.checked) selected.add(p.id);
      else selected.delete(p.id);
    }
    lastPicked = null;
    showPicked(pickable);
  });
}

// Escape lets go of the selection, unless something on top (a dialog, a menu) takes it first.
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape' || event.defaultPrevented || selected.size === 0 || document.querySelector('dialog[open]')) return;
  event.preventDefault();
  clearSelection();
  announce(t('bulk.cleared'));
});

/**
 * Sends one change for the whole selection, which the server applies to all or to none, and
 * shows the result; a refusal is thrown to the caller.
 * @param {Record<string, unknown>} change
 * @param {(count: number) => string} done
 * @param {{ undoable?: boolean }} [opts] a move offers to put the posts back where they were
 */
export async function changeSelection(change, done, opts = {}) {
  const before = selectedPosts();
  const { posts: updated } = /** @type {{ posts: Post[] }} */ (await call('PATCH', '/api/posts', { ids: [...selected], ...change }));
  const changed = new Map(updated.map((p) => [p.id, p]));
  const way = opts.undoable ? wayBack(before, changed) : null;
  if (way) offerUndo(done(updated.length), way);
  else announce(done(updated.length));
  selected.clear();
  await afterChange(() => {
    view.posts = view.posts.map((p) => changed.get(p.id) ?? p);
  });
  return updated;
}

/**
 * The moves that put moved posts back, grouped by the status each had: only when the server
 * allows each of them as it is now, with no reason to give.
 * @param {Post[]} before
 * @param {Map<number, Post>} after
 * @returns {Map<PostStatus, number[]> | null}
 */
export function wayBack(before, after) {
  /** @type {Map<PostStatus, number[]>} */
  const groups = new Map();
  for (const old of before) {
    const now = after.get(old.id);
    if (!now || now.status === old.status) continue;
    if (!now.can.moves.includes(old.status) || sendsBack(now, old.status)) return null;
    groups.set(old.status, [...(groups.get(old.status) ?? []), old.id]);
  }
  return groups.size ? groups : null;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
export let undoTimer;
/** @type {(() => void) | null} */
export let undoAction = null;

export function hideUndo() {
  clearTimeout(undoTimer);
  undo.toast.classList.remove('is-visible');
  undo.text.textContent = '';
  undo.button.hidden = true;
  undoAction = null;
}

/**
 * Says what a bulk move did with an Undo button, for UNDO_MS; Undo moves each post back to
 * the status it had, through the API.
 * @param {string} message
 * @param {Map<PostStatus, number[]>} way
 */
export function offerUndo(message, way) {
  hideUndo();
  undo.text.textContent = message;
  undo.button.hidden = false;
  undo.toast.classList.add('is-visible');
  undoAction = () => void undoMove(way);
  undoTimer = setTimeout(hideUndo, UNDO_MS);
}

undo.button.addEventListener('click', () => {
  const action = undoAction;
  const focusWasHere = document.activeElement === undo.button;
  hideUndo();
  // The button is gone with its toast: the focus goes back to the board's first filter.
  if (focusWasHere) filterOf.campaignId.focus();
  action?.();
});

/** @param {Map<PostStatus, number[]>} way */
export async function undoMove(way) {
  /** @type {Post[]} */
  const restored = [];
  try {
    for (const [status, ids] of way) {
      restored.push(...(/** @type {{ posts: Post[] }} */ (await call('PATCH', '/api/posts', { ids, status }))).posts);
    }
    announce(tn('bulk.undone', restored.length));
  } catch (err) {
    announce(errorMessage(err));
  }
  const back = new Map(restored.map((p) => [p.id, p]));
  await afterChange(() => {
    view.posts = view.posts.map((p) => back.get(p.id) ?? p);
  });
}

/**
 * As changeSelection, saying a refusal in the toast.
 * @param {Record<string, unknown>} change
 * @param {(count: number) => string} done
 * @param {{ undoable?: boolean }} [opts]
 */
export async function applyToSelection(change, done, opts) {
  try {
    await changeSelection(change, done, opts);
  } catch (err) {
    announce(errorMessage(err));
  }
}

export async function deleteSelection() {
  const ids = [...selected];
  const answer = await openModal({
    title: tn('bulk.deleteTitle', ids.length),
    message: t('bulk.deleteMessage'),
    danger: true,
    confirmText: t('bulk.deleteConfirm'),
    cancelText: t('common.cancel'),
    returnFocus: bulk.clear,
    onConfirm: async ({ setError }) => {
      try {
        await call('DELETE', '/api/posts', { ids });
        return true;
      } catch (err) {
        setError(errorMessage(err));
        return false;
      }
    },
  });
  if (!answer.confirmed) return;
  announce(tn('bulk.deleted', ids.length));
  selected.clear();
  await afterChange(() => {
    view.posts = view.posts.filter((p) => !ids.includes(p.id));
  });
  filterOf.campaignId.focus();
}

bulk.move.addEventListener('click', () => {
  const status = /** @type {PostStatus | ''} */ (bulk.status.value);
  if (!status) {
    bulk.status.focus();
    return;
  }
  const chosen = selectedPosts();
  const done = (/** @type {number} */ n) => tn('bulk.moved', n, { status: statusName(status) });
  if (!chosen.some((p) => sendsBack(p, status))) {
    void applyToSelection({ status }, done, { undoable: true });
    return;
  }
  // Sending back asks once why, and the reason goes into each post's comments.
  void editInModal({
    title: t('review.sendBackTitle'),
    confirmText: t('review.sendBack'),
    fields: [{ name: 'comment', label: t('review.reason'), type: 'textarea', rows: 4, required: true, maxlength: domain.commentMaxLength }],
    check: (values) => ({ comment: values.comment.trim() ? '' : t('review.reasonRequired') }),
    send: (values) => changeSelection({ status, comment: values.comment.trim() }, done, { undoable: true }),
  });
});

bulk.assign.addEventListener('click', () => {
  const value = bulk.campaign.value;
  if (!value) {
    bulk.campaign.focus();
    return;
  }
  const campaign = value === 'none' ? null : view.campaigns.find((c) => String(c.id) === value);
  void applyToSelection({ campaignId: campaign ? campaign.id : null }, (n) => tn('bulk.assigned', n, { campaign: campaign ? campaign.name : t('bulk.noCampaign') }));
});

bulk.remove.addEventListener('click', () => void deleteSelection());

bulk.clear.addEventListener('click', () => {
  clearSelection();
  filterOf.campaignId.focus();
});
