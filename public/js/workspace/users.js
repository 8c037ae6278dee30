// Users (for those who administer the workspace; the server refuses the page to anyone else): every account, its
// role and brands, and the brands themselves. One's own row has no delete button, since the
// server refuses that too.
import { element, findElement, requireElement } from '../core/dom.js';
import { formatDay } from '../core/format.js';
import { t, tIsolated } from '../core/i18n.js';
import { announce, avatar, call, errorMessage, me } from './common.js';
import { actionButton } from './icons.js';
import { announceAdded, invitationActions, invitationBadge, invitationLines, memberDialog } from './members.js';
import { deleteWithConfirmation, editInModal } from './records.js';

/** @typedef {import('./common.js').Member} Member */
/** @typedef {import('./common.js').Brand} Brand */

const table = requireElement('[data-users]', HTMLTableElement);
const body = requireElement('tbody', HTMLTableSectionElement, table);
const brandList = requireElement('[data-brands]', HTMLElement);
const state = requireElement('[data-state]', HTMLElement);
/** @type {Member[]} */
let users = [];
/** @type {Brand[]} */
let brands = [];

/** @param {Member} user */
function row(user) {
  const own = user.id === me.id;
  const brandNames = brands.filter((b) => user.brandIds.includes(b.id)).map((b) => b.name);
  return element('tr', { 'data-user-id': user.id }, [
    element('td', { className: 'cell-wide' }, [
      element('div', { className: 'person' }, [
        avatar(user, 'medium'),
        element('div', { className: 'person-text' }, [
          element('span', { className: 'person-name', text: own ? t('common.you', { name: user.name }) : user.name }),
          element('span', { className: 'person-sub', dir: 'ltr', text: user.email }),
        ]),
      ]),
    ]),
    element('td', { 'data-label': t('members.role') }, [element('span', { className: `badge role-badge role-${user.role}`, text: t(`role.${user.role}`) })]),
    element('td', { 'data-label': t('members.brands') }, [
      element('div', { className: 'badge-list' }, brandNames.length ? brandNames.map((n) => element('span', { className: 'badge badge-muted', text: n })) : [t('users.noBrand')]),
    ]),
    element(
      'td',
      { 'data-label': t('users.joined') },
      user.invitation
        ? [element('div', { className: 'invitation-state' }, [invitationBadge(user.invitation), invitationLines(user.invitation)])]
        : [formatDay(user.createdAt.slice(0, 10))],
    ),
    element('td', {}, [
      element('div', { className: 'record-actions' }, [
        actionButton({ text: t('common.edit'), label: t('users.editNamed', { name: user.name }), icon: 'edit', onClick: () => editUser(user) }),
        // Someone still invited is removed by revoking the invitation, which also ends its link.
        ...(user.invitation
          ? invitationActions(user, { onChange: (saved) => invitationChanged(user, saved), returnFocus: () => findElement('[data-new-user]', HTMLElement) })
          : [own ? null : actionButton({ text: t('common.delete'), label: t('users.deleteNamed', { name: user.name }), icon: 'trash', danger: true, onClick: () => deleteUser(user) })]),
      ]),
    ]),
  ]);
}

/** @param {Brand} brand */
function brandItem(brand) {
  return element('li', { className: 'track', 'data-brand-id': brand.id }, [
    element('span', { className: 'track-name', text: brand.name }),
    element('div', { className: 'record-actions' }, [
      actionButton({ text: t('brands.rename'), label: t('brands.renameNamed', { name: brand.name }), icon: 'edit', onClick: () => saveBrand(brand) }),
      actionButton({ text: t('common.delete'), label: t('brands.deleteNamed', { name: brand.name }), icon: 'trash', danger: true, onClick: () => deleteBrand(brand) }),
    ]),
  ]);
}

function render() {
  body.replaceChildren(...users.map(row));
  brandList.replaceChildren(...(brands.length ? brands.map(brandItem) : [element('li', { className: 'muted', text: t('brands.empty') })]));
  state.textContent = '';
}

async function load() {
  try {
    const [m, b] = /** @type {[{ members: Member[] }, { brands: Brand[] }]} */ (await Promise.all([call('GET', '/api/members'), call('GET', '/api/brands')]));
    users = m.members;
    brands = b.brands;
    render();
  } catch (err) {
    state.textContent = errorMessage(err);
  } finally {
    table.setAttribute('aria-busy', 'false');
  }
}

/** @param {Member} saved */
function replaceUser(saved) {
  users = users.some((u) => u.id === saved.id) ? users.map((u) => (u.id === saved.id ? saved : u)) : [...users, saved];
  users.sort((a, b) => a.name.localeCompare(b.name));
}

/** @param {Member} user */
async function editUser(user) {
  const saved = await memberDialog(user, { brands, defaultBrandIds: user.brandIds });
  if (!saved) return;
  replaceUser(saved);
  render();
  announce(tIsolated('members.updated', { name: saved.name }));
}

/**
 * @param {Member} user
 * @param {Member | null} saved the member after a resend, or null once the invitation is revoked
 */
function invitationChanged(user, saved) {
  if (saved) replaceUser(saved);
  else users = users.filter((u) => u.id !== user.id);
  render();
}

/** @param {Member} user */
async function deleteUser(user) {
  const deleted = await deleteWithConfirmation('users', { name: user.name }, `/api/members/${user.id}`, () => findElement('[data-new-user]', HTMLElement));
  if (!deleted) return;
  users = users.filter((u) => u.id !== user.id);
  render();
}

/** @param {Brand | null} brand */
async function saveBrand(brand) {
  const saved = await editInModal({
    title: brand ? t('brands.renameTitle') : t('brands.newTitle'),
    confirmText: brand ? t('common.save') : t('brands.add'),
    fields: [{ name: 'name', label: t('common.name'), required: true, maxlength: 200, value: brand?.name ?? '' }],
    check: (values) => ({ name: values.name.trim() ? '' : t('brands.nameRequired') }),
    send: async (values) => {
      const name = values.name.trim();
      const answer = brand ? await call('PATCH', `/api/brands/${brand.id}`, { name }) : await call('POST', '/api/brands', { name });
      return /** @type {{ brand: Brand }} */ (answer).brand;
    },
  });
  if (!saved) return;
  brands = brand ? brands.map((b) => (b.id === saved.id ? saved : b)) : [...brands, saved];
  render();
  announce(tIsolated(brand ? 'brands.renamed' : 'brands.created', { name: saved.name }));
}

/** @param {Brand} brand */
async function deleteBrand(brand) {
  const deleted = await deleteWithConfirmation('brands', { name: brand.name }, `/api/brands/${brand.id}`, () => findElement('[data-new-brand]', HTMLElement));
  if (!deleted) return;
  brands = brands.filter((b) => b.id !== brand.id);
  render();
}

async function addUser() {
  const created = await memberDialog(null, { brands, defaultBrandIds: me.brandIds });
  if (!created) return;
  replaceUser(created);
  render();
  announceAdded(created);
}

requireElement('[data-new-user]', HTMLButtonElement).addEventListener('click', () => void addUser());
requireElement('[data-new-brand]', HTMLButtonElement).addEventListener('click', () => void saveBrand(null));

await load();
