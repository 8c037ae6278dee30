// Assets: the brand's files as a grid (thumbnails for images, a file-type icon otherwise),
// and uploads of several files at once, by the picker or by dropping them on the page, each
// with its own progress bar and, when refused, a message that says why.
import { ApiError, newestOnly } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { formatDay, formatNumber, formatPercent } from '../core/format.js';
import { t, tn } from '../core/i18n.js';
import { announce, avatar, byId, call, callAll, context, errorMessage, formatMb, isManager, me, options, revealTarget, targetOf } from './common.js';
import { actionButton, icon } from './icons.js';
import { deleteWithConfirmation } from './records.js';
import { uploadFile } from './upload.js';

/** @typedef {import('./upload.js').Asset} Asset */

const PARALLEL = 3;

const dropzone = requireElement('[data-dropzone]', HTMLElement);
const picker = requireElement('#upload-files', HTMLInputElement);
const brandSelect = requireElement('#upload-brand', HTMLSelectElement);
const campaignSelect = requireElement('#upload-campaign', HTMLSelectElement);
const filter = requireElement('#assets-campaign', HTMLSelectElement);
const uploadList = requireElement('[data-uploads]', HTMLElement);
const grid = requireElement('[data-assets]', HTMLElement);
const state = requireElement('[data-state]', HTMLElement);
const maxBytes = context.uploads?.maxBytes ?? Infinity;
const maxMb = Math.round(maxBytes / 1048576);

/** @type {Asset[]} */
let assets = [];
/** @type {import('./common.js').Campaign[]} */
let campaigns = [];
/** @type {Map<number, import('./common.js').Member>} */
let people = new Map();
/** The files of the chosen campaign; a campaign chosen while a list is on its way wins. */
const assetLoads = newestOnly();

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

/** @param {Asset} asset */
function thumbnail(asset) {
  if (asset.thumbnailUrl) return element('div', { className: 'asset-thumb' }, [element('img', { src: asset.thumbnailUrl, alt: '', loading: 'lazy' })]);
  const kind = fileKind(asset.mimeType, asset.name);
  return element('div', { className: 'asset-thumb' }, [
    element('span', { className: `file-type file-type-${kind.tone}`, role: 'img', 'aria-label': t('assets.fileType', { type: kind.label }) }, [
      icon('file'),
      element('span', { text: kind.label }),
    ]),
  ]);
}

/** @param {Asset} asset */
function assetCard(asset) {
  const uploader = asset.uploadedBy === null ? undefined : people.get(asset.uploadedBy);
  const canDelete = isManager() || asset.uploadedBy === me.id;
  const download = element(
    'a',
    { className: 'button button-small', href: asset.downloadUrl, download: asset.name, 'aria-label': t('assets.downloadNamed', { name: asset.name }) },
    [icon('download'), t('assets.download')],
  );
  const remove = canDelete
    ? actionButton({ text: t('common.delete'), label: t('assets.deleteNamed', { name: asset.name }), icon: 'trash', danger: true, onClick: () => deleteAsset(asset) })
    : null;
  return element('li', { className: 'asset', 'data-asset-id': asset.id }, [
    thumbnail(asset),
    element('div', { className: 'asset-body' }, [
      element('p', { className: 'asset-name', text: asset.name }),
      element('p', { className: 'asset-meta', text: `${formatMb(asset.sizeMb)} · ${formatDay(asset.createdAt.slice(0, 10))}` }),
      element('p', { className: 'asset-meta person' }, [
        avatar(uploader ?? null, 'small'),
        element('span', { text: uploader ? t('assets.uploadedBy', { name: uploader.name }) : t('assets.unknownUploader') }),
      ]),
      element('div', { className: 'asset-actions' }, [download, remove]),
    ]),
  ]);
}

function render() {
  grid.replaceChildren(...assets.map(assetCard));
  state.textContent = assets.length ? '' : filter.value ? t('assets.emptyFiltered') : t('assets.empty');
}

async function loadAssets() {
  grid.setAttribute('aria-busy', 'true');
  const url = filter.value ? `/api/assets?campaignId=${filter.value}` : '/api/assets';
  try {
    assets = /** @type {Asset[]} */ (await assetLoads.run((signal) => callAll(url, 'assets', undefined, { signal })));
    render();
  } catch (err) {
    state.textContent = errorMessage(err);
  }
  grid.setAttribute('aria-busy', 'false');
}

/**
 * Shows a change this page made: in the grid as it is, or, while the files are being read
 * (their answer may come from before the change), by reading them again.
 * @param {() => void} change
 */
async function afterChange(change) {
  if (assetLoads.pending) return loadAssets();
  change();
  render();
}

function fillCampaigns() {
  const brandId = Number(brandSelect.value);
  const inBrand = campaigns.filter((c) => c.brandId === brandId);
  campaignSelect.replaceChildren(campaignSelect.options[0], ...options(inBrand).map((o) => element('option', { value: o.value, text: o.label })));
}

