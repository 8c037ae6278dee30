// The preview of stored files, one at a time in the modal with the previous and next of a
// list: the asset library's, and the media of a post in its panel, so that a reviewer sees
// what they approve. Also the icon that stands for a file without a picture of its own.
import { element } from '../core/dom.js';
import { formatDay, formatNumber } from '../core/format.js';
import { t } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { formatMb } from './common.js';
import { icon } from './icons.js';

/** @typedef {import('./upload.js').Asset} Asset */

/**
 * A short label and a tone for a file that has no picture of its own.
 * @param {string} mimeType
 * @param {string} name
 */
function fileKind(mimeType, name) {
  const ext = (name.split('.').pop() ?? '').toLowerCase();
  if (mimeType === 'application/pdf') return { label: 'PDF', tone: 'pdf' };
  if (mimeType.startsWith('video/')) return { label: ext.toUpperCase() || 'VIDEO', tone: 'video' };
  if (/word|opendocument\.text/.test(mimeType) || ['doc', 'docx', 'odt'].includes(ext)) return { label: ext.toUpperCase() || 'DOC', tone: 'doc' };
  if (/sheet|excel/.test(mimeType) || ['xls', 'xlsx', 'ods'].includes(ext)) return { label: ext.toUpperCase() || 'XLS', tone: 'sheet' };
  if (/presentation|powerpoint/.test(mimeType) || ['ppt', 'pptx', 'odp'].includes(ext)) return { label: ext.toUpperCase() || 'PPT', tone: 'slides' };
  if (mimeType.startsWith('image/')) return { label: ext.toUpperCase() || 'IMG', tone: 'image' };
  return { label: ext.toUpperCase() || 'FILE', tone: 'file' };
}

/** @param {Pick<Asset, 'mimeType' | 'name'>} asset */
export function fileIcon(asset) {
  const kind = fileKind(asset.mimeType, asset.name);
  return element('span', { className: `file-type file-type-${kind.tone}`, role: 'img', 'aria-label': t('assets.fileType', { type: kind.label }) }, [
    icon('file'),
    element('span', { text: kind.label }),
  ]);
}

/**
 * What the preview shows of a file: the full picture, the PDF in the browser's own viewer
 * (a frame of its address, which the CSP allows from this origin only), else its type icon.
 * @param {Asset} asset
 */
function previewOf(asset) {
  if (asset.mimeType.startsWith('image/')) return element('img', { className: 'lightbox-image', src: asset.url, alt: asset.name });
  if (asset.mimeType === 'application/pdf') return element('iframe', { className: 'lightbox-frame', src: asset.url, title: t('assets.previewOf', { name: asset.name }) });
  return element('div', { className: 'lightbox-file' }, [fileIcon(asset), element('p', { text: t('assets.noPreview') })]);
}

/**
 * Opens `list[start]` in the modal; Previous and Next (and the arrow keys, which follow the
 * reading direction) walk the list. Resolves, once it closes, with the index shown last.
 * @param {Asset[]} list
 * @param {number} start
 * @param {(asset: Asset) => string | null} uploaderName
 * @returns {Promise<number>}
 */
export async function openLightbox(list, start, uploaderName) {
  let index = Math.min(Math.max(0, start), list.length - 1);
  const stage = element('div', { className: 'lightbox-stage' });
  const position = element('p', { className: 'lightbox-position', 'aria-live': 'polite' });
  const previous = element('button', { type: 'button', className: 'button button-small', 'data-previous': true }, [icon('prev', { flip: true }), t('assets.previous')]);
  const next = element('button', { type: 'button', className: 'button button-small', 'data-next': true }, [t('assets.next'), icon('next', { flip: true })]);
  const details = element('dl', { className: 'lightbox-details' });
  const download = element('a', { className: 'button button-primary lightbox-download' });
  const content = element('div', { className: 'lightbox' }, [
    stage,
    element('div', { className: 'lightbox-nav' }, [previous, position, next]),
    element('div', { className: 'lightbox-info' }, [details, download]),
  ]);

  /** @type {HTMLElement | null} */
  let title = null;
  function show() {
    const asset = list[index];
    if (title) title.textContent = asset.name;
    stage.replaceChildren(previewOf(asset));
    position.textContent = t('assets.position', { index: formatNumber(index + 1), total: formatNumber(list.length) });
    const focused = document.activeElement;
    previous.disabled = index === 0;
    next.disabled = index === list.length - 1;
    // A button that has just been disabled would drop the focus out of the dialog.
    if (focused === previous && previous.disabled) next.focus();
    if (focused === next && next.disabled) previous.focus();
    const uploader = uploaderName(asset);
    details.replaceChildren(
      ...[
        [t('assets.size'), formatMb(asset.sizeMb)],
        [t('assets.uploader'), uploader ?? t('assets.unknownUploader')],
        [t('assets.uploadedOn'), formatDay(asset.createdAt.slice(0, 10))],
      ].flatMap(([term, value]) => [element('dt', { text: term }), element('dd', { text: value })]),
    );
    download.replaceChildren(icon('download'), t('assets.download'));
    download.setAttribute('href', asset.downloadUrl);
    download.setAttribute('download', asset.name);
    download.setAttribute('aria-label', t('assets.downloadNamed', { name: asset.name }));
  }
  /** @param {number} step */
  function move(step) {
    const to = index + step;
    if (to < 0 || to >= list.length) return;
    index = to;
    show();
  }
  previous.addEventListener('click', () => move(-1));
  next.addEventListener('click', () => move(1));
  /** @param {KeyboardEvent} event */
  function onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const forward = (event.key === 'ArrowRight') !== (document.documentElement.dir === 'rtl');
    move(forward ? 1 : -1);
  }

  show();
  const closed = openModal({ title: list[index].name, content, isConfirm: false, confirmText: t('common.close'), size: 'wide' });
  title = content.closest('dialog')?.querySelector('.modal-title') ?? null;
  document.addEventListener('keydown', onKey);
  await closed;
  document.removeEventListener('keydown', onKey);
  return index;
}
