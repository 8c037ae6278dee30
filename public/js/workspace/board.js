// The kanban board: posts in one column per status. A card moves by drag and drop or by its
// move menu (for the keyboard); moving to Published asks for the publication link in the
// modal and shows the server's answer when the link is refused.
import { ApiError, newestOnly } from '../core/api.js';
import { element, findElement, requireElement } from '../core/dom.js';
import { formatMoment } from '../core/format.js';
import { t } from '../core/i18n.js';
import {
  announce, avatar, byId, call, callAll, domain, errorMessage, fromLocalInput, isManager, me, options, toLocalInput, vocabularyOptions,
} from './common.js';
import { icon, iconButton } from './icons.js';
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

/** @param {Post} post */
const canEdit = (post) => isManager() || post.ownerId === me.id;
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
  const owner = post.ownerId === null ? undefined : people.get(post.ownerId);
  const title = editable
    ? element('button', { type: 'button', className: 'post-open', text: post.title })
    : element('span', { text: post.title });
  title.addEventListener('click', () => editPost(post));

  const actions = editable
    ? [
        menuButton({
          content: icon('move'),
          ariaLabel: t('board.moveNamed', { title: post.title }),
          className: 'post-move',
          items: domain.postStatuses.filter((s) => s !== post.status).map((s) => ({ label: t('board.moveTo', { status: statusName(s) }), onSelect: () => move(post, s) })),
        }),
        iconButton({ label: t('post.deleteNamed', { title: post.title }), icon: 'trash', danger: true, onClick: () => deletePost(post) }),
      ]
    : [];

  const node = element('li', { className: `post-card${post.thumbnailUrl ? ' has-thumb' : ''}`, 'data-post-id': post.id, draggable: editable ? 'true' : undefined }, [
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

  if (editable) {
    node.addEventListener('dragstart', (event) => {
      if (!event.dataTransfer) return;
      event.dataTransfer.setData('text/plain', String(post.id));
      event.dataTransfer.effectAllowed = 'move';
      node.classList.add('is-dragging');
    });
    node.addEventListener('dragend', () => node.classList.remove('is-dragging'));
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

for (const [status, column] of columns) {
  column.addEventListener('dragover', (event) => {
    if (!event.dataTransfer?.types.includes('text/plain')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    column.classList.add('is-drop-target');
  });
  column.addEventListener('dragleave', (event) => {
    if (!(event.relatedTarget instanceof Node && column.contains(event.relatedTarget))) column.classList.remove('is-drop-target');
  });
  column.addEventListener('drop', (event) => {
    event.preventDefault();
    column.classList.remove('is-drop-target');
    const id = event.dataTransfer?.getData('text/plain');
    const post = posts.find((p) => String(p.id) === id);
    if (post) void move(post, status);
  });
}

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
    { name: 'status', label: t('post.status'), type: 'select', options: vocabularyOptions(domain.postStatuses, 'status'), value: post?.status ?? domain.postStatuses[0] },
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

/** @param {Post} post */
function editPost(post) {
  if (canEdit(post)) void savePost(post);
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

/**
 * `?post=ID` (the calendar's links) opens that post: its form when the user may edit it, else
 * its card, focused. The address then drops it, so a reload shows the board alone.
 */
function openLinkedPost() {
  const url = new URL(window.location.href);
  const id = Number(url.searchParams.get('post'));
  if (!url.searchParams.has('post')) return;
  url.searchParams.delete('post');
  window.history.replaceState(null, '', url);
  const post = posts.find((p) => p.id === id);
  if (!post) return;
  const node = findElement(`[data-post-id="${post.id}"]`, HTMLElement, board);
  node?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  (node && findElement('.post-open, .post-move', HTMLElement, node))?.focus();
  editPost(post);
}

await start();
openLinkedPost();
