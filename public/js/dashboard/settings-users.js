// Settings: the users, their roles and the museums and channels their access allows.
import { ApiError } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { formFeedback, setFieldError } from '../core/forms.js';
import { t, tn } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { readJsonAttribute } from '../core/page.js';
import { call, cell, errorText } from './common.js';
import { actionsCell, formValues, report, rowButton, say, sections, showTable } from './settings-sections.js';

/**
 * A user as GET /api/users shows one; an access list is null when the stored one cannot be
 * read (the user then sees nothing) and [] for no restriction.
 * @typedef {object} User
 * @property {number} id
 * @property {string} name
 * @property {string} role
 * @property {string[] | null} allowedMuseums
 * @property {string[] | null} allowedChannels
 * @property {boolean} [weakPin]
 * @property {string | null} [email] where scheduled reports go
 */

/**
 * The roles the server knows, the first being what an unknown role counts as, and those that
 * see everything (the server refuses access lists for them).
 */
const { roles, unrestrictedRoles } = /** @type {{ roles: string[], unrestrictedRoles: string[] }} */ (readJsonAttribute('data-context'));

/** @typedef {{ museums: ReturnType<typeof accessPicker>, channels: ReturnType<typeof accessPicker> }} AccessPickers */

/**
 * The access pickers of a form, shown for roles that access lists restrict; for the others, a
 * note in their place, and empty lists sent (the server refuses lists on their records).
 * @param {HTMLSelectElement} roleSelect
 * @param {HTMLElement} place where the pickers go
 * @param {AccessPickers} initial
 */
function accessFollowingRole(roleSelect, place, initial) {
  let pickers = initial;
  const note = element('p', { className: 'muted', 'data-unrestricted-note': '', text: t('settings.users.unrestrictedRole') });
  const unrestricted = () => unrestrictedRoles.includes(roleSelect.value);
  const sync = () => place.replaceChildren(...(unrestricted() ? [note] : [pickers.museums.element, pickers.channels.element]));
  roleSelect.addEventListener('change', sync);
  sync();
  return {
    validate: () => unrestricted() || [pickers.museums.validate(), pickers.channels.validate()].every(Boolean),
    /** @returns {{ allowedMuseums: string[], allowedChannels: string[] }} */
    lists: () => (unrestricted() ? { allowedMuseums: [], allowedChannels: [] } : { allowedMuseums: pickers.museums.value(), allowedChannels: pickers.channels.value() }),
    /** New pickers (a form emptied for the next user), shown as the role now chosen says. @param {AccessPickers} next */
    replace(next) {
      pickers = next;
      sync();
    },
  };
}

/** @type {User[]} */
let users = [];
/** @type {{ museums: string[], channels: string[] }} */
const known = { museums: [], channels: [] };
let pickerCount = 0;

const ACCESS = {
  museums: { all: 'allMuseums', only: 'onlyMuseums', count: 'museumCount', legend: 'museumAccess', pick: 'pickMuseum' },
  channels: { all: 'allChannels', only: 'onlyChannels', count: 'channelCount', legend: 'channelAccess', pick: 'pickChannel' },
};

/** @typedef {keyof typeof ACCESS} AccessKind */

/**
 * The restriction badge: [] is everything, null (an unreadable list) is nothing.
 * @param {AccessKind} kind
 * @param {string[] | null} list
 */
function accessBadge(kind, list) {
  const words = ACCESS[kind];
  if (list === null) return element('span', { className: 'badge badge-danger', 'data-badge': kind, text: t('settings.users.noAccess') });
  if (list.length === 0) return element('span', { className: 'badge badge-success', 'data-badge': kind, text: t(`settings.users.${words.all}`) });
  return element('span', { className: 'badge badge-warning', 'data-badge': kind, title: list.join(', '), text: tn(`settings.users.${words.count}`, list.length) });
}

/**
 * "All" or "only these" for one access list. Choosing "only these" with nothing ticked
 * would send [], which means everything, so it is refused before it is sent.
 * @param {AccessKind} kind
 * @param {string[] | null} selected
 */
