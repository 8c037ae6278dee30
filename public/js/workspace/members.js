// Adding and editing members (the users table): shared by the Team page, where managers add
// contributors to their brands, and the Users page, where a superadmin manages everyone.
import { ApiError } from '../core/api.js';
import { element } from '../core/dom.js';
import { t } from '../core/i18n.js';
import { call, context, domain, isSuperadmin, vocabularyOptions } from './common.js';
import { editInModal } from './records.js';

/** @typedef {import('./common.js').Member} Member */
/** @typedef {import('./common.js').Role} Role */

/** @type {Role} */
const CONTRIBUTOR = 'contributor';

/** A superadmin gives any role; a manager only adds contributors. */
function assignableRoles() {
  return isSuperadmin() ? domain.roles : [CONTRIBUTOR];
}

/**
 * @param {import('./common.js').Brand[]} brands
 * @param {number[]} checked
 */
function brandPicker(brands, checked) {
  return element('fieldset', { className: 'modal-fieldset' }, [
    element('legend', { text: t('members.brands') }),
    ...brands.map((brand) => {
      const id = `member-brand-${brand.id}`;
      return element('div', { className: 'check' }, [
        element('input', { type: 'checkbox', id, value: String(brand.id), checked: checked.includes(brand.id) }),
        element('label', { for: id, text: brand.name }),
      ]);
    }),
  ]);
}

/**
 * The member form: name, email, role, brands and a password (required for a new member, a
 * reset for an existing one). Resolves with the saved member, or null.
 * @param {Member | null} member
 * @param {{ brands: import('./common.js').Brand[], defaultBrandIds: number[] }} options
 * @returns {Promise<Member | null>}
 */
export function memberDialog(member, { brands, defaultBrandIds }) {
  const minLength = context.passwordMinLength;
  const picker = brands.length > 1 ? brandPicker(brands, member?.brandIds ?? defaultBrandIds) : null;
  const chosenBrands = () =>
    picker ? [...picker.querySelectorAll('input:checked')].flatMap((box) => (box instanceof HTMLInputElement ? [Number(box.value)] : [])) : defaultBrandIds;
  return editInModal({
    title: member ? t('members.editTitle', { name: member.name }) : t('members.newTitle'),
    confirmText: member ? t('common.save') : t('members.create'),
    fields: [
      { name: 'name', label: t('members.name'), required: true, maxlength: 200, autocomplete: 'off', value: member?.name ?? '' },
      { name: 'email', label: t('members.email'), type: 'email', required: true, maxlength: 254, dir: 'ltr', autocomplete: 'off', value: member?.email ?? '' },
      { name: 'role', label: t('members.role'), type: 'select', options: vocabularyOptions(assignableRoles(), 'role'), value: member?.role ?? CONTRIBUTOR },
      {
        name: 'password',
        label: member ? t('members.resetPassword') : t('members.password'),
        type: 'password',
        required: !member,
        maxlength: 72,
        dir: 'ltr',
        autocomplete: 'new-password',
        hint: member ? t('members.resetHint') : t('members.passwordHint', { min: minLength }),
      },
    ],
    content: picker,
    check: (values) => {
      const password = values.password ?? '';
      return {
        name: values.name?.trim() ? '' : t('members.nameRequired'),
        email: /^\S+@\S+\.\S+$/.test((values.email ?? '').trim()) ? '' : t('members.emailInvalid'),
        password: (!member || password) && password.length < minLength ? t('members.passwordShort', { min: minLength }) : '',
      };
    },
    refusedField: (err) => (err instanceof ApiError && err.code === 'EMAIL_TAKEN' ? { name: 'email', message: t('errors.EMAIL_TAKEN') } : null),
    send: async (values) => {
      /** @type {Record<string, unknown>} */
      const body = { name: (values.name ?? '').trim(), email: (values.email ?? '').trim(), role: values.role, brandIds: chosenBrands() };
      if (values.password) body.password = values.password;
      const answer = member ? await call('PATCH', `/api/members/${member.id}`, body) : await call('POST', '/api/members', body);
      return /** @type {{ member: Member }} */ (answer).member;
    },
  });
}
