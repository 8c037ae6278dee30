// The board's columns and cards: drawing them, and reading the posts under the chosen filters.
import { element, findElement, requireElement } from '../core/dom.js';
import { formatMoment } from '../core/format.js';
import { t } from '../core/i18n.js';
import { picked, selectable, showSelection } from './board-bulk.js';
import { deletePost } from './board-form.js';
import { move } from './board-moves.js';
import { openPost } from './board-panel.js';
import { board, changed, clearButton, columnPosts, columns, currentFilters, postLoads, PUBLISHED, selected, state, statusName, view, visiblePosts } from './board-state.js';
import { avatar, callAll, errorMessage } from './common.js';
import { icon, iconButton } from './icons.js';
import { keepingFocus } from './live.js';
import { lazyLists } from './lazy-lists.js';
import { menuButton } from './menu.js';

/** @typedef {import('./board-state.js').Post} Post */

// ## Cards

/** The posts of the cards drawn, by id: the columns' listeners find a card's post here. @type {Map<number, Post>} */
const drawnPosts = new Map();

/** @param {Post} post */
export function card(post) {
  drawnPosts.set(post.id, post);
  const { moves } = post.can;
  const owner = post.ownerId === null ? undefined : view.people.get(post.ownerId);
  const title = element('button', { type: 'button', className: 'post-open', text: post.title, 'aria-haspopup': 'dialog' });

  const actions = [
    moves.length
      ? menuButton({
          content: icon('move'),
          ariaLabel: t('board.moveNamed', { title: post.title }),
          className: 'post-move',
          items: () => moves.map((s) => ({ label: t('board.moveTo', { status: statusName(s) }), onSelect: () => move(post, s) })),
        })
      : null,
    post.can.delete ? iconButton({ label: t('post.deleteNamed', { title: post.title }), icon: 'trash', danger: true, onClick: () => deletePost(post) }) : null,
  ];

  const pick = selectable(post) ? element('input', { type: 'checkbox', className: 'post-select', 'aria-label': t('bulk.selectNamed', { title: post.title }), checked: selected.has(post.id) }) : null;
  return element('li', { className: `post-card${post.thumbnailUrl ? ' has-thumb' : ''}${selected.has(post.id) ? ' is-selected' : ''}`, 'data-post-id': post.id, draggable: moves.length ? 'true' : undefined }, [
    pick,
    post.thumbnailUrl ? element('img', { className: 'post-thumb', src: post.thumbnailUrl, alt: '', loading: 'lazy' }) : null,
    element('div', { className: 'post-body' }, [
      post.platform ? element('span', { className: `platform platform-${post.platform}`, text: t(`platforms.${post.platform}`) }) : null,
      element('h3', { className: 'post-title' }, [title]),
      element('p', { className: 'post-campaign' }, [post.campaign ? post.campaign.name : t('board.noCampaign')]),
      post.status === PUBLISHED && post.publicationUrl
        ? element('a', { className: 'post-link', href: post.publicationUrl, target: '_blank', rel: 'noopener noreferrer', 'aria-label': t('board.viewPublishedNamed', { title: post.title }) }, [
            icon('external', { flip: true }),
            t('board.viewPublished'),
          ])
        : null,
      post.scheduledAt
        ? element('time', { className: 'post-date', datetime: post.scheduledAt }, [icon('calendar'), formatMoment(post.scheduledAt)])
        : element('span', { className: 'post-date is-unscheduled' }, [icon('calendar'), t('board.notScheduled')]),
      element('div', { className: 'post-foot' }, [
        owner ? avatar(owner, 'small', t('board.owner', { name: owner.name })) : avatar(null, 'small', t('board.noOwner')),
        element('span', { className: 'post-owner', 'aria-hidden': 'true', dir: 'auto', text: owner ? owner.name.split(/\s+/)[0] : '' }),
        element('div', { className: 'post-actions' }, actions),
      ]),
    ]),
  ]);
}

/**
 * The card `event` happened in and its post, when it is one of the cards drawn.
 * @param {Event} event
 * @returns {{ node: HTMLElement, post: Post } | null}
 */
function cardOf(event) {
  const node = event.target instanceof Element ? event.target.closest('.post-card') : null;
  const post = node instanceof HTMLElement ? drawnPosts.get(Number(node.dataset.postId)) : undefined;
  return node instanceof HTMLElement && post ? { node, post } : null;
}