function accessPicker(kind, selected) {
  const words = ACCESS[kind];
  const id = `access-${kind}-${++pickerCount}`;
  const restricted = selected === null || selected.length > 0;
  const chosen = new Set(selected ?? []);
  const values = [...new Set([...known[kind], ...chosen])].sort((a, b) => a.localeCompare(b));
  const all = element('input', { type: 'radio', id: `${id}-all`, name: `${id}-mode`, value: 'all', checked: !restricted });
  const only = element('input', { type: 'radio', id: `${id}-only`, name: `${id}-mode`, value: 'only', checked: restricted });
  const boxes = values.map((value, i) => element('input', { type: 'checkbox', id: `${id}-${i}`, value, checked: chosen.has(value) }));
  const options = element(
    'div',
    { className: 'access-options' },
    boxes.length
      ? boxes.map((box) => element('label', { className: 'check', for: box.id }, [box, element('span', { text: box.value })]))
      : element('p', { className: 'muted', text: t('settings.users.noOptions') }),
  );
  const error = element('p', { className: 'field-error', id: `${id}-error`, hidden: true });
  const fieldset = element('fieldset', { className: 'access-picker', 'data-access-picker': kind, 'aria-describedby': error.id }, [
    element('legend', { text: t(`settings.users.${words.legend}`) }),
    element('div', { className: 'access-modes' }, [
      element('label', { className: 'check', for: all.id }, [all, element('span', { text: t(`settings.users.${words.all}`) })]),
      element('label', { className: 'check', for: only.id }, [only, element('span', { text: t(`settings.users.${words.only}`) })]),
    ]),
    options,
    error,
  ]);
  const sync = () => {
    options.hidden = !only.checked;
    for (const box of boxes) box.disabled = !only.checked;
    error.hidden = true;
  };
  fieldset.addEventListener('change', sync);
  sync();
  return {
    element: fieldset,
    value: () => (only.checked ? boxes.filter((b) => b.checked).map((b) => b.value) : []),
    validate() {
      const ok = !only.checked || boxes.some((b) => b.checked);
      error.textContent = ok ? '' : t(`settings.users.${words.pick}`);
      error.hidden = ok;
      if (!ok) (boxes[0] ?? only).focus();
      return ok;
    },
  };
}

/** @param {string} role a role the server knows, or what an unknown one counts as */
function knownRole(role) {
  return roles.includes(role) ? role : roles[0];
}

/** @param {string} role */
function roleName(role) {
  return t(`role.${knownRole(role)}`);
}

/**
 * The role badge, and beside it a warning when the user's PIN is shorter than new PINs may be.
 * @param {User} user
 */
function roleCell(user) {
  const role = element('span', { className: `badge ${user.role === 'admin' ? 'badge-role-admin' : 'badge-muted'}`, text: roleName(user.role) });
  if (!user.weakPin) return cell(role);
  const weak = element('span', { className: 'badge badge-warning', 'data-weak-pin': '', title: t('settings.users.weakPinTitle'), text: t('settings.users.weakPin') });
  return cell(element('div', { className: 'badge-row' }, [role, weak]));
}

function renderUsers() {
  users.sort((a, b) => a.name.localeCompare(b.name));
  requireElement('[data-rows]', HTMLElement, sections.users).replaceChildren(
    ...users.map((user) =>
      element('tr', { 'data-user-id': user.id }, [
        element('th', { scope: 'row' }, [user.name, user.email ? element('span', { className: 'user-email', dir: 'ltr', text: user.email }) : null]),
        roleCell(user),
        cell(accessBadge('museums', user.allowedMuseums)),
        cell(accessBadge('channels', user.allowedChannels)),
        actionsCell(
          'users',
          user,
          'settings.users.editAccess',
          () => editUser(user),
          () => {
            users = users.filter((u) => u.id !== user.id);
            renderUsers();
          },
          [rowButton(t('settings.users.newPin'), t('settings.users.newPinNamed', { name: user.name }), '', () => confirmNewPin(user))],
        ),
      ]),
    ),
  );
  showTable(sections.users, users.length);
}

