// The kanban board: posts in one column per status. A card moves by drag and drop or by its
// move menu (for the keyboard), to the columns the user's role may move it to; moving to
// Published asks for the publication link, and a manager sending someone's post back asks
// why. A card's title opens the post panel: details, review actions, comments and history.
import { ApiError, newestOnly } from '../core/api.js';
import { dropTarget, element, findElement, requireElement } from '../core/dom.js';
import { formatMoment } from '../core/format.js';
import { t, tn } from '../core/i18n.js';
import {
  announce, avatar, byId, call, callAll, domain, errorMessage, fromLocalInput, isManager, linkedRecord, me, options, toLocalInput, vocabularyOptions,
} from './common.js';
import { commentThread, postHistory } from './conversation.js';
import { icon, iconButton } from './icons.js';
import { openModal } from '../core/modal.js';
import { menuButton } from './menu.js';
import { mediaPicker } from './media-picker.js';
import { brandField, chosenBrand, deleteWithConfirmation, editInModal } from './records.js';

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
 */

/** The refusals of a publication link, said under the link's field. */
const LINK_CODES = new Set(['PUBLICATION_LINK_REQUIRED', 'INVALID_PUBLICATION_LINK']);
/** @type {PostStatus} */
const PUBLISHED = 'published';

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

/** @param {Post} post */
const canEdit = (post) => isManager() || post.ownerId === me.id;

/** @param {readonly string[]} list @param {PostStatus} status */
const among = (list, status) => list.includes(status);

/**
 * The statuses the user may move `post` to, by the server's approval rule: managers move
 * posts anywhere; authors among idea, draft and review, and out of an approval.
 * @param {Post} post
 * @returns {PostStatus[]}
 */
function movesFor(post) {
  if (!canEdit(post)) return [];
  if (isManager()) return domain.postStatuses.filter((s) => s !== post.status);
  if (!among(domain.authorMovablePostStatuses, post.status)) return [];
  return domain.authorPostStatuses.filter((s) => s !== post.status);
}

/**
 * Whether moving `post` to `status` sends it back to its author, which asks for a reason.
 * @param {Post} post
 * @param {PostStatus} status
 */
const sendsBack = (post, status) =>
  isManager() && post.ownerId !== me.id && among(['review', 'approved', 'scheduled'], post.status) && among(['idea', 'draft'], status);
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
  const editable = canEdit(post);
  const moves = movesFor(post);
  const owner = post.ownerId === null ? undefined : people.get(post.ownerId);
  const title = element('button', { type: 'button', className: 'post-open', text: post.title, 'aria-haspopup': 'dialog' });
  title.addEventListener('click', () => void openPost(post));

  const actions = editable
    ? [
        moves.length
          ? menuButton({
              content: icon('move'),
              ariaLabel: t('board.moveNamed', { title: post.title }),
              className: 'post-move',
              items: moves.map((s) => ({ label: t('board.moveTo', { status: statusName(s) }), onSelect: () => move(post, s) })),
            })
          : null,
        iconButton({ label: t('post.deleteNamed', { title: post.title }), icon: 'trash', danger: true, onClick: () => deletePost(post) }),
      ]
    : [];

  const pick = editable ? element('input', { type: 'checkbox', className: 'post-select', 'aria-label': t('bulk.selectNamed', { title: post.title }), checked: selected.has(post.id) }) : null;
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
    });
  }
  return node;
}

function visiblePosts() {
  const { platform } = currentFilters();
  return platform ? posts.filter((p) => p.platform === platform) : posts;
}

/** @param {number} [focusPostId] the post whose card takes the focus */
function render(focusPostId) {
  const shown = visiblePosts();
  for (const [status, column] of columns) {
    const inColumn = shown.filter((p) => p.status === status);
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
  try {
    const { post: updated } = /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status }));
    announce(t('board.moved', { title: post.title, status: statusName(status) }));
    await afterChange(() => replacePost(updated), post.id);
  } catch (err) {
    announce(errorMessage(err));
  }
}

/** @param {unknown} err */
function linkError(err) {
  return err instanceof ApiError && err.code && LINK_CODES.has(err.code) ? t(`errors.${err.code}`) : null;
}

/** @param {unknown} err */
function linkRefusal(err) {
  const message = linkError(err);
  return message ? { name: 'publicationUrl', message } : null;
}

/** @param {Post} post */
async function publish(post) {
  const updated = await editInModal({
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
    refusedField: linkRefusal,
  });
  if (!updated) return;
  announce(t('board.moved', { title: post.title, status: statusName(PUBLISHED) }));
  await afterChange(() => replacePost(updated), post.id);
}

