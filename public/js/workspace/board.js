// The kanban board: posts in one column per status. A card moves by drag and drop or by its
// move menu (for the keyboard), to the columns the server says it may go to (`post.can`);
// moving to Published asks for the publication link, to Scheduled for the moment when the
// post has none, and a manager sending someone's post back asks why. Cards are picked for bulk
// changes one by one, by a Shift range or a whole column; Escape clears the pick, and a bulk
// move can be undone for a few seconds. A card's title opens the post panel: details, media,
// review actions, comments and history. Colleagues' changes arrive as live events: a card
// moves, comes or goes where it stands, marked for a moment, and the open panel follows; a
// form open on a post that changes keeps what was typed, under a notice that offers to reload.
import { ApiError, newestOnly } from '../core/api.js';
import { dropTarget, element, findElement, requireElement } from '../core/dom.js';
import { formatMoment } from '../core/format.js';
import { t, tIsolated, tn } from '../core/i18n.js';
import {
  announce, avatar, byId, call, callAll, domain, errorMessage, fromLocalInput, isManager, linkedRecord, options, toLocalInput, vocabularyOptions,
} from './common.js';
import { commentThread, postHistory } from './conversation.js';
import { icon, iconButton } from './icons.js';
import { fileIcon, openLightbox } from './lightbox.js';
import { openModal } from '../core/modal.js';
import { menuButton } from './menu.js';
import { mediaPicker } from './media-picker.js';
import { brandField, chosenBrand, deleteWithConfirmation, editInModal } from './records.js';
import { byOther, flash, formGuard, highlights, keepingFocus, subscribe, subscribeWhileShown, tell } from './live.js';

/** @typedef {import('../../../src/workspace/domain').PostStatus} PostStatus */
/** @typedef {import('../../../src/workspace/domain').Platform} Platform */

/**
 * A post as the API answers it.
 * @typedef {object} Post
 * @property {number} id
 * @property {number} brandId
 * @property {number | null} campaignId
 * @property {{ id: number, name: string } | null} campaign
 * @property {string} title
 * @property {string | null} caption
 * @property {Platform | null} platform
 * @property {PostStatus} status
 * @property {string | null} scheduledAt
 * @property {string | null} publicationUrl
 * @property {number | null} ownerId
 * @property {string | null} thumbnailUrl
 * @property {number[]} attachments the ids of its assets, in order
 * @property {PostCan} can
 */

/**
 * What the user may do with a post, as the server decides it by the rules that refuse the rest.
 * @typedef {object} PostCan
 * @property {boolean} edit
 * @property {boolean} delete
 * @property {boolean} comment
 * @property {PostStatus[]} moves the statuses it may go to
 * @property {PostStatus[]} reasonFor those of `moves` that send it back to its author, which ask why
 */

/** The refusals a form says under one of its fields, by the field's name. */
const FIELD_OF_CODE = /** @type {Record<string, string>} */ ({
  PUBLICATION_LINK_REQUIRED: 'publicationUrl',
  INVALID_PUBLICATION_LINK: 'publicationUrl',
  SCHEDULE_REQUIRED: 'scheduledAt',
  COMMENT_REQUIRED: 'comment',
  BRAND_MISMATCH: 'campaignId',
});
/** @type {PostStatus} */
const PUBLISHED = 'published';
/** @type {PostStatus} */
const SCHEDULED = 'scheduled';
/** How long a bulk move may be undone. */
const UNDO_MS = 10_000;

const board = requireElement('[data-board]', HTMLElement);
const state = requireElement('[data-board-state]', HTMLElement);
const filters = requireElement('[data-board-filters]', HTMLFormElement);
const filterOf = {
  campaignId: requireElement('[name="campaignId"]', HTMLSelectElement, filters),
  brandId: requireElement('[name="brandId"]', HTMLSelectElement, filters),
  platform: requireElement('[name="platform"]', HTMLSelectElement, filters),
};
const clearButton = requireElement('[data-clear-filters]', HTMLButtonElement);
/** The columns the server rendered, one per status of the vocabulary. */
const columns = new Map(domain.postStatuses.map((status) => [status, requireElement(`[data-status="${status}"]`, HTMLElement, board)]));

/** @type {Post[]} */
let posts = [];
/** @type {import('./common.js').Campaign[]} */
let campaigns = [];
/** @type {import('./common.js').Brand[]} */
let brands = [];
/** @type {Map<number, import('./common.js').Member>} */
let people = new Map();
/** The posts under the chosen filters; filters changed while a list is on its way win. */
const postLoads = newestOnly();
/** The post whose card is being dragged: a column it may not go to does not take the drop. @type {Post | null} */
let dragging = null;
/** The posts chosen for a bulk action, by id. @type {Set<number>} */
const selected = new Set();
/** The card whose box was clicked last, where a shift-click's range starts. @type {number | null} */
let lastPicked = null;
/** The cards colleagues changed a moment ago. */
const changed = highlights(board, 'data-post-id');
/** A colleague's change that came while a card was being dragged, drawn once it is dropped. */
let drawAfterDrag = false;