/**
 * Shows a PIN the server made, the only time it is ever shown, with a button that copies
 * it; where the clipboard is out of reach (a page not served over HTTPS), the PIN is
 * selected so that it can be copied by hand.
 * @param {string} name
 * @param {string} pin
 */
function showPin(name, pin) {
  const value = element('span', { className: 'pin-value', dir: 'ltr', 'data-pin': '', text: pin });
  const status = element('p', { className: 'form-status', role: 'status' });
  const copy = element('button', { type: 'button', className: 'button', text: t('settings.users.copyPin') });
  copy.addEventListener('click', () => {
    navigator.clipboard.writeText(pin).then(
      () => {
        status.textContent = t('settings.users.copied');
      },
      () => {
        getSelection()?.selectAllChildren(value);
        status.textContent = t('settings.users.copyFailed');
      },
    );
  });
  return openModal({
    title: t('settings.users.pinShownTitle', { name }),
    message: t('settings.users.pinShownMessage', { name }),
    isConfirm: false,
    confirmText: t('settings.users.pinShownDone'),
    content: element('div', { className: 'pin-reveal' }, [element('span', { className: 'field-label', text: t('settings.users.pinShownLabel') }), value, copy, status]),
    returnFocus: () => document.getElementById('users-title'),
  });
}

/** @typedef {{ user: User, pin: string }} WithPin */

/** @param {User} user */
async function confirmNewPin(user) {
  /** @type {WithPin | null} */
  let made = null;
  const { confirmed } = await openModal({
    title: t('settings.users.newPinTitle', { name: user.name }),
    message: t('settings.users.newPinMessage', { name: user.name }),
    confirmText: t('settings.users.newPinConfirm'),
    returnFocus: () => document.getElementById('users-title'),
    onConfirm: async ({ setError }) => {
      try {
        made = /** @type {WithPin} */ (await call('POST', `/api/users/${user.id}/pin`, {}));
      } catch (err) {
        setError(errorText(err, 'settings.users.newPinFailed'));
        return false;
      }
      replaceUser(made.user);
      say(sections.users, t('settings.users.newPinDone', { name: made.user.name }));
      return true;
    },
  });
  // Set by onConfirm, which the type checker does not follow into.
  const shown = /** @type {WithPin | null} */ (made);
  if (confirmed && shown) await showPin(shown.user.name, shown.pin);
}

/** @param {User} saved */
function replaceUser(saved) {
  users = users.map((u) => (u.id === saved.id ? saved : u));
  renderUsers();
}

/** @param {User} user */
function editUser(user) {
  const pickers = { museums: accessPicker('museums', user.allowedMuseums), channels: accessPicker('channels', user.allowedChannels) };
  const place = element('div', { className: 'access-grid access-grid-modal' });
  /** @type {ReturnType<typeof accessFollowingRole> | undefined} */
  let access;
  return openModal({
    title: t('settings.users.editTitle', { name: user.name }),
    confirmText: t('settings.users.save'),
    fields: [
      { name: 'email', label: t('settings.users.email'), type: 'email', value: user.email ?? '', maxlength: 254, dir: 'ltr', hint: t('settings.users.emailHint') },
      {
        name: 'role',
        label: t('settings.users.role'),
        type: 'select',
        value: knownRole(user.role),
        options: roles.map((role) => ({ value: role, label: roleName(role) })),
      },
    ],
    content: place,
    onOpen: (controls) => {
      access = accessFollowingRole(/** @type {HTMLSelectElement} */ (controls.get('role')), place, pickers);
    },
    onConfirm: async ({ values, setError, setFieldError }) => {
      const email = values.email.trim();
      if (email && !EMAIL.test(email)) {
        setFieldError('email', t('settings.users.emailInvalid'));
        return false;
      }
      if (!access?.validate()) return false;
      try {
        const { user: saved } = /** @type {{ user: User }} */ (await call('PATCH', `/api/users/${user.id}`, { role: values.role, email: email || null, ...access.lists() }));
        replaceUser(saved);
        say(sections.users, t('settings.users.updated', { name: saved.name }));
        return true;
      } catch (err) {
        setError(errorText(err, 'settings.users.saveFailed'));
        return false;
      }
    },
  });
}

