// The Views menu of the Dashboard and Comparison pages: the reader's own saved views and
// those others share, each a link that reopens its page as it was saved; save what is shown
// as a new view, save changes to the view it came from, rename, share or delete it. A view
// keeps the page's address, never figures: whoever opens it sees what their account allows.
import { ApiError } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { t } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { call, errorText } from './common.js';

/**
 * A view as GET /api/dashboard/views answers it.
 * @typedef {object} SavedView
 * @property {number} id
 * @property {string} name
 * @property {'dashboard' | 'comparison'} page
 * @property {string} query
 * @property {boolean} shared
 * @property {{ name: string }} owner
 * @property {boolean} mine
 * @property {{ edit: boolean, delete: boolean }} can
 * @property {number} unseen
 */

const PATHS = { dashboard: '/dashboard', comparison: '/dashboard/comparison' };

/**
 * The view an address opens (`view=<id>`), or null when it names none or one the reader
 * cannot open (gone, or private to someone else).
 * @param {URLSearchParams} params
 * @returns {Promise<SavedView | null>}
 */
export async function viewOfAddress(params) {
  const id = params.get('view');
  if (!id || !/^[1-9]\d{0,15}$/.test(id)) return null;
  try {
    return /** @type {{ view: SavedView }} */ (await call('GET', `/api/dashboard/views/${id}`)).view;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

/**
 * @param {HTMLElement} root views/partials/dashboard-views.ejs
 * @param {{ page: 'dashboard' | 'comparison', address: () => URLSearchParams, onSaved: (view: SavedView) => void }} options
 *   `address` is what the page shows, as its address without a view; `onSaved` opens a view just saved
 */
export function createViewsMenu(root, options) {
  const details = root instanceof HTMLDetailsElement ? root : requireElement('details', HTMLDetailsElement, root);
  const current = requireElement('[data-view-current]', HTMLElement, root);
  const mine = requireElement('[data-views-mine]', HTMLUListElement, root);
  const shared = requireElement('[data-views-shared]', HTMLUListElement, root);
  const save = requireElement('[data-view-save]', HTMLButtonElement, root);
  const update = requireElement('[data-view-update]', HTMLButtonElement, root);
  const edit = requireElement('[data-view-edit]', HTMLButtonElement, root);
  const remove = requireElement('[data-view-delete]', HTMLButtonElement, root);
  const summary = requireElement('summary', HTMLElement, root);
  /** The view the page shows, or came from before the reader changed something. @type {SavedView | null} */
  let base = null;
  let changed = false;

  /** @param {SavedView} view */
  function item(view) {
    const link = element('a', { href: `${PATHS[view.page]}?view=${view.id}`, className: 'views-link' }, [element('bdi', { text: view.name })]);
    if (base?.id === view.id) link.setAttribute('aria-current', changed ? 'false' : 'page');
    const owner = view.mine ? null : element('span', { className: 'views-owner' }, [t('views.by'), ' ', element('bdi', { text: view.owner.name })]);
    const badge = view.mine && view.shared ? element('span', { className: 'badge', text: t('views.sharedBadge') }) : null;
    return element('li', {}, [link, owner, badge]);
  }

  async function load() {
    /** @type {SavedView[]} */
    let views;
    try {
      views = /** @type {{ views: SavedView[] }} */ (await call('GET', '/api/dashboard/views')).views.filter((v) => v.page === options.page);
    } catch {
      views = [];
    }
    const own = views.filter((v) => v.mine);
    const others = views.filter((v) => !v.mine);
    mine.replaceChildren(...(own.length ? own.map(item) : [element('li', { className: 'muted', text: t('views.emptyMine') })]));
    shared.replaceChildren(...(others.length ? others.map(item) : [element('li', { className: 'muted', text: t('views.emptyShared') })]));
  }

  function show() {
    current.replaceChildren(base ? element('bdi', { text: base.name }) : t('views.none'));
    if (base && changed) current.append(` ${t('views.changedMark')}`);
    const canEdit = Boolean(base?.can.edit);
    update.hidden = !(canEdit && changed);
    edit.hidden = !canEdit;
    remove.hidden = !base?.can.delete;
    if (base) {
      update.textContent = t('views.update', { name: base.name });
      remove.textContent = t('views.delete', { name: base.name });
    }
  }

  const nameField = (/** @type {string} */ value) => ({ name: 'name', label: t('views.name'), required: true, maxlength: 200, value });
  const whoField = (/** @type {boolean} */ everyone) => ({
    name: 'shared',
    label: t('views.who'),
    type: /** @type {const} */ ('select'),
    value: everyone ? 'yes' : 'no',
    options: [
      { value: 'no', label: t('views.onlyMe') },
      { value: 'yes', label: t('views.everyone') },
    ],
    hint: t('views.whoHint'),
  });

  save.addEventListener('click', () => {
    details.open = false;
    void openModal({
      title: t('views.saveTitle'),
      confirmText: t('views.saveConfirm'),
      fields: [nameField(''), whoField(false)],
      returnFocus: summary,
      onConfirm: async ({ values, setError }) => {
        try {
          const { view } = /** @type {{ view: SavedView }} */ (
            await call('POST', '/api/dashboard/views', { name: values.name.trim(), page: options.page, query: options.address().toString(), shared: values.shared === 'yes' })
          );
          options.onSaved(view);
          return true;
        } catch (err) {
          setError(errorText(err, 'views.failed'));
          return false;
        }
      },
    });
  });

  /** Saves what is shown over the view it came from. */
  async function saveChanges() {
    if (!base) return;
    try {
      const { view } = /** @type {{ view: SavedView }} */ (await call('PATCH', `/api/dashboard/views/${base.id}`, { query: options.address().toString() }));
      details.open = false;
      options.onSaved(view);
    } catch (err) {
      void openModal({ title: t('views.failed'), message: errorText(err, 'views.failed'), isConfirm: false, returnFocus: summary });
    }
  }
  update.addEventListener('click', () => void saveChanges());

  edit.addEventListener('click', () => {
    const view = base;
    if (!view) return;
    details.open = false;
    void openModal({
      title: t('views.editTitle'),
      confirmText: t('views.saveConfirm'),
      fields: [nameField(view.name), whoField(view.shared)],
      returnFocus: summary,
      onConfirm: async ({ values, setError }) => {
        try {
          const { view: saved } = /** @type {{ view: SavedView }} */ (await call('PATCH', `/api/dashboard/views/${view.id}`, { name: values.name.trim(), shared: values.shared === 'yes' }));
          base = saved;
          show();
          await load();
          return true;
        } catch (err) {
          setError(errorText(err, 'views.failed'));
          return false;
        }
      },
    });
  });

  remove.addEventListener('click', () => {
    const view = base;
    if (!view) return;
    details.open = false;
    void openModal({
      title: t('views.deleteTitle'),
      message: t(view.shared ? 'views.deleteShared' : 'views.deleteMessage', { name: view.name }),
      danger: true,
      confirmText: t('views.deleteConfirm'),
      returnFocus: summary,
      onConfirm: async ({ setError }) => {
        try {
          await call('DELETE', `/api/dashboard/views/${view.id}`);
        } catch (err) {
          // Gone already: the outcome is the one wanted.
          if (!(err instanceof ApiError && err.status === 404)) {
            setError(errorText(err, 'views.failed'));
            return false;
          }
        }
        base = null;
        changed = false;
        show();
        await load();
        return true;
      },
    });
  });

  details.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && details.open) {
      event.preventDefault();
      details.open = false;
      summary.focus();
    }
  });
  document.addEventListener('click', (event) => {
    if (details.open && !(event.target instanceof Node && details.contains(event.target))) details.open = false;
  });

  show();
  void load();
  return {
    /**
     * The view the page now shows (`changed` false), or came from (`changed` true), or none.
     * @param {SavedView | null} view
     * @param {boolean} [isChanged]
     */
    showing(view, isChanged = false) {
      base = view;
      changed = isChanged;
      show();
      void load();
    },
    /** The reader changed what is shown: a view it came from stays on offer to be saved over. */
    changed() {
      if (!base || changed) return;
      changed = true;
      show();
    },
  };
}