/**
 * Whether moving `post` to `status` sends it back to its author, which asks for a reason.
 * @param {Post} post
 * @param {PostStatus} status
 */
const sendsBack = (post, status) => post.can.reasonFor.includes(status);
/** @param {PostStatus} status */
const statusName = (status) => t(`status.${status}`);

function currentFilters() {
  return { campaignId: filterOf.campaignId.value, brandId: filterOf.brandId.value, platform: filterOf.platform.value };
}

/**
 * @param {HTMLSelectElement} select
 * @param {import('./common.js').Option[]} list
 * @param {string} selected
 */
function fillSelect(select, list, selected) {
  const first = select.options[0];
  select.replaceChildren(first, ...list.map((o) => element('option', { value: o.value, text: o.label, selected: o.value === selected })));
}

/** @param {import('./common.js').Campaign} campaign */
function campaignLabel(campaign) {
  if (brands.length < 2) return campaign.name;
  const brand = brands.find((b) => b.id === campaign.brandId);
  return brand ? `${campaign.name} · ${brand.name}` : campaign.name;
}

// ## Cards

/** @param {Post} post */
function card(post) {
  const { moves } = post.can;
  const owner = post.ownerId === null ? undefined : people.get(post.ownerId);
  const title = element('button', { type: 'button', className: 'post-open', text: post.title, 'aria-haspopup': 'dialog' });
  title.addEventListener('click', () => void openPost(post));

  const actions = [
    moves.length
      ? menuButton({
          content: icon('move'),
          ariaLabel: t('board.moveNamed', { title: post.title }),
          className: 'post-move',
          items: moves.map((s) => ({ label: t('board.moveTo', { status: statusName(s) }), onSelect: () => move(post, s) })),
        })
      : null,
    post.can.delete ? iconButton({ label: t('post.deleteNamed', { title: post.title }), icon: 'trash', danger: true, onClick: () => deletePost(post) }) : null,
  ];

  const pick = selectable(post) ? element('input', { type: 'checkbox', className: 'post-select', 'aria-label': t('bulk.selectNamed', { title: post.title }), checked: selected.has(post.id) }) : null;
  pick?.addEventListener('click', (event) => picked(post, pick.checked, event.shiftKey));
  const node = element('li', { className: `post-card${post.thumbnailUrl ? ' has-thumb' : ''}${selected.has(post.id) ? ' is-selected' : ''}`, 'data-post-id': post.id, draggable: moves.length ? 'true' : undefined }, [
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

  if (moves.length) {
    node.addEventListener('dragstart', (event) => {
      if (!event.dataTransfer) return;
      event.dataTransfer.setData('text/plain', String(post.id));
      event.dataTransfer.effectAllowed = 'move';
      node.classList.add('is-dragging');
      dragging = post;
      for (const [status, column] of columns) column.classList.toggle('is-drop-refused', status !== post.status && !moves.includes(status));
    });
    node.addEventListener('dragend', () => {
      node.classList.remove('is-dragging');
      dragging = null;
      for (const column of columns.values()) column.classList.remove('is-drop-refused');
      if (drawAfterDrag) {
        drawAfterDrag = false;
        keepingFocus(board, 'data-post-id', () => render(), board);
      }
    });
  }
  return node;
}

function visiblePosts() {
  const { platform } = currentFilters();
  return platform ? posts.filter((p) => p.platform === platform) : posts;
}

/** Scheduled posts go out soonest first (any without a moment last); other columns keep the newest first. @param {Post} a @param {Post} b */
const bySchedule = (a, b) => (a.scheduledAt ?? '\uffff').localeCompare(b.scheduledAt ?? '\uffff') || a.id - b.id;

/**
 * The cards of a column, in the order it shows them.
 * @param {PostStatus} status
 * @param {Post[]} [shown]
 */
function columnPosts(status, shown = visiblePosts()) {
  const inColumn = shown.filter((p) => p.status === status);
  return status === SCHEDULED ? inColumn.sort(bySchedule) : inColumn;
}

/** @param {number} [focusPostId] the post whose card takes the focus */
function render(focusPostId) {
  const shown = visiblePosts();
  for (const [status, column] of columns) {
    const inColumn = columnPosts(status, shown);
    requireElement('[data-count]', HTMLElement, column).textContent = String(inColumn.length);
    const list = requireElement('[data-cards]', HTMLElement, column);
    list.replaceChildren(...(inColumn.length ? inColumn.map(card) : [element('li', { className: 'kanban-empty', text: t('board.emptyColumn') })]));
  }
  const shownIds = new Set(shown.map((p) => p.id));
  for (const id of selected) if (!shownIds.has(id)) selected.delete(id);
  showSelection();
  const { campaignId, brandId, platform } = currentFilters();
  clearButton.hidden = !(campaignId || brandId || platform);
  state.textContent = posts.length === 0 ? t('board.empty') : '';
  state.hidden = posts.length !== 0;
  changed.show();
  if (focusPostId === undefined) return;
  const moved = findElement(`[data-post-id="${focusPostId}"]`, HTMLElement, board);
  if (moved) (findElement('.post-move', HTMLElement, moved) ?? findElement('.post-open', HTMLElement, moved))?.focus();
}

// ## Loading

async function loadPosts() {
  const { campaignId, brandId } = currentFilters();
  const query = new URLSearchParams();
  if (campaignId) query.set('campaignId', campaignId);
  if (brandId) query.set('brandId', brandId);
  board.setAttribute('aria-busy', 'true');
  try {
    posts = /** @type {Post[]} */ (await postLoads.run((signal) => callAll(`/api/posts?${query}`, 'posts', undefined, { signal })));
  } finally {
    board.setAttribute('aria-busy', 'false');
  }
}

function rememberFilters() {
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
async function refresh(focusPostId) {
  try {
    await loadPosts();
    render(focusPostId);
  } catch (err) {
    state.hidden = false;
    state.textContent = errorMessage(err);
  }
}

async function start() {
  const initial = new URL(window.location.href).searchParams;
  try {
    const [c, b, m] = /** @type {[{ campaigns: import('./common.js').Campaign[] }, { brands: import('./common.js').Brand[] }, { members: import('./common.js').Member[] }]} */ (
      await Promise.all([call('GET', '/api/campaigns'), call('GET', '/api/brands'), call('GET', '/api/members')])
    );
    campaigns = c.campaigns;
    brands = b.brands;
    people = byId(m.members);
  } catch (err) {
    state.textContent = errorMessage(err);
    board.setAttribute('aria-busy', 'false');
    return;
  }
  fillSelect(filterOf.campaignId, options(campaigns, campaignLabel), initial.get('campaignId') ?? '');
  fillSelect(filterOf.brandId, options(brands), initial.get('brandId') ?? '');
  fillSelect(filterOf.platform, vocabularyOptions(domain.platforms, 'platforms'), initial.get('platform') ?? '');
  await refresh();
}

filters.addEventListener('change', () => {
  rememberFilters();
  void refresh();
});
clearButton.addEventListener('click', () => {
  for (const select of Object.values(filterOf)) select.value = '';
  rememberFilters();
  void refresh().then(() => filterOf.campaignId.focus());
});

// ## Moving

/** @param {Post} updated */
function replacePost(updated) {
  posts = posts.map((p) => (p.id === updated.id ? updated : p));
}

/**
 * Shows a change this page made: on the board as it is, or, while the posts are being read
 * (their answer may come from before the change), by reading them again.
 * @param {() => void} change
 * @param {number} [focusPostId]
 */
async function afterChange(change, focusPostId) {
  if (postLoads.pending) return refresh(focusPostId);
  change();
  render(focusPostId);
}

/**
 * @param {Post} post
 * @param {PostStatus} status
 */
async function move(post, status) {
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
function fieldRefusal(err) {
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
async function moveAgain(latest, status, form) {
  const post = /** @type {Post | null} */ (latest);
  if (post && post.status !== status && post.can.moves.includes(status)) await form(post);
}

/** @param {Post} post */
async function publish(post) {
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
      /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: PUBLISHED, publicationUrl: (values.publicationUrl ?? '').trim() })).post,
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
async function schedule(post) {
  const guard = formGuard('post', post.id);
  const updated = await editInModal({
    notice: guard.element,
    title: t('board.schedule.title'),
    confirmText: t('board.schedule.submit'),
    fields: [{ name: 'scheduledAt', label: t('post.scheduledAt'), type: 'datetime-local', required: true, hint: t('board.schedule.message', { title: post.title }) }],
    check: (values) => ({ scheduledAt: values.scheduledAt ? '' : t('errors.SCHEDULE_REQUIRED') }),
    send: async (values) =>
      /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: SCHEDULED, scheduledAt: fromLocalInput(values.scheduledAt ?? '') })).post,
    refusedField: fieldRefusal,
  });
  const latest = guard.finish();
  if (!updated) return moveAgain(latest, SCHEDULED, schedule);
  announce(tIsolated('board.moved', { title: post.title, status: statusName(SCHEDULED) }));
  await afterChange(() => replacePost(updated), post.id);
}

