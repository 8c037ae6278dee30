// Campaigns and the tracks inside each. What the user may create comes with the page, what they
// may change or delete with each campaign (`campaign.can`); deleting a campaign takes its posts
// and tracks with it, so the red confirmation counts them from the API first.
import { element, findElement, requireElement } from '../core/dom.js';
import { t, tIsolated, tn } from '../core/i18n.js';
import { announce, byId, call, callAll, can, dateRange, domain, errorMessage, revealTarget, targetOf, vocabularyOptions } from './common.js';
import { actionButton } from './icons.js';
import { brandField, checkDays, chosenBrand, confirmDelete, deleteWithConfirmation, editInModal, orNull } from './records.js';

/** @typedef {import('./common.js').Campaign} Campaign */

/** A track of a campaign, as the API answers it. @typedef {import('../../../src/workspace/campaigns/repository').Track} Track */

const list = requireElement('[data-campaigns]', HTMLElement);
const state = requireElement('[data-state]', HTMLElement);

/** @type {Campaign[]} */
let campaigns = [];
/** @type {Map<number, import('./common.js').Brand>} */
let brands = new Map();
/** @type {Map<number, Track[]>} */
const tracks = new Map();

/**
 * @param {Campaign} campaign
 * @param {Track} track
 */
function trackItem(campaign, track) {
  return element('li', { className: 'track' }, [
    element('span', { className: 'track-name', text: track.name }),
    track.channel ? element('span', { className: 'badge badge-muted', text: track.channel }) : null,
    element('span', { className: 'record-meta', text: dateRange(track.startDate, track.endDate) }),
    campaign.can.tracks
      ? element('div', { className: 'record-actions' }, [
          actionButton({ text: t('common.edit'), label: t('tracks.editNamed', { name: track.name }), onClick: () => saveTrack(campaign, track) }),
          actionButton({ text: t('common.delete'), label: t('tracks.deleteNamed', { name: track.name }), danger: true, onClick: () => deleteTrack(campaign, track) }),
        ])
      : null,
    track.goal ? element('p', { className: 'record-text', text: track.goal }) : null,
  ]);
}

/** @param {Campaign} campaign */
function campaignItem(campaign) {
  const own = tracks.get(campaign.id) ?? [];
  const headingId = `campaign-${campaign.id}`;
  return element('li', { className: 'record', 'data-campaign-id': campaign.id, 'aria-labelledby': headingId }, [
    element('div', { className: 'record-head' }, [
      element('div', { className: 'record-title' }, [
        element('h2', { id: headingId, text: campaign.name, tabindex: '-1' }),
        element('p', { className: 'record-meta' }, [
          element('span', { className: `badge campaign-status-${campaign.status}`, text: t(`campaigns.status.${campaign.status}`) }),
          brands.size > 1 ? element('span', { text: brands.get(campaign.brandId)?.name ?? '' }) : null,
          element('span', { text: dateRange(campaign.startDate, campaign.endDate) }),
        ]),
      ]),
      element('div', { className: 'record-actions' }, [
        element('a', { className: 'button button-small', href: `/workspace?campaignId=${campaign.id}`, 'aria-label': t('campaigns.postsNamed', { name: campaign.name }) }, [t('campaigns.posts')]),
        campaign.can.edit ? actionButton({ text: t('common.edit'), label: t('campaigns.editNamed', { name: campaign.name }), icon: 'edit', onClick: () => saveCampaign(campaign) }) : null,
        campaign.can.delete
          ? actionButton({ text: t('common.delete'), label: t('campaigns.deleteNamed', { name: campaign.name }), icon: 'trash', danger: true, onClick: () => deleteCampaign(campaign) })
          : null,
      ]),
    ]),
    campaign.description ? element('p', { className: 'record-text', text: campaign.description }) : null,
    element('section', { className: 'record-sub', 'aria-label': t('tracks.ofNamed', { name: campaign.name }) }, [
      element('div', { className: 'ws-section-head' }, [
        element('h3', { text: `${t('tracks.title')} (${own.length})` }),
        campaign.can.tracks ? actionButton({ text: t('tracks.add'), label: t('tracks.addNamed', { name: campaign.name }), icon: 'plus', onClick: () => saveTrack(campaign, null) }) : null,
      ]),
      own.length
        ? element('ul', { className: 'track-list' }, own.map((track) => trackItem(campaign, track)))
        : element('p', { className: 'muted', text: t('tracks.empty') }),
    ]),
  ]);
}

