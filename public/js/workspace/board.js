// The kanban board: posts in one column per status. A card moves by drag and drop or by its
// move menu (for the keyboard); moving to Published asks for the publication link in the
// modal and shows the server's answer when the link is refused.
import {
  ApiError, announce, avatar, byId, call, callAll, element, errorMessage, formatShortMoment, fromLocalInput, isManager, me,
  options, t, toLocalInput,
} from './common.js';
import { icon, iconButton } from './icons.js';
import { menuButton } from './menu.js';
import { brandField, chosenBrand, deleteWithConfirmation, editInModal } from './records.js';

const STATUSES = ['idea', 'draft', 'review', 'approved', 'scheduled', 'published'];
const PLATFORMS = ['instagram', 'facebook', 'x', 'tiktok', 'linkedin', 'youtube', 'snapchat', 'website', 'email', 'other'];
const LINK_CODES = new Set(['PUBLICATION_LINK_REQUIRED', 'INVALID_PUBLICATION_LINK']);

const board = document.querySelector('[data-board]');
const state = document.querySelector('[data-board-state]');
const filters = document.querySelector('[data-board-filters]');
const clearButton = document.querySelector('[data-clear-filters]');
const columns = new Map([...board.querySelectorAll('[data-status]')].map((c) => [c.dataset.status, c]));

let posts = [];
let campaigns = [];
let brands = [];
let people = new Map();

const canEdit = (post) => isManager() || post.ownerId === me.id;
const statusName = (status) => t(`status.${status}`);

function currentFilters() {
  return { campaignId: filters.elements.campaignId.value, brandId: filters.elements.brandId.value, platform: filters.elements.platform.value };
}

function fillSelect(select, list, selected) {
  const first = select.options[0];
  select.replaceChildren(first, ...list.map((o) => element('option', { value: o.value, text: o.label, selected: o.value === selected })));
}

function campaignLabel(campaign) {
  if (brands.length < 2) return campaign.name;
  const brand = brands.find((b) => b.id === campaign.brandId);
  return brand ? `${campaign.name} · ${brand.name}` : campaign.name;
}

// ## Cards

function card(post) {
  const editable = canEdit(post);
  const owner = people.get(post.ownerId);
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
          items: STATUSES.filter((s) => s !== post.status).map((s) => ({ label: t('board.moveTo', { status: statusName(s) }), onSelect: () => move(post, s) })),
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
      post.status === 'published' && post.publicationUrl
        ? element('a', { className: 'post-link', href: post.publicationUrl, target: '_blank', rel: 'noopener noreferrer', 'aria-label': t('board.viewPublishedNamed', { title: post.title }) }, [
            icon('external', { flip: true }),
            t('board.viewPublished'),
          ])
        : null,
      post.scheduledAt
        ? element('time', { className: 'post-date', datetime: post.scheduledAt }, [icon('calendar'), formatShortMoment(post.scheduledAt)])
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

function render(focusPostId) {
  const shown = visiblePosts();
  for (const [status, column] of columns) {
    const inColumn = shown.filter((p) => p.status === status);
    column.querySelector('[data-count]').textContent = String(inColumn.length);
    const list = column.querySelector('[data-cards]');
    list.replaceChildren(...(inColumn.length ? inColumn.map(card) : [element('li', { className: 'kanban-empty', text: t('board.emptyColumn') })]));
  }
  const { campaignId, brandId, platform } = currentFilters();
  clearButton.hidden = !(campaignId || brandId || platform);
  state.textContent = posts.length === 0 ? t('board.empty') : '';
  state.hidden = posts.length !== 0;
  if (focusPostId === undefined) return;
  const moved = board.querySelector(`[data-post-id="${focusPostId}"]`);
  (moved?.querySelector('.post-move') ?? moved?.querySelector('.post-open'))?.focus();
}

// ## Loading

async function loadPosts() {
  const { campaignId, brandId } = currentFilters();
  const query = new URLSearchParams();
  if (campaignId) query.set('campaignId', campaignId);
  if (brandId) query.set('brandId', brandId);
  board.setAttribute('aria-busy', 'true');
  try {
    posts = await callAll(`/api/posts?${query}`, 'posts');
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

async function refresh() {
  try {
    await loadPosts();
    render();
  } catch (err) {
    state.hidden = false;
    state.textContent = errorMessage(err);
  }
}

async function start() {
  const initial = new URL(window.location.href).searchParams;
  try {
    const [c, b, m] = await Promise.all([call('GET', '/api/campaigns'), call('GET', '/api/brands'), call('GET', '/api/members')]);
    campaigns = c.campaigns;
    brands = b.brands;
    people = byId(m.members);
  } catch (err) {
    state.textContent = errorMessage(err);
    board.setAttribute('aria-busy', 'false');
    return;
  }
  fillSelect(filters.elements.campaignId, options(campaigns, campaignLabel), initial.get('campaignId') ?? '');
  fillSelect(filters.elements.brandId, options(brands), initial.get('brandId') ?? '');
  fillSelect(filters.elements.platform, PLATFORMS.map((p) => ({ value: p, label: t(`platforms.${p}`) })), initial.get('platform') ?? '');
  await refresh();
}

filters.addEventListener('change', async () => {
  rememberFilters();
  await refresh();
});
clearButton.addEventListener('click', async () => {
  for (const select of filters.querySelectorAll('select')) select.value = '';
  rememberFilters();
  await refresh();
  filters.elements.campaignId.focus();
});

// ## Moving

function replacePost(updated) {
  posts = posts.map((p) => (p.id === updated.id ? updated : p));
}

async function move(post, status) {
  if (status === post.status) return;
  if (status === 'published') return publish(post);
  try {
    const { post: updated } = await call('PATCH', `/api/posts/${post.id}`, { status });
    replacePost(updated);
    render(post.id);
    announce(t('board.moved', { title: post.title, status: statusName(status) }));
  } catch (err) {
    announce(errorMessage(err));
  }
}

function linkError(err) {
  return err instanceof ApiError && LINK_CODES.has(err.code) ? t(`errors.${err.code}`) : null;
}

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
    send: async (values) => (await call('PATCH', `/api/posts/${post.id}`, { status: 'published', publicationUrl: values.publicationUrl.trim() })).post,
    refusedField: (err) => {
      const message = linkError(err);
      return message && { name: 'publicationUrl', message };
    },
  });
  if (!updated) return;
  replacePost(updated);
  render(post.id);
  announce(t('board.moved', { title: post.title, status: statusName('published') }));
}