/**
 * A manager returns someone's post to its author, saying why in the modal (the server
 * requires the reason and adds it to the post's comments).
 * @param {Post} post
 * @param {PostStatus} status
 */
async function sendBack(post, status) {
  const guard = formGuard('post', post.id);
  const updated = await editInModal({
    notice: guard.element,
    title: t('review.sendBackTitle'),
    confirmText: t('review.sendBack'),
    fields: [
      { name: 'status', label: t('review.moveTo'), type: 'select', options: vocabularyOptions(domain.postStatuses.filter((s) => sendsBack(post, s)).reverse(), 'status'), value: status },
      { name: 'comment', label: t('review.reason'), type: 'textarea', rows: 4, required: true, maxlength: domain.commentMaxLength, hint: t('review.sendBackMessage', { title: post.title }) },
    ],
    check: (values) => ({ comment: values.comment?.trim() ? '' : t('review.reasonRequired') }),
    send: async (values) =>
      /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: values.status, comment: (values.comment ?? '').trim() })).post,
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
async function approve(post) {
  try {
    const { post: updated } = /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: 'approved' }));
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
    accepts: () => !dragging || dragging.can.moves.includes(status),
    onDrop: (id) => {
      const post = posts.find((p) => String(p.id) === id);
      if (post) void move(post, status);
    },
  });
}

