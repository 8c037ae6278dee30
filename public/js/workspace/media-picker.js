// The media of a post, inside its form: the files attached in their order (the first image
// is the card's thumbnail), taken from the brand's library or uploaded from here, moved
// earlier or later, removed. Nothing changes on the server until the form is saved.
import { element } from '../core/dom.js';
import { t, tIsolated } from '../core/i18n.js';
import { announce, callAll, context, errorMessage, formatMb } from './common.js';
import { uploadFile } from './upload.js';

/** @typedef {import('./upload.js').Asset} Asset */

let counter = 0;

/**
 * @param {Asset} asset
 * @param {'small' | 'large'} size
 */
function preview(asset, size) {
  if (asset.thumbnailUrl) return element('img', { className: `media-thumb media-thumb-${size}`, src: asset.thumbnailUrl, alt: '', loading: 'lazy' });
  const kind = asset.mimeType.split('/')[0] === 'video' ? 'video' : 'document';
  return element('span', { className: `media-thumb media-thumb-${size} media-file`, 'aria-hidden': 'true', text: t(`post.media.kind.${kind}`) });
}

/**
 * @param {object} opts
 * @param {number[]} opts.initial the asset ids attached now, in order
 * @param {(form: HTMLFormElement | null) => number | null} opts.brandOf the brand the post belongs to, as its form now says
 * @param {string[]} opts.brandFields the names of the form's fields that change the brand
 * @returns {{ element: HTMLFieldSetElement, value: () => number[] }}
 */