/** @param {string} [focusSelector] */
function render(focusSelector) {
  list.replaceChildren(...campaigns.map(campaignItem));
  state.textContent = campaigns.length ? '' : can.createCampaign ? t('campaigns.empty') : t('campaigns.emptyReadOnly');
  if (focusSelector) findElement(focusSelector, HTMLElement, list)?.focus();
}

async function load() {
  try {
    const [c, b] = /** @type {[{ campaigns: Campaign[] }, { brands: import('./common.js').Brand[] }]} */ (
      await Promise.all([call('GET', '/api/campaigns'), call('GET', '/api/brands')])
    );
    campaigns = c.campaigns;
    brands = byId(b.brands);
    const lists = /** @type {{ tracks: Track[] }[]} */ (await Promise.all(campaigns.map((campaign) => call('GET', `/api/campaigns/${campaign.id}/tracks`))));
    campaigns.forEach((campaign, i) => tracks.set(campaign.id, lists[i].tracks));
    render();
  } catch (err) {
    state.textContent = errorMessage(err);
  } finally {
    list.setAttribute('aria-busy', 'false');
  }
}

// ## Campaigns

/**
 * @param {Campaign | null} campaign
 * @returns {import('../core/modal.js').ModalField[]}
 */
function campaignFields(campaign) {
  return [
    { name: 'name', label: t('common.name'), required: true, maxlength: 200, value: campaign?.name ?? '' },
    ...(campaign ? [] : brandField([...brands.values()])),
    {
      name: 'status',
      label: t('common.status'),
      type: 'select',
      options: vocabularyOptions(domain.campaignStatuses, 'campaigns.status'),
      value: campaign?.status ?? domain.campaignStatuses[0],
    },
    { name: 'startDate', label: t('common.startDate'), type: 'date', value: campaign?.startDate ?? '' },
    { name: 'endDate', label: t('common.endDate'), type: 'date', value: campaign?.endDate ?? '' },
    { name: 'description', label: t('common.description'), type: 'textarea', rows: 3, maxlength: 10000, value: campaign?.description ?? '' },
  ];
}

/** @param {Campaign | null} campaign */
async function saveCampaign(campaign) {
  const saved = await editInModal({
    title: campaign ? t('campaigns.editTitle') : t('campaigns.newTitle'),
    confirmText: campaign ? t('common.save') : t('campaigns.create'),
    fields: campaignFields(campaign),
    check: (values) => ({ name: values.name.trim() ? '' : t('campaigns.nameRequired'), ...checkDays(values) }),
    send: async (values) => {
      const body = {
        name: values.name.trim(),
        status: values.status,
        startDate: values.startDate || null,
        endDate: values.endDate || null,
        description: orNull(values.description),
      };
      if (campaign) return /** @type {{ campaign: Campaign }} */ (await call('PATCH', `/api/campaigns/${campaign.id}`, body)).campaign;
      return /** @type {{ campaign: Campaign }} */ (await call('POST', '/api/campaigns', { ...body, brandId: chosenBrand(values, [...brands.values()]) })).campaign;
    },
  });
  if (!saved) return;
  if (campaign) campaigns = campaigns.map((c) => (c.id === saved.id ? saved : c));
  else {
    campaigns = [saved, ...campaigns];
    tracks.set(saved.id, []);
  }
  render(`[data-campaign-id="${saved.id}"] h2`);
  announce(tIsolated(campaign ? 'campaigns.updated' : 'campaigns.created', { name: saved.name }));
}

/**
 * How many posts and tracks a deletion would take with it, counted from the API.
 * @param {Campaign} campaign
 */
async function contentOf(campaign) {
  const [posts, own] = await Promise.all([
    callAll(`/api/posts?campaignId=${campaign.id}`, 'posts'),
    /** @type {Promise<{ tracks: Track[] }>} */ (call('GET', `/api/campaigns/${campaign.id}/tracks`)),
  ]);
  return { posts: posts.length, tracks: own.tracks.length };
}

