// The post panel: its details, media, the review actions the server allows, comments and
// history, following a colleague's changes while it is open.
import { element, findElement } from '../core/dom.js';
import { formatMoment } from '../core/format.js';
import { t, tIsolated } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { savePost } from './board-form.js';
import { approve, sendBack } from './board-moves.js';
import { board, REVIEW, statusName, view } from './board-state.js';
import { call, linkedRecord } from './common.js';
import { commentThread, postHistory } from './conversation.js';
import { fileIcon, openLightbox } from './lightbox.js';
import { byOther, flash, subscribeWhileShown } from './live.js';

/** @typedef {import('./board-state.js').Post} Post */
/** @typedef {import('./board-state.js').PostStatus} PostStatus */

// ## The post panel

/** @param {Post} post */
export function postDetails(post) {
  const owner = post.ownerId === null ? undefined : view.people.get(post.ownerId);
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

export let mediaSerial = 0;

/**
 * The post's media, each opening in the same lightbox as the asset library: what a reviewer
 * sees is what they approve.
 * @param {Post} post
 */
export function postMedia(post) {
  if (post.attachments.length === 0) return null;
  const list = element('ul', { className: 'post-media', 'aria-busy': 'true' });
  const uploaderName = (/** @type {import('./upload.js').Asset} */ asset) => (asset.uploadedBy === null ? null : (view.people.get(asset.uploadedBy)?.name ?? null));
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
export const ATTRIBUTE_OF = { edit: 'edit', approve: 'approve', sendBack: 'send-back' };

/**
 * What can be done to the post, as the server allows: edit, approve or send back (while it
 * waits for review).
 * @param {Post} post
 * @param {(choice: PanelChoice) => void} choose
 */
export function panelActions(post, choose) {
  const { approve: approvable, sendBack: returnable } = post.can;
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
    post.status === REVIEW && !approvable ? element('p', { className: 'muted', text: t('review.waiting') }) : null,
  ]);
}

/**
 * The post with what can be done to it, its media, comments and history. Resolves once the
 * panel closes. A colleague's change redraws it as it is now (the comment being written
 * stays); a deletion leaves it with nothing to do but close.
 * @param {Post} post
 */
export async function openPost(post) {
  let current = post;
  // Set by `choose` while the panel is open: the cast keeps TypeScript from taking it for always null.
  let next = /** @type {PanelChoice | null} */ (null);
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
  else if (next === 'sendBack') await sendBack(current, /** @type {PostStatus} */ (current.can.reasonFor.at(-1)));
}

/**
 * The post a link names (`?post=ID`, from a search result or a notification): its card shown
 * and focused, and its panel opened.
 */
export async function openLinkedPost() {
  const post = await linkedRecord({
    param: 'post',
    shown: view.posts,
    root: board,
    attribute: 'data-post-id',
    fetch: async (id) => /** @type {{ post: Post }} */ (await call('GET', `/api/posts/${id}`)).post,
    gone: t('postPanel.notFound'),
  });
  if (post) await openPost(post);
}