export function mediaPicker({ initial, brandOf, brandFields }) {
  const id = `media-${++counter}`;
  /** @type {Map<number, Asset>} the brand's assets by id, once read */
  let library = new Map();
  /** @type {number | null} */
  let libraryBrand = null;
  /** @type {number[]} */
  let chosen = [...initial];

  const list = element('ol', { className: 'media-list', 'aria-labelledby': `${id}-legend` });
  const empty = element('p', { className: 'muted media-empty', text: t('post.media.none') });
  const status = element('p', { className: 'field-error', role: 'alert', hidden: true });
  const fileInput = element('input', { type: 'file', id: `${id}-file`, className: 'sr-only', multiple: true });
  const uploads = element('ul', { className: 'media-uploads' });
  const browse = element('button', { type: 'button', className: 'button button-small', 'aria-expanded': 'false', 'aria-controls': `${id}-library`, text: t('post.media.fromLibrary') });
  const search = element('input', { type: 'search', id: `${id}-search`, placeholder: t('post.media.searchPlaceholder'), autocomplete: 'off' });
  const choices = element('ul', { className: 'media-library-list' });
  const libraryPanel = element('div', { className: 'media-library', id: `${id}-library`, hidden: true }, [
    element('label', { for: search.id, text: t('post.media.search') }),
    search,
    choices,
  ]);
  const fieldset = element('fieldset', { className: 'media-picker' }, [
    element('legend', { id: `${id}-legend`, text: t('post.media.title') }),
    element('p', { className: 'field-hint', text: t('post.media.hint') }),
    list,
    empty,
    element('div', { className: 'media-actions' }, [
      browse,
      element('label', { className: 'button button-small', for: fileInput.id, text: t('post.media.upload') }),
      fileInput,
    ]),
    uploads,
    libraryPanel,
    status,
  ]);

  const brand = () => brandOf(fieldset.closest('form'));

  /** @param {string} message */
  function fail(message) {
    status.textContent = message;
    status.hidden = !message;
  }

  /** Reads the brand's library once per brand. */
  async function loadLibrary() {
    const current = brand();
    if (current === null || current === libraryBrand) return;
    const assets = /** @type {Asset[]} */ (await callAll(`/api/assets?brandId=${current}`, 'assets'));
    library = new Map(assets.map((a) => [a.id, a]));
    libraryBrand = current;
  }

  /** @param {number} assetId */
  const nameOf = (assetId) => library.get(assetId)?.name ?? t('post.media.unknown');

  /**
   * @param {string} label
   * @param {string} accessibleName
   * @param {() => void} onClick
   * @param {boolean} [disabled]
   */
  function button(label, accessibleName, onClick, disabled = false) {
    const node = element('button', { type: 'button', className: 'button button-small button-ghost', 'aria-label': accessibleName, text: label, disabled });
    node.addEventListener('click', onClick);
    return node;
  }

  /** @param {number} [focusId] the item whose matching button keeps the focus after a move */
  function renderChosen(focusId, focusAction = '') {
    list.replaceChildren(
      ...chosen.map((assetId, index) => {
        const asset = library.get(assetId);
        const name = nameOf(assetId);
        return element('li', { className: 'media-item', 'data-asset-id': assetId }, [
          asset ? preview(asset, 'small') : null,
          element('span', { className: 'media-name', dir: 'auto', text: name }),
          index === 0 && asset?.thumbnailUrl ? element('span', { className: 'badge badge-muted', text: t('post.media.cover') }) : null,
          element('span', { className: 'media-item-actions' }, [
            button(t('post.media.earlier'), t('post.media.earlierNamed', { name }), () => move(index, -1), index === 0),
            button(t('post.media.later'), t('post.media.laterNamed', { name }), () => move(index, 1), index === chosen.length - 1),
            button(t('post.media.remove'), t('post.media.removeNamed', { name }), () => removeAt(index)),
          ]),
        ]);
      }),
    );
    empty.hidden = chosen.length > 0;
    if (focusId !== undefined) {
      const item = list.querySelector(`[data-asset-id="${focusId}"]`);
      const target = [...(item?.querySelectorAll('button') ?? [])].find((b) => b.getAttribute('aria-label')?.startsWith(focusAction) && !b.disabled);
      (target ?? item?.querySelector('button:not([disabled])') ?? browse).focus();
    }
    renderChoices();
  }

  function renderChoices() {
    const words = search.value.trim().toLocaleLowerCase();
    const open = [...library.values()].filter((a) => !chosen.includes(a.id) && (!words || a.name.toLocaleLowerCase().includes(words)));
    choices.replaceChildren(
      ...(open.length
        ? open.map((asset) => {
            // Named by what it shows, after a word only screen readers hear: a name of its own
            // would leave out the size that sighted users read on it.
            const add = element('button', { type: 'button', className: 'media-choice' }, [
              element('span', { className: 'sr-only', text: t('post.media.add') }),
              preview(asset, 'large'),
              element('span', { className: 'media-name', dir: 'auto', text: asset.name }),
              element('span', { className: 'muted', text: formatMb(asset.sizeMb) }),
            ]);
            add.addEventListener('click', () => {
              chosen = [...chosen, asset.id];
              renderChosen();
              announce(tIsolated('post.media.added', { name: asset.name }));
              (choices.querySelector('button') ?? search).focus();
            });
            return element('li', {}, [add]);
          })
        : [element('li', { className: 'muted', text: t(words ? 'post.media.noMatch' : 'post.media.libraryEmpty') })]),
    );
  }

  /**
   * @param {number} index
   * @param {-1 | 1} step
   */
  function move(index, step) {
    const assetId = chosen[index];
    const next = [...chosen];
    next.splice(index, 1);
    next.splice(index + step, 0, assetId);
    chosen = next;
    renderChosen(assetId, step < 0 ? t('post.media.earlier') : t('post.media.later'));
    announce(tIsolated('post.media.moved', { name: nameOf(assetId), position: index + step + 1, total: chosen.length }));
  }

  /** @param {number} index */
  function removeAt(index) {
    const assetId = chosen[index];
    chosen = chosen.filter((_, i) => i !== index);
    renderChosen();
    announce(tIsolated('post.media.removed', { name: nameOf(assetId) }));
    (list.querySelector('button') ?? browse).focus();
  }

  browse.addEventListener('click', () => {
    const opening = libraryPanel.hidden;
    libraryPanel.hidden = !opening;
    browse.setAttribute('aria-expanded', String(opening));
    if (!opening) return;
    fail('');
    loadLibrary()
      .then(() => {
        renderChoices();
        search.focus();
      })
      .catch((/** @type {unknown} */ err) => fail(errorMessage(err)));
  });
  search.addEventListener('input', renderChoices);

  fileInput.addEventListener('change', () => {
    const files = [...(fileInput.files ?? [])];
    fileInput.value = '';
    const current = brand();
    if (current === null || files.length === 0) return;
    fail('');
    const maxBytes = context.uploads?.maxBytes ?? Infinity;
    for (const file of files) {
      const progress = element('progress', { max: 100, value: 0, 'aria-label': t('post.media.uploading', { name: file.name }) });
      const row = element('li', {}, [element('span', { dir: 'auto', text: file.name }), progress]);
      uploads.append(row);
      if (file.size > maxBytes) {
        row.replaceChildren(element('span', { className: 'field-error', text: t('post.media.tooLarge', { name: file.name }) }));
        continue;
      }
      uploadFile(file, { brandId: current }, (fraction) => {
        progress.value = Math.round(fraction * 100);
      })
        .then((asset) => {
          row.remove();
          library.set(asset.id, asset);
          chosen = [...chosen, asset.id];
          renderChosen();
          announce(tIsolated('post.media.added', { name: asset.name }));
        })
        .catch((/** @type {unknown} */ err) => row.replaceChildren(element('span', { className: 'field-error', text: `${file.name}: ${errorMessage(err)}` })));
    }
  });

  /** A post moved to another brand cannot keep this brand's files: they are let go, and said so. */
  function brandChanged() {
    if (brand() === libraryBrand) return;
    const dropped = chosen.length;
    chosen = [];
    libraryBrand = null;
    library = new Map();
    if (dropped) announce(t('post.media.brandChanged'));
    loadLibrary()
      .then(() => renderChosen())
      .catch((/** @type {unknown} */ err) => fail(errorMessage(err)));
  }

  // Once the fieldset is in its form: the first read, so that what is attached shows by name
  // and picture, and a watch on the fields that move the post to another brand.
  requestAnimationFrame(() => {
    fieldset.closest('form')?.addEventListener('change', (event) => {
      if (event.target instanceof HTMLSelectElement && brandFields.includes(event.target.name)) brandChanged();
    });
    loadLibrary()
      .then(() => renderChosen())
      .catch((/** @type {unknown} */ err) => fail(errorMessage(err)));
  });
  renderChosen();

  return { element: fieldset, value: () => [...chosen] };
}