async function start() {
  try {
    const [b, c, m] = /** @type {[{ brands: import('./common.js').Brand[] }, { campaigns: import('./common.js').Campaign[] }, { members: import('./common.js').Member[] }]} */ (
      await Promise.all([call('GET', '/api/brands'), call('GET', '/api/campaigns'), call('GET', '/api/members')])
    );
    campaigns = c.campaigns;
    people = byId(m.members);
    brandSelect.replaceChildren(...options(b.brands).map((o) => element('option', { value: o.value, text: o.label, selected: Number(o.value) === me.brandIds[0] })));
    requireElement('[data-upload-brand-field]', HTMLElement).hidden = b.brands.length < 2;
    fillCampaigns();
    filter.append(...options(campaigns).map((o) => element('option', { value: o.value, text: o.label })));
  } catch (err) {
    state.textContent = errorMessage(err);
    grid.setAttribute('aria-busy', 'false');
    return;
  }
  await loadAssets();
  // `?asset=` comes from a search result: that file's card.
  revealTarget(grid, 'data-asset-id', targetOf('asset'));
}

// ## Uploading

/**
 * Why `file` was refused, in the page's language.
 * @param {unknown} err
 * @param {File} file
 */
function refusal(err, file) {
  const status = err instanceof ApiError ? err.status : 0;
  if (status === 413) return t('upload.tooLarge', { name: file.name, max: maxMb });
  if (status === 415) return t('upload.badType', { name: file.name });
  return t('upload.refused', { name: file.name, reason: errorMessage(err) });
}

/** @param {File} file */
function uploadRow(file) {
  const bar = element('progress', { max: '100', value: '0', 'aria-label': t('upload.progressOf', { name: file.name }) });
  const status = element('span', { className: 'upload-status', text: t('upload.waiting') });
  const row = element('li', { className: 'upload-item' }, [element('span', { className: 'upload-name', text: file.name }), status, bar]);
  return {
    row,
    /** @param {number} fraction */
    progress(fraction) {
      bar.value = Math.round(fraction * 100);
      status.textContent = formatPercent(fraction);
    },
    done() {
      row.classList.add('is-done');
      bar.value = 100;
      status.textContent = t('upload.done');
    },
    /** @param {string} message */
    failed(message) {
      row.classList.add('is-failed');
      bar.remove();
      status.textContent = message;
      status.setAttribute('role', 'alert');
    },
  };
}

/** @param {File[]} files */
async function uploadAll(files) {
  if (!files.length) return;
  const target = { brandId: brandSelect.value, campaignId: campaignSelect.value };
  const rows = files.map((file) => ({ file, ui: uploadRow(file) }));
  uploadList.hidden = false;
  uploadList.prepend(...rows.map((r) => r.ui.row));
  announce(tn('upload.started', files.length));
  let uploaded = 0;
  const queue = [...rows];
  async function worker() {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { file, ui } = next;
      if (file.size > maxBytes) {
        ui.failed(t('upload.tooLarge', { name: file.name, max: maxMb }));
        continue;
      }
      try {
        const asset = await uploadFile(file, target, (fraction) => ui.progress(fraction));
        ui.done();
        uploaded += 1;
        // Not awaited: a reading of the list that a newer one replaces never ends, and the
        // next file must not wait for it.
        if (!filter.value || String(asset.campaignId) === filter.value) {
          void afterChange(() => {
            assets = [asset, ...assets];
          });
        }
      } catch (err) {
        ui.failed(refusal(err, file));
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, rows.length) }, worker));
  announce(t('upload.finished', { done: formatNumber(uploaded), total: formatNumber(files.length) }));
}

picker.addEventListener('change', () => {
  const files = [...(picker.files ?? [])];
  picker.value = '';
  void uploadAll(files);
});

// Dropping anywhere on the page uploads; the drop zone lights up while files are over it.
let depth = 0;
const carriesFiles = (/** @type {DragEvent} */ event) => event.dataTransfer?.types.includes('Files') ?? false;
document.addEventListener('dragenter', (event) => {
  if (!carriesFiles(event)) return;
  depth += 1;
  dropzone.classList.add('is-over');
});
document.addEventListener('dragleave', (event) => {
  if (!carriesFiles(event)) return;
  depth = Math.max(0, depth - 1);
  if (depth === 0) dropzone.classList.remove('is-over');
});
document.addEventListener('dragover', (event) => {
  if (carriesFiles(event)) event.preventDefault();
});
document.addEventListener('drop', (event) => {
  if (!carriesFiles(event)) return;
  event.preventDefault();
  depth = 0;
  dropzone.classList.remove('is-over');
  void uploadAll([...(event.dataTransfer?.files ?? [])]);
});

brandSelect.addEventListener('change', fillCampaigns);
filter.addEventListener('change', () => void loadAssets());

// ## Deleting

/** @param {Asset} asset */
async function deleteAsset(asset) {
  const deleted = await deleteWithConfirmation(
    'assets',
    { name: asset.name },
    `/api/assets/${asset.id}`,
    () => picker,
  );
  if (!deleted) return;
  await afterChange(() => {
    assets = assets.filter((a) => a.id !== asset.id);
  });
}

await start();