// ## Selecting several posts

const bulk = {
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
const columnBoxes = new Map([...columns].map(([status, column]) => [status, requireElement('[data-select-column]', HTMLInputElement, column)]));
const undo = {
  toast: requireElement('[data-undo]', HTMLElement),
  text: requireElement('[data-undo-text]', HTMLElement),
  button: requireElement('[data-undo-button]', HTMLButtonElement),
};

/** A card is picked for the bulk changes only when the user may change its post. @param {Post} post */
const selectable = (post) => post.can.edit;

const selectedPosts = () => posts.filter((p) => selected.has(p.id));

/** The cards in the order they are shown, column by column: what a shift-click's range runs over. */
const shownOrder = () => [...columns.keys()].flatMap((status) => columnPosts(status)).filter(selectable);

/**
 * Ticks or clears the boxes of `chosen` as the selection has them, without drawing the cards
 * again (the focus stays where it is), and shows the selection.
 * @param {Post[]} chosen
 */
function showPicked(chosen) {
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
function picked(post, on, range) {
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
function commonMoves(chosen) {
  const sets = chosen.map((p) => new Set(p.can.moves));
  const dated = chosen.every((p) => p.scheduledAt);
  return domain.postStatuses.filter((s) => s !== PUBLISHED && (s !== SCHEDULED || dated) && sets.every((set) => set.has(s)));
}

/** The campaigns the selection may join: those of its brand, when its posts share one (a campaign never moves a post to another brand). @param {Post[]} chosen */
function commonCampaigns(chosen) {
  const brandIds = new Set(chosen.map((p) => p.brandId));
  return brandIds.size === 1 ? campaigns.filter((c) => brandIds.has(c.brandId)) : [];
}

/** Each column's box: ticked when all its cards that can be picked are, mixed when some are. */
function showColumnBoxes() {
  const shown = visiblePosts();
  for (const [status, box] of columnBoxes) {
    const pickable = columnPosts(status, shown).filter(selectable);
    const count = pickable.filter((p) => selected.has(p.id)).length;
    box.hidden = pickable.length === 0;
    box.checked = pickable.length > 0 && count === pickable.length;
    box.indeterminate = count > 0 && count < pickable.length;
  }
}

function showSelection() {
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

function clearSelection() {
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
async function changeSelection(change, done, opts = {}) {
  const before = selectedPosts();
  const { posts: updated } = /** @type {{ posts: Post[] }} */ (await call('PATCH', '/api/posts', { ids: [...selected], ...change }));
  const changed = new Map(updated.map((p) => [p.id, p]));
  const way = opts.undoable ? wayBack(before, changed) : null;
  if (way) offerUndo(done(updated.length), way);
  else announce(done(updated.length));
  selected.clear();
  await afterChange(() => {
    posts = posts.map((p) => changed.get(p.id) ?? p);
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
function wayBack(before, after) {
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
let undoTimer;
/** @type {(() => void) | null} */
let undoAction = null;

function hideUndo() {
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
function offerUndo(message, way) {
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
async function undoMove(way) {
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
    posts = posts.map((p) => back.get(p.id) ?? p);
  });
}

/**
 * As changeSelection, saying a refusal in the toast.
 * @param {Record<string, unknown>} change
 * @param {(count: number) => string} done
 * @param {{ undoable?: boolean }} [opts]
 */
async function applyToSelection(change, done, opts) {
  try {
    await changeSelection(change, done, opts);
  } catch (err) {
    announce(errorMessage(err));
  }
}

async function deleteSelection() {
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
    posts = posts.filter((p) => !ids.includes(p.id));
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
    check: (values) => ({ comment: values.comment?.trim() ? '' : t('review.reasonRequired') }),
    send: (values) => changeSelection({ status, comment: (values.comment ?? '').trim() }, done, { undoable: true }),
  });
});

bulk.assign.addEventListener('click', () => {
  const value = bulk.campaign.value;
  if (!value) {
    bulk.campaign.focus();
    return;
  }
  const campaign = value === 'none' ? null : campaigns.find((c) => String(c.id) === value);
  void applyToSelection({ campaignId: campaign ? campaign.id : null }, (n) => tn('bulk.assigned', n, { campaign: campaign ? campaign.name : t('bulk.noCampaign') }));
});

bulk.remove.addEventListener('click', () => void deleteSelection());

bulk.clear.addEventListener('click', () => {
  clearSelection();
  filterOf.campaignId.focus();
});

// ## Creating, editing, deleting

/** @param {PostStatus} a @param {PostStatus} b */
const inBoardOrder = (a, b) => domain.postStatuses.indexOf(a) - domain.postStatuses.indexOf(b);

/** The campaigns a post of `brandId` may be in (a campaign never moves a post to its brand). @param {number} brandId */
const campaignsOf = (brandId) => options(campaigns.filter((c) => c.brandId === brandId), campaignLabel, t('post.noCampaign'));

/**
 * The brand a new post starts in: that of the campaign or brand the board is filtered by, else the user's first.
 * @returns {number | undefined}
 */
function startingBrand() {
  const { campaignId, brandId } = currentFilters();
  const campaign = campaigns.find((c) => String(c.id) === campaignId);
  return campaign ? campaign.brandId : brandId ? Number(brandId) : undefined;
}

/**
 * @param {Post | null} post
 * @returns {import('../core/modal.js').ModalField[]}
 */
function postFields(post) {
  const brandId = post?.brandId ?? startingBrand() ?? chosenBrand({}, brands);
  // An author's edit of what a manager approved goes back to review: the form says so first.
  const reopens = post && !isManager() && (post.status === 'approved' || post.status === SCHEDULED);
  return [
    { name: 'title', label: t('post.title'), required: true, maxlength: 200, value: post?.title ?? '' },
    { name: 'caption', label: t('post.caption'), type: 'textarea', rows: 4, maxlength: 10000, value: post?.caption ?? '' },
    {
      name: 'platform',
      label: t('post.platform'),
      type: 'select',
      options: [{ value: '', label: t('post.noPlatform') }, ...vocabularyOptions(domain.platforms, 'platforms')],
      value: post?.platform ?? '',
    },
    {
      name: 'status',
      label: t('post.status'),
      type: 'select',
      options: vocabularyOptions(post ? [post.status, ...post.can.moves].sort(inBoardOrder) : isManager() ? domain.postStatuses : domain.authorPostStatuses, 'status'),
      value: post?.status ?? domain.postStatuses[0],
      hint: reopens ? t('review.editReopens') : isManager() ? undefined : t('review.needsApproval'),
    },
    // Asked for here, in place, when the status chosen sends the post back to its author.
    { name: 'comment', label: t('review.reason'), type: 'textarea', rows: 3, maxlength: domain.commentMaxLength, hint: t('review.reasonHint') },
    ...brandField(brands, { value: brandId, hint: t('post.brandHint'), label: t('post.brand') }),
    {
      name: 'campaignId',
      label: t('post.campaign'),
      type: 'select',
      options: campaignsOf(brandId),
      value: String(post ? (post.campaignId ?? '') : currentFilters().campaignId),
    },
    { name: 'scheduledAt', label: t('post.scheduledAt'), type: 'datetime-local', value: toLocalInput(post?.scheduledAt) },
    { name: 'publicationUrl', label: t('post.publicationUrl'), type: 'url', inputmode: 'url', dir: 'ltr', maxlength: 2000, hint: t('post.publicationUrlHint'), value: post?.publicationUrl ?? '' },
  ];
}

/**
 * Wires the post form's fields that follow others: the reason shows while the status chosen
 * sends the post back, and the campaigns offered are the chosen brand's.
 * @param {Post | null} post
 * @returns {NonNullable<import('../core/modal.js').ModalOptions['onOpen']>}
 */
function followingFields(post) {
  return (controls) => {
    const status = controls.get('status');
    const comment = controls.get('comment');
    const brand = controls.get('brandId');
    const campaign = controls.get('campaignId');
    const reasonField = comment?.closest('.field');
    const showReason = () => {
      const asked = Boolean(post && status && sendsBack(post, /** @type {PostStatus} */ (status.value)));
      if (reasonField instanceof HTMLElement) reasonField.hidden = !asked;
      comment?.toggleAttribute('required', asked);
    };
    status?.addEventListener('change', showReason);
    showReason();
    if (brand instanceof HTMLSelectElement && campaign instanceof HTMLSelectElement) {
      brand.addEventListener('change', () => {
        const kept = campaign.value;
        const list = campaignsOf(Number(brand.value));
        campaign.replaceChildren(...list.map((o) => element('option', { value: o.value, text: o.label, selected: o.value === kept })));
        if (!list.some((o) => o.value === kept)) campaign.value = '';
      });
    }
  };
}

/**
 * The brand a post belongs to as its form says: its campaign's, else the chosen one.
 * @param {HTMLFormElement | null} form
 */
function brandOfForm(form) {
  const values = form ? Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, typeof v === 'string' ? v : ''])) : {};
  const campaign = values.campaignId ? campaigns.find((c) => c.id === Number(values.campaignId)) : undefined;
  return campaign ? campaign.brandId : chosenBrand(values, brands);
}

/**
 * @param {Post | null} post
 * @param {Record<string, string>} values
 */
function postBody(post, values) {
  const status = /** @type {PostStatus} */ (values.status);
  // The field shows minutes: an untouched moment is sent as it is stored, not as a change.
  const untouched = post?.scheduledAt && values.scheduledAt === toLocalInput(post.scheduledAt);
  /** @type {Record<string, unknown>} */
  const body = {
    title: (values.title ?? '').trim(),
    caption: values.caption,
    platform: values.platform || null,
    status,
    brandId: chosenBrand(values, brands),
    campaignId: values.campaignId ? Number(values.campaignId) : null,
    scheduledAt: untouched ? post.scheduledAt : fromLocalInput(values.scheduledAt ?? ''),
    publicationUrl: (values.publicationUrl ?? '').trim(),
  };
  if (post && sendsBack(post, status)) body.comment = (values.comment ?? '').trim();
  return body;
}

/**
 * What the form can tell before asking the server.
 * @param {Post | null} post
 * @param {Record<string, string>} values
 */
function checkPost(post, values) {
  const status = /** @type {PostStatus} */ (values.status);
  return {
    title: values.title?.trim() ? '' : t('post.titleRequired'),
    comment: post && sendsBack(post, status) && !values.comment?.trim() ? t('review.reasonRequired') : '',
    scheduledAt: status === SCHEDULED && !values.scheduledAt ? t('errors.SCHEDULE_REQUIRED') : '',
  };
}

/**
 * @param {Post | null} post
 * @returns {Promise<void>}
 */
async function savePost(post) {
  const media = mediaPicker({ initial: post?.attachments ?? [], brandOf: brandOfForm, brandFields: ['campaignId', 'brandId'] });
  const guard = post ? formGuard('post', post.id) : null;
  const saved = await editInModal({
    notice: guard?.element,
    title: post ? t('post.editTitle') : t('post.newTitle'),
    confirmText: post ? t('common.save') : t('post.create'),
    fields: postFields(post),
    content: media.element,
    onOpen: followingFields(post),
    check: (values) => checkPost(post, values),
    send: async (values) => {
      const body = { ...postBody(post, values), attachments: media.value() };
      return /** @type {{ post: Post }} */ (post ? await call('PATCH', `/api/posts/${post.id}`, body) : await call('POST', '/api/posts', body)).post;
    },
    refusedField: fieldRefusal,
  });
  const latest = /** @type {Post | null} */ (guard?.finish() ?? null);
  if (!saved) {
    if (latest) await savePost(latest);
    return;
  }
  announce(tIsolated(post ? 'post.updated' : 'post.created', { title: saved.title }));
  await afterChange(() => {
    if (post) replacePost(saved);
    // Its live event may have brought it already.
    else posts = [saved, ...posts.filter((p) => p.id !== saved.id)];
  }, saved.id);
}

// ## The post panel

/** @param {Post} post */
function postDetails(post) {
  const owner = post.ownerId === null ? undefined : people.get(post.ownerId);
  /** @param {string} label @param {Node | string} value */
  const row = (label, value) => [element('dt', { text: label }), element('dd', {}, [value])];
  return element('dl', { className: 'post-details' }, [
    ...row(t('post.status'), element('span', { className: 'status-chip' }, [element('span', { className: `status-dot status-${post.status}`, 'aria-hidden': 'true' }), statusName(post.status)])),
    ...row(t('post.campaign'), post.campaign ? element('span', { dir: 'auto', text: post.campaign.name }) : t('board.noCampaign')),
    ...row(t('post.platform'), post.platform ? t(`platforms.${post.platform}`) : t('post.noPlatform')),
    ...row(t('postPanel.scheduled'), post.scheduledAt ? element('time', { datetime: post.scheduledAt, text: formatMoment(post.scheduledAt) }) : t('board.notScheduled')),
    ...row(t('postPanel.owner'), owner ? element('span', { dir: 'auto', text: owner.name }) : t('board.noOwner')),
    ...row(t('postPanel.caption'), element('p', { className: 'post-caption', dir: 'auto', text: post.caption || t('postPanel.noCaption') })),
  ]);
}

let mediaSerial = 0;

/**
 * The post's media, each opening in the same lightbox as the asset library: what a reviewer
 * sees is what they approve.
 * @param {Post} post
 */
function postMedia(post) {
  if (post.attachments.length === 0) return null;
  const list = element('ul', { className: 'post-media', 'aria-busy': 'true' });
  const uploaderName = (/** @type {import('./upload.js').Asset} */ asset) => (asset.uploadedBy === null ? null : (people.get(asset.uploadedBy)?.name ?? null));
  void Promise.all(
    post.attachments.map((id) =>
      call('GET', `/api/assets/${id}`).then(
        (answer) => /** @type {{ asset: import('./upload.js').Asset }} */ (answer).asset,
        () => null,
      ),
    ),
  )
    .then((found) => {
      const assets = found.filter((a) => a !== null);
      list.replaceChildren(
        ...assets.map((asset, index) => {
          const open = element('button', { type: 'button', className: 'post-media-open' }, [
            asset.thumbnailUrl ? element('img', { className: 'post-media-thumb', src: asset.thumbnailUrl, alt: '' }) : fileIcon(asset),
            element('span', { className: 'post-media-name', dir: 'auto', text: asset.name }),
          ]);
          open.addEventListener('click', () => void openLightbox(assets, index, uploaderName));
          return element('li', {}, [open]);
        }),
      );
      if (assets.length === 0) list.append(element('li', { className: 'muted', text: t('postPanel.mediaGone') }));
    })
    .finally(() => list.setAttribute('aria-busy', 'false'));
  const headingId = `post-media-${(mediaSerial += 1)}`;
  return element('section', { className: 'post-media-section', 'aria-labelledby': headingId }, [element('h3', { id: headingId, className: 'thread-title', text: t('postPanel.media') }), list]);
}

/** @typedef {'edit' | 'approve' | 'sendBack'} PanelChoice */
/** The attribute that names each of the panel's actions. @type {Record<PanelChoice, string>} */
const ATTRIBUTE_OF = { edit: 'edit', approve: 'approve', sendBack: 'send-back' };

/**
 * What can be done to the post, as the server allows: edit, approve or send back (while it
 * waits for review).
 * @param {Post} post
 * @param {(choice: PanelChoice) => void} choose
 */
function panelActions(post, choose) {
  const inReview = post.status === 'review';
  const approvable = inReview && post.can.moves.includes('approved');
  const returnable = inReview && sendsBack(post, 'draft');
  /** @param {string} text @param {PanelChoice} choice @param {boolean} [primary] */
  const button = (text, choice, primary = false) => {
    const node = element('button', { type: 'button', className: `button${primary ? ' button-primary' : ''}`, text, [`data-${ATTRIBUTE_OF[choice]}`]: true });
    node.addEventListener('click', () => choose(choice));
    return node;
  };
  return element('div', { className: 'post-panel-actions' }, [
    approvable ? button(t('review.approve'), 'approve', true) : null,
    returnable ? button(t('review.sendBack'), 'sendBack') : null,
    post.can.edit ? button(t('postPanel.edit'), 'edit') : null,
    inReview && !approvable ? element('p', { className: 'muted', text: t('review.waiting') }) : null,
  ]);
}

/**
 * The post with what can be done to it, its media, comments and history. Resolves once the
 * panel closes. A colleague's change redraws it as it is now (the comment being written
 * stays); a deletion leaves it with nothing to do but close.
 * @param {Post} post
 */
async function openPost(post) {
  let current = post;
  /** @type {PanelChoice | null} */
  let next = null;
  /** @param {PanelChoice} choice */
  const choose = (choice) => {
    next = choice;
    panel.closest('dialog')?.close();
  };
  const details = element('div', {}, [postDetails(current)]);
  const media = element('div', {}, [postMedia(current)]);
  const actions = element('div', {}, [panelActions(current, choose)]);
  // A colleague's change, said here: the page's own live region is behind the dialog.
  const notice = element('div', { className: 'live-notice', role: 'status' });
  const main = element('div', { className: 'post-panel-main' }, [notice, details, media, actions, commentThread({ postId: post.id })]);
  const side = element('aside', { className: 'post-panel-side' }, [postHistory(post.id)]);
  const panel = element('div', { className: 'post-panel' }, [main, side]);
  const dialog = () => panel.closest('dialog');
  subscribeWhileShown(panel, 'post', (event) => {
    if (event.id !== post.id) return;
    const latest = /** @type {Post | undefined} */ (event.post);
    // The focus was on an action that is drawn again (or gone): it goes to the first one, else to Close.
    const focused = actions.contains(document.activeElement);
    if (latest) {
      details.replaceChildren(postDetails(latest));
      if (latest.attachments.join() !== current.attachments.join()) media.replaceChildren(postMedia(latest) ?? '');
      actions.replaceChildren(panelActions(latest, choose));
      dialog()?.querySelector('.modal-title')?.replaceChildren(latest.title);
      side.replaceChildren(postHistory(post.id));
      current = latest;
    } else {
      actions.replaceChildren();
      notice.replaceChildren(element('p', { text: t('live.postGone') }));
    }
    if (focused) (findElement('button', HTMLElement, actions) ?? findElement('.modal-close', HTMLElement, dialog() ?? document))?.focus();
    if (!latest || !byOther(event)) return;
    flash(details);
    notice.replaceChildren(element('p', {}, tIsolated('live.postShown', { title: latest.title, status: statusName(latest.status) })));
  });
  await openModal({ title: post.title, content: panel, isConfirm: false, confirmText: t('common.close'), size: 'wide' });
  if (next === 'edit') await savePost(current);
  else if (next === 'approve') await approve(current);
  else if (next === 'sendBack') await sendBack(current, 'draft');
}

/**
 * The post a link names (`?post=ID`, from a search result or a notification): its card shown
 * and focused, and its panel opened.
 */
async function openLinkedPost() {
  const post = await linkedRecord({
    param: 'post',
    shown: posts,
    root: board,
    attribute: 'data-post-id',
    fetch: async (id) => /** @type {{ post: Post }} */ (await call('GET', `/api/posts/${id}`)).post,
    gone: t('postPanel.notFound'),
  });
  if (post) await openPost(post);
}

/** @param {Post} post */
async function deletePost(post) {
  const deleted = await deleteWithConfirmation(
    'post',
    { title: post.title },
    `/api/posts/${post.id}`,
    () => findElement('.post-open', HTMLElement, board) ?? findElement('[data-new-post]', HTMLElement),
  );
  if (!deleted) return;
  await afterChange(() => {
    posts = posts.filter((p) => p.id !== post.id);
  });
}

requireElement('[data-new-post]', HTMLButtonElement).addEventListener('click', () => void savePost(null));

// ## Colleagues' changes

/**
 * Whether a post belongs under the campaign and brand the board is filtered by (the filters
 * the API applies; the platform is filtered when drawing).
 * @param {Post} post
 */
function underFilters(post) {
  const { campaignId, brandId } = currentFilters();
  return (!campaignId || String(post.campaignId) === campaignId) && (!brandId || String(post.brandId) === brandId);
}

/**
 * What is said of a colleague's change to a post.
 * @param {Post | undefined} before as the board had it
 * @param {Post | undefined} after as it is now
 */
function saidOf(before, after) {
  const title = (after ?? before)?.title ?? '';
  if (!after) return tIsolated('live.postDeleted', { title });
  if (!before) return tIsolated('live.postCreated', { title });
  if (after.status !== before.status) return tIsolated('live.postMoved', { title, status: statusName(after.status) });
  return tIsolated('live.postUpdated', { title });
}

subscribe('post', (event) => {
  const before = posts.find((p) => p.id === event.id);
  const latest = /** @type {Post | undefined} */ (event.post);
  const after = latest && underFilters(latest) ? latest : undefined;
  if (!before && !after) return;
  if (after && byOther(event)) changed.mark(after.id);
  const change = () => {
    posts = after ? (before ? posts.map((p) => (p.id === after.id ? after : p)) : [after, ...posts]) : posts.filter((p) => p.id !== event.id);
  };
  if (dragging) {
    change();
    drawAfterDrag = true;
  } else {
    keepingFocus(board, 'data-post-id', () => void afterChange(change), board);
  }
  // A card the platform filter hides changes unseen, and unsaid.
  const { platform } = currentFilters();
  const seen = (/** @type {Post | undefined} */ p) => p !== undefined && (!platform || p.platform === platform);
  if (byOther(event) && (seen(before) || seen(after))) tell(saidOf(before, after));
});
subscribe('reset', () => void refresh());

await start();
await openLinkedPost();