/**
 * A manager returns someone's post to its author, saying why in the modal (the server
 * requires the reason and adds it to the post's comments).
 * @param {Post} post
 * @param {PostStatus} status
 */
async function sendBack(post, status) {
  const updated = await editInModal({
    title: t('review.sendBackTitle'),
    confirmText: t('review.sendBack'),
    fields: [
      { name: 'status', label: t('review.moveTo'), type: 'select', options: vocabularyOptions(['draft', 'idea'], 'status'), value: status },
      { name: 'comment', label: t('review.reason'), type: 'textarea', rows: 4, required: true, maxlength: domain.commentMaxLength, hint: t('review.sendBackMessage', { title: post.title }) },
    ],
    check: (values) => ({ comment: values.comment?.trim() ? '' : t('review.reasonRequired') }),
    send: async (values) =>
      /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: values.status, comment: (values.comment ?? '').trim() })).post,
  });
  if (!updated) return null;
  announce(t('review.sentBack', { title: post.title, status: statusName(updated.status) }));
  await afterChange(() => replacePost(updated), post.id);
  return updated;
}

/** @param {Post} post */
async function approve(post) {
  try {
    const { post: updated } = /** @type {{ post: Post }} */ (await call('PATCH', `/api/posts/${post.id}`, { status: 'approved' }));
    announce(t('review.approved', { title: post.title }));
    await afterChange(() => replacePost(updated), post.id);
    return updated;
  } catch (err) {
    announce(errorMessage(err));
    return null;
  }
}

