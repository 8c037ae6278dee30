// Assets: the brand's files as a grid of cards of one size (thumbnails for images, a file-type
// icon otherwise), found by name, type, campaign and uploader (kept in the address, so a reload
// or a shared link shows the same files); a preview of each in the modal, with the previous and
// next file of the list; several deleted at once; and uploads of several files at once, by the
// picker or by dropping them on the page, each with its own progress bar and, when refused, a
// message that says why. Colleagues' uploads, changes and deletions arrive as live events and
// are applied to the grid, marked for a moment.
import { ApiError, newestOnly } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { formatDay, formatNumber, formatPercent } from '../core/format.js';
import { t, tIsolated, tn } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { announce, avatar, byId, call, callAll, context, errorMessage, formatMb, me, options, revealTarget, targetOf } from './common.js';
import { actionButton, icon } from './icons.js';
import { fileIcon, openLightbox } from './lightbox.js';
import { deleteWithConfirmation } from './records.js';
import { uploadFile } from './upload.js';
import { byOther, highlights, keepingFocus, subscribe, tell } from './live.js';

/** @typedef {import('./upload.js').Asset} Asset */

const PARALLEL = 3;
/** How long typing may pause before the search runs. */
const SEARCH_DELAY_MS = 250;

const dropzone = requireElement('[data-dropzone]', HTMLElement);
const picker = requireElement('#upload-files', HTMLInputElement);
const brandSelect = requireElement('#upload-brand', HTMLSelectElement);
const campaignSelect = requireElement('#upload-campaign', HTMLSelectElement);
const filterForm = requireElement('[data-asset-filters]', HTMLFormElement);
const searchInput = requireElement('#assets-q', HTMLInputElement);
const typeFilter = requireElement('#assets-type', HTMLSelectElement);
const campaignFilter = requireElement('#assets-campaign', HTMLSelectElement);
const uploaderFilter = requireElement('#assets-uploader', HTMLSelectElement);
const clearFiltersButton = requireElement('[data-clear-filters]', HTMLButtonElement);
const countLine = requireElement('[data-count]', HTMLElement);
const selectionBar = requireElement('[data-selection-bar]', HTMLElement);
const selectionCount = requireElement('[data-selection-count]', HTMLElement);
const selectAllButton = requireElement('[data-select-all]', HTMLButtonElement);
const clearSelectionButton = requireElement('[data-clear-selection]', HTMLButtonElement);
const deleteSelectedButton = requireElement('[data-delete-selected]', HTMLButtonElement);
const uploadList = requireElement('[data-uploads]', HTMLElement);
const grid = requireElement('[data-assets]', HTMLElement);
const state = requireElement('[data-state]', HTMLElement);
const maxBytes = context.uploads?.maxBytes ?? Infinity;
const maxMb = Math.round(maxBytes / 1048576);

/** The filters, by their names in the address and in GET /api/assets. */
const FILTERS = /** @type {const} */ ([
  ['q', searchInput],
  ['type', typeFilter],
  ['campaignId', campaignFilter],
  ['uploadedBy', uploaderFilter],
]);

/** The files the filters show, newest first: the grid, and the preview's previous and next. */
/** @type {Asset[]} */
let assets = [];
/** @type {import('./common.js').Campaign[]} */
let campaigns = [];
/** @type {Map<number, import('./common.js').Member>} */
let people = new Map();
/** The files of the chosen filters; filters chosen while a list is on its way win. */
const assetLoads = newestOnly();
/** The ids of the ticked files. */
const selected = /** @type {Set<number>} */ (new Set());
/** The file ticked or unticked last: where a Shift-click range starts. */
let anchorId = /** @type {number | null} */ (null);
/** The files colleagues changed a moment ago. */
const changed = highlights(grid, 'data-asset-id');

/** @param {Asset} asset */
const canDelete = (asset) => asset.can.delete;

/** @param {Asset} asset */
function uploaderName(asset) {
  const uploader = asset.uploadedBy === null ? undefined : people.get(asset.uploadedBy);
  return uploader ? uploader.name : null;
}

/**
 * The tick box of a card: Shift-click ticks (or unticks) every file from the one clicked last.
 * @param {Asset} asset
 */
function tickBox(asset) {
  const box = element('input', { type: 'checkbox', className: 'asset-check-input' });
  box.checked = selected.has(asset.id);
  // Shift with the mouse button down would select the page's text between the two clicks.
  box.addEventListener('mousedown', (event) => {
    if (event.shiftKey) event.preventDefault();
  });
  box.addEventListener('click', (event) => {
    const ticked = box.checked;
    const list = assets.filter(canDelete);
    const here = list.findIndex((a) => a.id === asset.id);
    const from = anchorId === null ? -1 : list.findIndex((a) => a.id === anchorId);
    const range = event.shiftKey && from !== -1 ? list.slice(Math.min(from, here), Math.max(from, here) + 1) : [asset];
    for (const a of range) {
      if (ticked) selected.add(a.id);
      else selected.delete(a.id);
    }
    anchorId = asset.id;
    syncSelection();
  });
  return element('label', { className: 'asset-check' }, [box, element('span', { className: 'sr-only', text: t('assets.select', { name: asset.name }) })]);
}

