// The post form, for a new post and an edit, and deleting a post.
import { element, findElement } from '../core/dom.js';
import { t, tIsolated } from '../core/i18n.js';
import { fieldRefusal } from './board-moves.js';
import { afterChange, board, campaignLabel, currentFilters, replacePost, SCHEDULED, sendsBack, view } from './board-state.js';
import { announce, call, can, domain, fromLocalInput, options, toLocalInput, vocabularyOptions } from './common.js';
import { formGuard } from './live.js';
import { mediaPicker } from './media-picker.js';
import { brandField, chosenBrand, deleteWithConfirmation, editInModal } from './records.js';

/** @typedef {import('./board-state.js').Post} Post */
/** @typedef {import('./board-state.js').PostStatus} PostStatus */

// ## Creating, editing, deleting

/** @param {PostStatus} a @param {PostStatus} b */
export const inBoardOrder = (a, b) => domain.postStatuses.indexOf(a) - domain.postStatuses.indexOf(b);

/** The campaigns a post of `brandId` may be in (a campaign never moves a post to its brand). @param {number} brandId */
export const campaignsOf = (brandId) => options(view.campaigns.filter((c) => c.brandId === brandId), campaignLabel, t('post.noCampaign'));

/**
 * The brand a new post starts in: that of the campaign or brand the board is filtered by, else the user's first.
 * @returns {number | undefined}
 */
export function startingBrand() {
  const { campaignId, brandId } = currentFilters();
  const campaign = view.campaigns.find((c) => String(c.id) === campaignId);
  return campaign ? campaign.brandId : brandId ? Number(brandId) : undefined;
}

/**
 * @param {Post | null} post
 * @returns {import('../core/modal.js').ModalField[]}
 */
export function postFields(post) {
  const brandId = post?.brandId ?? startingBrand() ?? chosenBrand({}, view.brands);
  // An edit of what a reviewer approved goes back to review: the form says so first.
  const reopens = post?.can.editReopens;
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
      options: vocabularyOptions(post ? [post.status, ...post.can.moves].sort(inBoardOrder) : can.newPostStatuses, 'status'),
      value: post?.status ?? domain.postStatuses[0],
      hint: reopens ? t('review.editReopens') : can.approvePosts ? undefined : t('review.needsApproval'),
    },
    // Asked for here, in place, when the status chosen sends the post back to its author.
    { name: 'comment', label: t('review.reason'), type: 'textarea', rows: 3, maxlength: domain.commentMaxLength, hint: t('review.reasonHint') },
    ...brandField(view.brands, { value: brandId, hint: t('post.brandHint'), label: t('post.brand') }),
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
export function followingFields(post) {
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
export function brandOfForm(form) {
  const values = form ? Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, typeof v === 'string' ? v : ''])) : {};
  const campaign = values.campaignId ? view.campaigns.find((c) => c.id === Number(values.campaignId)) : undefined;
  return campaign ? campaign.brandId : chosenBrand(values, view.brands);
}

/**
 * @param {Post | null} post
 * @param {Record<string, string>} values
 */
export function postBody(post, values) {
  const status = /** @type {PostStatus} */ (values.status);
  // The field shows minutes: an untouched moment is sent as it is stored, not as a change.
  const untouched = post?.scheduledAt && values.scheduledAt === toLocalInput(post.scheduledAt);
  /** @type {Record<string, unknown>} */
  const body = {
    title: values.title.trim(),
    caption: values.caption,
    platform: values.platform || null,
    status,
    brandId: chosenBrand(values, view.brands),
    campaignId: values.campaignId ? Number(values.campaignId) : null,
    scheduledAt: untouched ? post.scheduledAt : fromLocalInput(values.scheduledAt),
    publicationUrl: values.publicationUrl.trim(),
  };
  if (post && sendsBack(post, status)) body.comment = values.comment.trim();
  return body;
}

/**
 * What the form can tell before asking the server.
 * @param {Post | null} post
 * @param {Record<string, string>} values
 */
export function checkPost(post, values) {
  const status = /** @type {PostStatus} */ (values.status);
  return {
    title: values.title.trim() ? '' : t('post.titleRequired'),
    comment: post && sendsBack(post, status) && !values.comment.trim() ? t('review.reasonRequired') : '',
    scheduledAt: status === SCHEDULED && !values.scheduledAt ? t('errors.SCHEDULE_REQUIRED') : '',
  };
}

/**
 * @param {Post | null} post
 * @returns {Promise<void>}
 */
export async function savePost(post) {
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
    else view.posts = [saved, ...view.posts.filter((p) => p.id !== saved.id)];
  }, saved.id);
}


/** @param {Post} post */
export async function deletePost(post) {
  const deleted = await deleteWithConfirmation(
    'post',
    { title: post.title },
    `/api/posts/${post.id}`,
    () => findElement('.post-open', HTMLElement, board) ?? findElement('[data-new-post]', HTMLElement),
  );
  if (!deleted) return;
  await afterChange(() => {
    view.posts = view.posts.filter((p) => p.id !== post.id);
  });
}