for (const [status, column] of columns) {
  dropTarget(column, {
    accepts: () => !dragging || movesFor(dragging).includes(status),
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

const selectedPosts = () => posts.filter((p) => selected.has(p.id));

/** The cards in the order they are shown, column by column: what a shift-click's range runs over. */
const shownOrder = () => [...columns.keys()].flatMap((status) => visiblePosts().filter((p) => p.status === status)).filter(canEdit);

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
  for (const p of span) {
    const node = findElement(`[data-post-id="${p.id}"]`, HTMLElement, board);
    node?.classList.toggle('is-selected', on);
    const box = node && findElement('.post-select', HTMLInputElement, node);
    if (box) box.checked = on;
  }
  showSelection();
}

/**
 * The statuses every selected post may go to. Publishing asks each post for its own link, so
 * it is left to one post at a time.
 * @param {Post[]} chosen
 */
function commonMoves(chosen) {
  const sets = chosen.map((p) => new Set(movesFor(p)));
  return domain.postStatuses.filter((s) => s !== PUBLISHED && sets.every((set) => set.has(s)));
}

function showSelection() {
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
    ...campaigns.map((c) => element('option', { value: String(c.id), text: campaignLabel(c), selected: String(c.id) === keepCampaign })),
  );
}

function clearSelection() {
  selected.clear();
  lastPicked = null;
  render();
}

/**
 * Sends one change for the whole selection, which the server applies to all or to none, and
 * shows the result; a refusal is thrown to the caller.
 * @param {Record<string, unknown>} change
 * @param {(count: number) => string} done
 */
async function changeSelection(change, done) {
  const { posts: updated } = /** @type {{ posts: Post[] }} */ (await call('PATCH', '/api/posts', { ids: [...selected], ...change }));
  const changed = new Map(updated.map((p) => [p.id, p]));
  announce(done(updated.length));
  selected.clear();
  await afterChange(() => {
    posts = posts.map((p) => changed.get(p.id) ?? p);
  });
  return updated;
}

/**
 * As changeSelection, saying a refusal in the toast.
 * @param {Record<string, unknown>} change
 * @param {(count: number) => string} done
 */
async function applyToSelection(change, done) {
  try {
    await changeSelection(change, done);
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
    void applyToSelection({ status }, done);
    return;
  }
  // Sending back asks once why, and the reason goes into each post's comments.
  void editInModal({
    title: t('review.sendBackTitle'),
    confirmText: t('review.sendBack'),
    fields: [{ name: 'comment', label: t('review.reason'), type: 'textarea', rows: 4, required: true, maxlength: domain.commentMaxLength }],
    check: (values) => ({ comment: values.comment?.trim() ? '' : t('review.reasonRequired') }),
    send: (values) => changeSelection({ status, comment: (values.comment ?? '').trim() }, done),
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

/**
 * @param {Post | null} post
 * @returns {import('../core/modal.js').ModalField[]}
 */
function postFields(post) {
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
      options: vocabularyOptions(post ? [post.status, ...movesFor(post)].sort((a, b) => domain.postStatuses.indexOf(a) - domain.postStatuses.indexOf(b)) : isManager() ? domain.postStatuses : domain.authorPostStatuses, 'status'),
      value: post?.status ?? domain.postStatuses[0],
      hint: isManager() ? undefined : t('review.needsApproval'),
    },
    {
      name: 'campaignId',
      label: t('post.campaign'),
      type: 'select',
      options: options(campaigns, campaignLabel, t('post.noCampaign')),
      value: String(post?.campaignId ?? currentFilters().campaignId),
    },
    ...brandField(brands, { value: post?.brandId, hint: t('post.brandHint'), label: t('post.brand') }),
    { name: 'scheduledAt', label: t('post.scheduledAt'), type: 'datetime-local', value: toLocalInput(post?.scheduledAt) },
    { name: 'publicationUrl', label: t('post.publicationUrl'), type: 'url', inputmode: 'url', dir: 'ltr', maxlength: 2000, hint: t('post.publicationUrlHint'), value: post?.publicationUrl ?? '' },
  ];
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

/** @param {Record<string, string>} values */
function postBody(values) {
  const campaignId = values.campaignId ? Number(values.campaignId) : null;
  /** @type {Record<string, unknown>} */
  const body = {
    title: (values.title ?? '').trim(),
    caption: values.caption,
    platform: values.platform || null,
    status: values.status,
    campaignId,
    scheduledAt: fromLocalInput(values.scheduledAt ?? ''),
    publicationUrl: (values.publicationUrl ?? '').trim(),
  };
  // A campaign brings its own brand; the brand is only asked for posts without one.
  if (campaignId === null) body.brandId = chosenBrand(values, brands);
  return body;
}

/** @param {Post | null} post */
async function savePost(post) {
  const media = mediaPicker({ initial: post?.attachments ?? [], brandOf: brandOfForm, brandFields: ['campaignId', 'brandId'] });
  const saved = await editInModal({
    title: post ? t('post.editTitle') : t('post.newTitle'),
    confirmText: post ? t('common.save') : t('post.create'),
    fields: postFields(post),
    content: media.element,
    check: (values) => ({ title: values.title?.trim() ? '' : t('post.titleRequired') }),
    send: async (values) => {
      const body = { ...postBody(values), attachments: media.value() };
      return /** @type {{ post: Post }} */ (post ? await call('PATCH', `/api/posts/${post.id}`, body) : await call('POST', '/api/posts', body)).post;
    },
    refusedField: linkRefusal,
  });
  if (!saved) return;
  announce(t(post ? 'post.updated' : 'post.created', { title: saved.title }));
  await afterChange(() => {
    if (post) replacePost(saved);
    else posts = [saved, ...posts];
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

/**
 * The post with what can be done to it: edit, approve or send back (managers, while it
 * waits for review), its comments and its history. Resolves once the panel closes.
 * @param {Post} post
 */
async function openPost(post) {
  /** @type {'edit' | 'approve' | 'sendBack' | null} */
  let next = null;
  const close = (/** @type {typeof next} */ choice) => {
    next = choice;
    panel.closest('dialog')?.close();
  };
  const review = post.status === 'review' && isManager();
  const actions = element('div', { className: 'post-panel-actions' }, [
    review ? element('button', { type: 'button', className: 'button button-primary', text: t('review.approve'), 'data-approve': true }) : null,
    review && post.ownerId !== me.id ? element('button', { type: 'button', className: 'button', text: t('review.sendBack'), 'data-send-back': true }) : null,
    canEdit(post) ? element('button', { type: 'button', className: 'button', text: t('postPanel.edit'), 'data-edit': true }) : null,
    post.status === 'review' && !isManager() ? element('p', { className: 'muted', text: t('review.waiting') }) : null,
  ]);
  actions.querySelector('[data-approve]')?.addEventListener('click', () => close('approve'));
  actions.querySelector('[data-send-back]')?.addEventListener('click', () => close('sendBack'));
  actions.querySelector('[data-edit]')?.addEventListener('click', () => close('edit'));
  const panel = element('div', { className: 'post-panel' }, [
    element('div', { className: 'post-panel-main' }, [postDetails(post), actions, commentThread(`/api/posts/${post.id}/comments`)]),
    element('aside', { className: 'post-panel-side' }, [postHistory(post.id)]),
  ]);
  await openModal({ title: post.title, content: panel, isConfirm: false, confirmText: t('common.close'), size: 'wide' });
  if (next === 'edit') await savePost(post);
  else if (next === 'approve') await approve(post);
  else if (next === 'sendBack') await sendBack(post, 'draft');
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

await start();
await openLinkedPost();