/** @param {Asset} asset */
function assetCard(asset) {
  const uploader = asset.uploadedBy === null ? undefined : people.get(asset.uploadedBy);
  const download = element(
    'a',
    { className: 'button button-small', href: asset.downloadUrl, download: asset.name, 'aria-label': t('assets.downloadNamed', { name: asset.name }) },
    [icon('download'), t('assets.download')],
  );
  const remove = canDelete(asset)
    ? actionButton({ text: t('common.delete'), label: t('assets.deleteNamed', { name: asset.name }), icon: 'trash', danger: true, onClick: () => deleteAsset(asset) })
    : null;
  const open = element('button', { type: 'button', className: 'asset-open', 'aria-label': t('assets.preview', { name: asset.name }) }, [
    asset.thumbnailUrl ? element('img', { src: asset.thumbnailUrl, alt: '', loading: 'lazy' }) : fileIcon(asset),
  ]);
  open.addEventListener('click', () => void preview(asset));
  return element('li', { className: 'asset', 'data-asset-id': asset.id }, [
    element('div', { className: 'asset-thumb' }, [open, canDelete(asset) ? tickBox(asset) : null]),
    element('div', { className: 'asset-body' }, [
      element('p', { className: 'asset-name', title: asset.name, text: asset.name }),
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
  countLine.textContent = assets.length ? tn('assets.count', assets.length) : '';
  state.textContent = assets.length ? '' : filtering() ? t('assets.emptyFiltered') : t('assets.empty');
  syncSelection();
  changed.show();
}

// ## Filters, kept in the address

/** The filters as chosen: name to value, empty ones left out. */
function chosenFilters() {
  /** @type {Record<string, string>} */
  const chosen = {};
  for (const [name, control] of FILTERS) {
    const value = control.value.trim();
    if (value) chosen[name] = value;
  }
  return chosen;
}

const filtering = () => Object.keys(chosenFilters()).length > 0;

/** Sets the filters from the address; a value no control offers (a campaign since deleted) is dropped. */
function filtersFromAddress() {
  const params = new URL(window.location.href).searchParams;
  for (const [name, control] of FILTERS) {
    control.value = params.get(name) ?? '';
    if (control instanceof HTMLSelectElement && control.selectedIndex < 0) control.value = '';
  }
  clearFiltersButton.hidden = !filtering();
}

function rememberFilters() {
  const url = new URL(window.location.href);
  const chosen = chosenFilters();
  for (const [name] of FILTERS) {
    if (chosen[name]) url.searchParams.set(name, chosen[name]);
    else url.searchParams.delete(name);
  }
  // The file a search opened may not be among the new results: a reload should not look for it.
  url.searchParams.delete('asset');
  window.history.replaceState(null, '', url);
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let searchTimer;

function filtersChanged() {
  clearTimeout(searchTimer);
  rememberFilters();
  clearFiltersButton.hidden = !filtering();
  void loadAssets();
}

async function loadAssets() {
  grid.setAttribute('aria-busy', 'true');
  const query = new URLSearchParams(chosenFilters()).toString();
  try {
    assets = /** @type {Asset[]} */ (await assetLoads.run((signal) => callAll(`/api/assets${query ? `?${query}` : ''}`, 'assets', undefined, { signal })));
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
    campaignFilter.append(...options(campaigns).map((o) => element('option', { value: o.value, text: o.label })));
    uploaderFilter.append(...options(m.members).map((o) => element('option', { value: o.value, text: o.label })));
    filtersFromAddress();
  } catch (err) {
    state.textContent = errorMessage(err);
    grid.setAttribute('aria-busy', 'false');
    return;
  }
  await loadAssets();
  // `?asset=` comes from a search result: that file's card.
  revealTarget(grid, 'data-asset-id', targetOf('asset'));
}

searchInput.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(filtersChanged, SEARCH_DELAY_MS);
});
for (const select of [typeFilter, campaignFilter, uploaderFilter]) select.addEventListener('change', filtersChanged);
filterForm.addEventListener('submit', (event) => {
  event.preventDefault();
  filtersChanged();
});
clearFiltersButton.addEventListener('click', () => {
  for (const [, control] of FILTERS) control.value = '';
  filtersChanged();
  searchInput.focus();
});

// ## Selecting several files

/** Ticks and the selection bar as `selected` says; files no longer listed leave it. */
function syncSelection() {
  const listed = new Set(assets.map((a) => a.id));
  for (const id of selected) if (!listed.has(id)) selected.delete(id);
  for (const card of grid.querySelectorAll('[data-asset-id]')) {
    const ticked = selected.has(Number(card.getAttribute('data-asset-id')));
    card.classList.toggle('is-selected', ticked);
    const box = card.querySelector('.asset-check-input');
    if (box instanceof HTMLInputElement) box.checked = ticked;
  }
  const count = selected.size;
  selectionBar.hidden = !assets.some(canDelete);
  selectionBar.classList.toggle('is-active', count > 0);
  selectionCount.textContent = count ? tn('assets.selected', count) : t('assets.selectHint');
  clearSelectionButton.hidden = count === 0;
  deleteSelectedButton.hidden = count === 0;
}

selectAllButton.addEventListener('click', () => {
  for (const asset of assets.filter(canDelete)) selected.add(asset.id);
  syncSelection();
});
clearSelectionButton.addEventListener('click', () => {
  selected.clear();
  anchorId = null;
  syncSelection();
  selectAllButton.focus();
});
deleteSelectedButton.addEventListener('click', () => void deleteSelected());

/** One red confirmation for every ticked file, then one request that deletes them all or none. */
async function deleteSelected() {
  const ids = assets.filter((a) => selected.has(a.id)).map((a) => a.id);
  const count = ids.length;
  if (count === 0) return;
  // Set by onConfirm: the cast keeps TypeScript from taking it for always false.
  let deleted = /** @type {boolean} */ (false);
  const { confirmed } = await openModal({
    title: tn('assets.bulkDeleteTitle', count),
    message: tn('assets.bulkDeleteMessage', count),
    danger: true,
    isConfirm: true,
    confirmText: tn('assets.bulkDeleteConfirm', count),
    cancelText: t('common.cancel'),
    returnFocus: () => selectAllButton,
    onConfirm: async ({ setError }) => {
      try {
        await call('DELETE', '/api/assets', { ids });
        deleted = true;
        return true;
      } catch (err) {
        setError(errorMessage(err));
        // Someone else deleted one of them meanwhile: the list, and so the selection, catch up.
        if (err instanceof ApiError && err.status === 404) void loadAssets();
        return false;
      }
    },
  });
  if (!confirmed || !deleted) return;
  announce(tn('assets.bulkDeleted', count));
  const gone = new Set(ids);
  for (const id of ids) selected.delete(id);
  anchorId = null;
  await afterChange(() => {
    assets = assets.filter((a) => !gone.has(a.id));
  });
  // The Delete button went with the selection.
  if (!selectionBar.hidden) selectAllButton.focus();
}

// ## The preview

/**
 * Opens `first` in the lightbox, with the previous and next file of the list the filters
 * show. Focus comes back to the card of the file shown last.
 * @param {Asset} first
 */
async function preview(first) {
  const list = [...assets];
  const last = await openLightbox(list, list.findIndex((a) => a.id === first.id), uploaderName);
  const card = grid.querySelector(`[data-asset-id="${list[last].id}"] .asset-open`);
  if (card instanceof HTMLElement) card.focus();
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
        if (!filtering()) {
          void afterChange(() => {
            // Its live event may have brought it already.
            assets = [asset, ...assets.filter((a) => a.id !== asset.id)];
          });
        } else {
          // Whether the new file matches the filters is the server's to say.
          void loadAssets();
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
  selected.delete(asset.id);
  await afterChange(() => {
    assets = assets.filter((a) => a.id !== asset.id);
  });
}

// ## Colleagues' changes

subscribe('asset', (event) => {
  const before = assets.find((a) => a.id === event.id);
  const latest = /** @type {Asset | undefined} */ (event.asset);
  const other = byOther(event);
  if (latest && other) changed.mark(latest.id);
  if (latest && other) tell(tIsolated(before ? 'live.assetUpdated' : 'live.assetCreated', { name: latest.name }));
  if (!latest && before && other) tell(tIsolated('live.assetDeleted', { name: before.name }));
  if (latest && !before && filtering()) {
    // Whether a new file matches the filters is the server's to say.
    void loadAssets();
    return;
  }
  if (!latest && !before) return;
  if (!latest) selected.delete(event.id);
  keepingFocus(
    grid,
    'data-asset-id',
    () =>
      void afterChange(() => {
        assets = latest ? (before ? assets.map((a) => (a.id === latest.id ? latest : a)) : [latest, ...assets]) : assets.filter((a) => a.id !== event.id);
      }),
    searchInput,
  );
});
subscribe('reset', () => void loadAssets());

await start();