for (const [status, column] of columns) {
  column.addEventListener('dragover', (event) => {
    if (!event.dataTransfer.types.includes('text/plain')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    column.classList.add('is-drop-target');
  });
  column.addEventListener('dragleave', (event) => {
    if (!column.contains(event.relatedTarget)) column.classList.remove('is-drop-target');
  });
  column.addEventListener('drop', (event) => {
    event.preventDefault();
    column.classList.remove('is-drop-target');
    const post = posts.find((p) => String(p.id) === event.dataTransfer.getData('text/plain'));
    if (post) void move(post, status);
  });
}

// ## Creating, editing, deleting

function postFields(post) {
  return [
    { name: 'title', label: t('post.title'), required: true, maxlength: 200, value: post?.title ?? '' },
    { name: 'caption', label: t('post.caption'), type: 'textarea', rows: 4, maxlength: 10000, value: post?.caption ?? '' },
    {
      name: 'platform',
      label: t('post.platform'),
      type: 'select',
      options: [{ value: '', label: t('post.noPlatform') }, ...PLATFORMS.map((p) => ({ value: p, label: t(`platforms.${p}`) }))],
      value: post?.platform ?? '',
    },
    { name: 'status', label: t('post.status'), type: 'select', options: STATUSES.map((s) => ({ value: s, label: statusName(s) })), value: post?.status ?? 'idea' },
    {
      name: 'campaignId',
      label: t('post.campaign'),
      type: 'select',
      options: options(campaigns, campaignLabel, t('post.noCampaign')),
      value: String(post?.campaignId ?? currentFilters().campaignId ?? ''),
    },
    ...brandField(brands, { value: post?.brandId, hint: t('post.brandHint'), label: t('post.brand') }),
    { name: 'scheduledAt', label: t('post.scheduledAt'), type: 'datetime-local', value: toLocalInput(post?.scheduledAt) },
    { name: 'publicationUrl', label: t('post.publicationUrl'), type: 'url', inputmode: 'url', dir: 'ltr', maxlength: 2000, hint: t('post.publicationUrlHint'), value: post?.publicationUrl ?? '' },
  ];
}

function postBody(values) {
  const campaignId = values.campaignId ? Number(values.campaignId) : null;
  const body = {
    title: values.title.trim(),
    caption: values.caption,
    platform: values.platform || null,
    status: values.status,
    campaignId,
    scheduledAt: fromLocalInput(values.scheduledAt),
    publicationUrl: values.publicationUrl.trim(),
  };
  // A campaign brings its own brand; the brand is only asked for posts without one.
  if (campaignId === null) body.brandId = chosenBrand(values, brands);
  return body;
}

async function savePost(post) {
  const saved = await editInModal({
    title: post ? t('post.editTitle') : t('post.newTitle'),
    confirmText: post ? t('common.save') : t('post.create'),
    fields: postFields(post),
    check: (values) => ({ title: values.title.trim() ? '' : t('post.titleRequired') }),
    send: async (values) => {
      const body = postBody(values);
      return (post ? await call('PATCH', `/api/posts/${post.id}`, body) : await call('POST', '/api/posts', body)).post;
    },
    refusedField: (err) => {
      const message = linkError(err);
      return message && { name: 'publicationUrl', message };
    },
  });
  if (!saved) return;
  if (post) replacePost(saved);
  else posts = [saved, ...posts];
  render(saved.id);
  announce(t(post ? 'post.updated' : 'post.created', { title: saved.title }));
}

function editPost(post) {
  if (canEdit(post)) void savePost(post);
}

async function deletePost(post) {
  const deleted = await deleteWithConfirmation(
    'post',
    { title: post.title },
    `/api/posts/${post.id}`,
    () => board.querySelector('.post-open') ?? document.querySelector('[data-new-post]'),
  );
  if (!deleted) return;
  posts = posts.filter((p) => p.id !== post.id);
  render();
}

document.querySelector('[data-new-post]').addEventListener('click', () => savePost(null));

await start();