/** @param {Campaign} campaign */
async function deleteCampaign(campaign) {
  let counts;
  try {
    counts = await contentOf(campaign);
  } catch (err) {
    announce(errorMessage(err));
    return;
  }
  const answer = /** @type {{ deleted: { posts: number, tracks: number } } | null} */ (await confirmDelete({
    title: t('campaigns.deleteTitle'),
    message: t('campaigns.deleteMessage', {
      name: campaign.name,
      posts: tn('campaigns.postCount', counts.posts),
      tracks: tn('campaigns.trackCount', counts.tracks),
    }),
    confirmText: t('campaigns.deleteConfirm'),
    url: `/api/campaigns/${campaign.id}`,
    returnFocus: () => findElement('[data-new-campaign]', HTMLElement) ?? document.getElementById('main'),
  }));
  if (!answer) return;
  campaigns = campaigns.filter((c) => c.id !== campaign.id);
  tracks.delete(campaign.id);
  render();
  announce(tIsolated('campaigns.deleted', { name: campaign.name, posts: tn('campaigns.postCount', answer.deleted.posts), tracks: tn('campaigns.trackCount', answer.deleted.tracks) }));
}

// ## Tracks

/**
 * @param {Track | null} track
 * @returns {import('../core/modal.js').ModalField[]}
 */
function trackFields(track) {
  return [
    { name: 'name', label: t('common.name'), required: true, maxlength: 200, value: track?.name ?? '' },
    { name: 'channel', label: t('tracks.channel'), maxlength: 200, value: track?.channel ?? '', hint: t('tracks.channelHint') },
    { name: 'startDate', label: t('common.startDate'), type: 'date', value: track?.startDate ?? '' },
    { name: 'endDate', label: t('common.endDate'), type: 'date', value: track?.endDate ?? '' },
    { name: 'goal', label: t('tracks.goal'), type: 'textarea', rows: 3, maxlength: 10000, value: track?.goal ?? '' },
  ];
}

/**
 * @param {Campaign} campaign
 * @param {Track | null} track
 */
async function saveTrack(campaign, track) {
  const saved = await editInModal({
    title: track ? t('tracks.editTitle') : t('tracks.newTitle', { name: campaign.name }),
    confirmText: track ? t('common.save') : t('tracks.add'),
    fields: trackFields(track),
    check: (values) => ({ name: values.name.trim() ? '' : t('tracks.nameRequired'), ...checkDays(values) }),
    send: async (values) => {
      const body = {
        name: values.name.trim(),
        channel: orNull(values.channel),
        startDate: values.startDate || null,
        endDate: values.endDate || null,
        goal: orNull(values.goal),
      };
      return /** @type {{ track: Track }} */ (
        track ? await call('PATCH', `/api/tracks/${track.id}`, body) : await call('POST', `/api/campaigns/${campaign.id}/tracks`, body)
      ).track;
    },
  });
  if (!saved) return;
  const own = tracks.get(campaign.id) ?? [];
  tracks.set(campaign.id, track ? own.map((tr) => (tr.id === saved.id ? saved : tr)) : [...own, saved]);
  render(`[data-campaign-id="${campaign.id}"] h2`);
  announce(tIsolated(track ? 'tracks.updated' : 'tracks.created', { name: saved.name }));
}

/**
 * @param {Campaign} campaign
 * @param {Track} track
 */
async function deleteTrack(campaign, track) {
  const deleted = await deleteWithConfirmation(
    'tracks',
    { name: track.name, campaign: campaign.name },
    `/api/tracks/${track.id}`,
    () => findElement(`[data-campaign-id="${campaign.id}"] h2`, HTMLElement, list),
  );
  if (!deleted) return;
  tracks.set(campaign.id, (tracks.get(campaign.id) ?? []).filter((tr) => tr.id !== track.id));
  render();
}

findElement('[data-new-campaign]', HTMLButtonElement)?.addEventListener('click', () => void saveCampaign(null));

await load();
// `?campaign=` comes from a search result.
revealTarget(list, 'data-campaign-id', targetOf('campaign'));
