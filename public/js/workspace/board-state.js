// What the board's modules share: its elements, the posts and records it shows, and small helpers
// over them. The posts and records live in `view`, which the modules change in place.
import { newestOnly } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { t } from '../core/i18n.js';
import { domain } from './common.js';
import { highlights } from './live.js';

/** @typedef {import('../../../src/workspace/domain').PostStatus} PostStatus */

/** A post as the API answers it, with what the user may do with it (`can`). @typedef {import('../../../src/workspace/posts/service').PostBody} Post */

/** The refusals a form says under one of its fields, by the field's name. */
export const FIELD_OF_CODE = /** @type {Record<string, string>} */ ({
  PUBLICATION_LINK_REQUIRED: 'publicationUrl',
  INVALID_PUBLICATION_LINK: 'publicationUrl',
  SCHEDULE_REQUIRED: 'scheduledAt',
  COMMENT_REQUIRED: 'comment',
  BRAND_MISMATCH: 'campaignId',
});
/** @type {PostStatus} */
export const PUBLISHED = 'published';
/** @type {PostStatus} */
export const SCHEDULED = 'scheduled';
/** @type {PostStatus} */
export const REVIEW = 'review';
/** @type {PostStatus} */
export const APPROVED = 'approved';
/** How long a bulk move may be undone. */
export const UNDO_MS = 10_000;

export const board = requireElement('[data-board]', HTMLElement);
export const state = requireElement('[data-board-state]', HTMLElement);
export const filters = requireElement('[data-board-filters]', HTMLFormElement);
export const filterOf = {
  campaignId: requireElement('[name="campaignId"]', HTMLSelectElement, filters),
  brandId: requireElement('[name="brandId"]', HTMLSelectElement, filters),
  platform: requireElement('[name="platform"]', HTMLSelectElement, filters),
};
export const clearButton = requireElement('[data-clear-filters]', HTMLButtonElement);
/** The columns the server rendered, one per status of the vocabulary. */
export const columns = new Map(domain.postStatuses.map((status) => [status, requireElement(`[data-status="${status}"]`, HTMLElement, board)]));

/** The posts under the chosen filters; filters changed while a list is on its way win. */
export const postLoads = newestOnly();
/** The posts chosen for a bulk action, by id. @type {Set<number>} */
export const selected = new Set();
/** The cards colleagues changed a moment ago. */
export const changed = highlights(board, 'data-post-id');

/**
 * Whether moving `post` to `status` sends it back to its author, which asks for a reason.
 * @param {Post} post
 * @param {PostStatus} status
 */
export const sendsBack = (post, status) => post.can.reasonFor.includes(status);
/** @param {PostStatus} status */
export const statusName = (status) => t(`status.${status}`);

export function currentFilters() {
  return { campaignId: filterOf.campaignId.value, brandId: filterOf.brandId.value, platform: filterOf.platform.value };
}

/**
 * @param {HTMLSelectElement} select
 * @param {import('./common.js').Option[]} list
 * @param {string} selected
 */
export function fillSelect(select, list, selected) {
  const first = select.options[0];
  select.replaceChildren(first, ...list.map((o) => element('option', { value: o.value, text: o.label, selected: o.value === selected })));
}

/** @param {import('./common.js').Campaign} campaign */
export function campaignLabel(campaign) {
  if (view.brands.length < 2) return campaign.name;
  const brand = view.brands.find((b) => b.id === campaign.brandId);
  return brand ? `${campaign.name} · ${brand.name}` : campaign.name;
}

export function visiblePosts() {
  const { platform } = currentFilters();
  return platform ? view.posts.filter((p) => p.platform === platform) : view.posts;
}

/** Scheduled posts go out soonest first (any without a moment last); other columns keep the newest first. @param {Post} a @param {Post} b */
export const bySchedule = (a, b) => (a.scheduledAt ?? '\uffff').localeCompare(b.scheduledAt ?? '\uffff') || a.id - b.id;

/**
 * The cards of a column, in the order it shows them.
 * @param {PostStatus} status
 * @param {Post[]} [shown]
 */
export function columnPosts(status, shown = visiblePosts()) {
  const inColumn = shown.filter((p) => p.status === status);
  return status === SCHEDULED ? inColumn.sort(bySchedule) : inColumn;
}


/** @param {Post} updated */
export function replacePost(updated) {
  view.posts = view.posts.map((p) => (p.id === updated.id ? updated : p));
}

/**
 * Shows a change this page made: on the board as it is, or, while the posts are being read
 * (their answer may come from before the change), by reading them again.
 * @param {() => void} change
 * @param {number} [focusPostId]
 */
export async function afterChange(change, focusPostId) {
  if (postLoads.pending) return hooks.refresh(focusPostId);
  change();
  hooks.render(focusPostId);
}

/** The posts on the board and the records their cards and forms name. */
export const view = {
  /** @type {Post[]} */
  posts: [],
  /** @type {import('./common.js').Campaign[]} */
  campaigns: [],
  /** @type {import('./common.js').Brand[]} */
  brands: [],
  /** @type {Map<number, import('./common.js').Member>} */
  people: new Map(),
  /** The post whose card is being dragged: a column it may not go to does not take the drop. @type {Post | null} */
  dragging: /** @type {Post | null} */ (null),
  /** A colleague's change that came while a card was being dragged, drawn once it is dropped. */
  drawAfterDrag: false,
};

/**
 * How the board draws itself and reads its posts again, set by the page once its modules are
 * loaded: the modules below it change the posts and ask for a redraw through these.
 */
export const hooks = {
  /** @type {(focusPostId?: number) => void} */
  render: () => {},
  /** @type {(focusPostId?: number) => Promise<void>} */
  refresh: async () => {},
};