// The board listens for its cards (one listener each, not one per card and kind).
board.addEventListener('click', (event) => {
  const found = cardOf(event);
  if (!found || !(event.target instanceof Element)) return;
  if (event.target.closest('.post-open')) void openPost(found.post);
  const pick = event.target.closest('.post-select');
  if (pick instanceof HTMLInputElement) picked(found.post, pick.checked, event instanceof MouseEvent && event.shiftKey);
});
board.addEventListener('dragstart', (event) => {
  const found = cardOf(event);
  if (!found || !event.dataTransfer || !found.post.can.moves.length) return;
  const { node, post } = found;
  event.dataTransfer.setData('text/plain', String(post.id));
  event.dataTransfer.effectAllowed = 'move';
  node.classList.add('is-view.dragging');
  view.dragging = post;
  for (const [status, column] of columns) column.classList.toggle('is-drop-refused', status !== post.status && !post.can.moves.includes(status));
});
board.addEventListener('dragend', (event) => {
  const found = cardOf(event);
  if (!found) return;
  found.node.classList.remove('is-view.dragging');
  view.dragging = null;
  for (const column of columns.values()) column.classList.remove('is-drop-refused');
  if (view.drawAfterDrag) {
    view.drawAfterDrag = false;
    keepingFocus(board, 'data-post-id', () => render(), board);
  }
});

// ## Drawing a little at a time

/** Columns of a thousand posts show their first screen without building every card first. */
const lists = lazyLists({
  make: card,
  drawnSelector: '.post-card',
  onDrawn: () => changed.show(),
  sideBySide: [...columns.values()].map((column) => requireElement('[data-cards]', HTMLElement, column)),
});

/**
 * Draws the column of post `id` down to its card, when it is not drawn yet.
 * @param {number} id
 */
export function drawUpTo(id) {
  lists.drawUpTo((post) => post.id === id);
}

/** @param {number} [focusPostId] the post whose card takes the focus */
export function render(focusPostId) {
  const shown = visiblePosts();
  const focused = document.activeElement instanceof HTMLElement && board.contains(document.activeElement) ? document.activeElement.closest('[data-post-id]') : null;
  drawnPosts.clear();
  const filled = [...columns].map(([status, column]) => ({ column, list: requireElement('[data-cards]', HTMLElement, column), items: columnPosts(status, shown), empty: element('li', { className: 'kanban-empty', text: t('board.emptyColumn') }) }));
  lists.fill(filled);
  for (const { column, items } of filled) requireElement('[data-count]', HTMLElement, column).textContent = String(items.length);
  // The card that has the focus is drawn wherever it went, so that the focus can stay on it.
  if (focused instanceof HTMLElement) drawUpTo(Number(focused.dataset.postId));
  const shownIds = new Set(shown.map((p) => p.id));
  for (const id of selected) if (!shownIds.has(id)) selected.delete(id);
  showSelection();
  const { campaignId, brandId, platform } = currentFilters();
  clearButton.hidden = !(campaignId || brandId || platform);
  state.textContent = view.posts.length === 0 ? t('board.empty') : '';
  state.hidden = view.posts.length !== 0;
  changed.show();
  if (focusPostId === undefined) return;
  drawUpTo(focusPostId);
  const moved = findElement(`[data-post-id="${focusPostId}"]`, HTMLElement, board);
  if (moved) (findElement('.post-move', HTMLElement, moved) ?? findElement('.post-open', HTMLElement, moved))?.focus();
}

// ## Loading

export async function loadPosts() {
  const { campaignId, brandId } = currentFilters();
  const query = new URLSearchParams();
  if (campaignId) query.set('campaignId', campaignId);
  if (brandId) query.set('brandId', brandId);
  board.setAttribute('aria-busy', 'true');
  try {
    view.posts = /** @type {Post[]} */ (await postLoads.run((signal) => callAll(`/api/posts?${query}`, 'posts', undefined, { signal })));
  } finally {
    board.setAttribute('aria-busy', 'false');
  }
}

export function rememberFilters() {
  const url = new URL(window.location.href);
  for (const [key, value] of Object.entries(currentFilters())) {
    if (value) url.searchParams.set(key, value);
    else url.searchParams.delete(key);
  }
  // The post a search opened may not be under the new filters: a reload should not look for it.
  url.searchParams.delete('post');
  window.history.replaceState(null, '', url);
}

/** @param {number} [focusPostId] */
export async function refresh(focusPostId) {
  try {
    await loadPosts();
    render(focusPostId);
  } catch (err) {
    state.hidden = false;
    state.textContent = errorMessage(err);
  }
}