/** An address as the server takes one: a name, an @ and a host with a dot (the server checks it fully). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const userForm = requireElement('#user-form', HTMLFormElement);
const userFeedback = formFeedback(userForm);
const pinInput = requireElement('#user-pin', HTMLInputElement);
/** @type {ReturnType<typeof accessFollowingRole> | undefined} */
let addAccess;

/** Empty pickers for the next user, after the known museums and channels are loaded or a user was added. */
function mountAddPickers() {
  const pickers = { museums: accessPicker('museums', []), channels: accessPicker('channels', []) };
  if (addAccess) addAccess.replace(pickers);
  else addAccess = accessFollowingRole(requireElement('#user-role', HTMLSelectElement, userForm), requireElement('[data-access-pickers]', HTMLElement, userForm), pickers);
}

/** Refusals of a chosen PIN, said under the PIN field. */
const PIN_REFUSALS = { PIN_TAKEN: 'settings.users.pinTaken', PIN_THROTTLED: 'settings.users.pinThrottled' };

/**
 * @param {Partial<Record<string, string>>} values
 * @param {NonNullable<typeof addAccess>} access
 */
async function addUser(values, access) {
  const button = requireElement('[type="submit"]', HTMLButtonElement, userForm);
  button.disabled = true;
  try {
    const { user, pin } = /** @type {{ user: User, pin?: string }} */ (
      await call('POST', '/api/users', {
        name: (values.name ?? '').trim(),
        ...(values.pin ? { pin: values.pin } : {}),
        ...(values.email?.trim() ? { email: values.email.trim() } : {}),
        role: values.role,
        ...access.lists(),
      })
    );
    users.push(user);
    renderUsers();
    userForm.reset();
    mountAddPickers();
    say(sections.users, t('settings.users.created', { name: user.name }));
    if (pin) await showPin(user.name, pin);
  } catch (err) {
    const code = err instanceof ApiError ? err.code : undefined;
    if (code === 'PIN_TAKEN' || code === 'PIN_THROTTLED') {
      setFieldError(pinInput, t(PIN_REFUSALS[code]));
      pinInput.focus();
    } else userFeedback.error(errorText(err, 'settings.users.saveFailed'));
  } finally {
    button.disabled = false;
  }
}

userForm.addEventListener('submit', (event) => {
  event.preventDefault();
  userFeedback.error('');
  const values = formValues(userForm);
  /** @type {Record<string, string>} */
  const problems = {};
  if (!(values.name ?? '').trim()) problems.name = t('settings.users.nameRequired');
  if (values.pin && !/^\d{6,12}$/.test(values.pin)) problems.pin = t('settings.users.pinInvalid');
  if (values.email?.trim() && !EMAIL.test(values.email.trim())) problems.email = t('settings.users.emailInvalid');
  if (!report(userForm, problems) || !addAccess?.validate()) return;
  void addUser(values, addAccess);
});

pinInput.addEventListener('input', () => {
  pinInput.value = pinInput.value.replace(/\D+/g, '');
});

export async function loadKnownValues() {
  try {
    const filters = /** @type {import('./filters.js').Filters} */ (await call('GET', '/api/dashboard/filters'));
    known.museums = filters.museums;
    known.channels = filters.channels;
  } catch {
    // Without them the pickers offer only what a user already has; the page still works.
  }
  mountAddPickers();
}

/**
 * Shows the users the page loaded.
 * @param {User[]} list
 */
export function showUsers(list) {
  users = list;
  renderUsers();
}
