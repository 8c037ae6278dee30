// Adding and editing members (the users table): shared by the Team page, where the user adds
// members to their brands, and the Users page, where everyone is managed. The roles offered are
// those the server says the user may give.
import { ApiError } from '../core/api.js';
import { element } from '../core/dom.js';
import { formatDay } from '../core/format.js';
import { t, tIsolated } from '../core/i18n.js';
import { announce, call, can, context, errorMessage, vocabularyOptions } from './common.js';
import { actionButton } from './icons.js';
import { confirmDelete, editInModal } from './records.js';

/** @typedef {import('./common.js').Member} Member */

/** The roles the user gives, from the most powerful down: a new member starts at the last. */
const roles = can.memberRoles;

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

/** How a new member gets in: an invitation by mail (the default), or a first password passed on by hand. */
const INVITE = 'invite';
const FIRST_PASSWORD = 'password';

/**
 * The member form: name, email, role, brands, and for a new member how they sign in (an
 * invitation by mail, or a first password); for an existing one, an optional password reset.
 * Resolves with the saved member, or null.
 * @param {Member | null} member
 * @param {{ brands: import('./common.js').Brand[], defaultBrandIds: number[] }} options
 * @returns {Promise<Member | null>}
 */
export function memberDialog(member, { brands, defaultBrandIds }) {
  const minLength = context.passwordMinLength;
  const picker = brands.length > 1 ? brandPicker(brands, member?.brandIds ?? defaultBrandIds) : null;
  const chosenBrands = () =>
    picker ? [...picker.querySelectorAll('input:checked')].flatMap((box) => (box instanceof HTMLInputElement ? [Number(box.value)] : [])) : defaultBrandIds;
  /** A new member with a first password, rather than an invitation. */
  const withPassword = (/** @type {Record<string, string>} */ values) => Boolean(member) || values.access === FIRST_PASSWORD;
  /** @type {import('../core/modal.js').ModalField[]} */
  const access = member
    ? []
    : [
        {
          name: 'access',
          label: t('members.access'),
          type: 'select',
          options: [
            { value: INVITE, label: t('members.accessInvite') },
            { value: FIRST_PASSWORD, label: t('members.accessPassword') },
          ],
          value: INVITE,
          hint: t('members.accessHint'),
        },
      ];
  return editInModal({
    title: member ? t('members.editTitle', { name: member.name }) : t('members.newTitle'),
    confirmText: member ? t('common.save') : t('members.create'),
    fields: [
      { name: 'name', label: t('members.name'), required: true, maxlength: 200, autocomplete: 'off', value: member?.name ?? '' },
      { name: 'email', label: t('members.email'), type: 'email', required: true, maxlength: 254, dir: 'ltr', autocomplete: 'off', value: member?.email ?? '' },
      { name: 'role', label: t('members.role'), type: 'select', options: vocabularyOptions(roles, 'role'), value: member?.role ?? roles.at(-1) },
      ...access,
      {
        name: 'password',
        label: member ? t('members.resetPassword') : t('members.password'),
        type: 'password',
        maxlength: 72,
        dir: 'ltr',
        autocomplete: 'new-password',
        hint: member ? t('members.resetHint') : t('members.passwordHint', { min: minLength }),
      },
    ],
    content: picker,
    // The first password is asked for only when it is the way in.
    onOpen: (controls) => {
      const choice = controls.get('access');
      const password = controls.get('password');
      const field = password?.closest('.field');
      if (!choice || !password || !(field instanceof HTMLElement)) return;
      const follow = () => {
        const shown = choice.value === FIRST_PASSWORD;
        field.hidden = !shown;
        password.required = shown;
      };
      choice.addEventListener('change', follow);
      follow();
    },
    check: (values) => {
      const password = withPassword(values) ? values.password : '';
      return {
        name: values.name.trim() ? '' : t('members.nameRequired'),
        email: /^\S+@\S+\.\S+$/.test(values.email.trim()) ? '' : t('members.emailInvalid'),
        password: (!member || password) && withPassword(values) && password.length < minLength ? t('members.passwordShort', { min: minLength }) : '',
      };
    },
    refusedField: (err) => (err instanceof ApiError && err.code === 'EMAIL_TAKEN' ? { name: 'email', message: t('errors.EMAIL_TAKEN') } : null),
    send: async (values) => {
      /** @type {Record<string, unknown>} */
      const body = { name: values.name.trim(), email: values.email.trim(), role: values.role, brandIds: chosenBrands() };
      if (withPassword(values) && values.password) body.password = values.password;
      const answer = member ? await call('PATCH', `/api/members/${member.id}`, body) : await call('POST', '/api/members', body);
      return /** @type {{ member: Member }} */ (answer).member;
    },
  });
}

/**
 * What a new member's page says once they are added: an invitation on its way, or a first
 * password to pass on.
 * @param {Member} created
 */
export function announceAdded(created) {
  announce(tIsolated(created.invitation ? 'members.invited' : 'members.created', { name: created.name }));
}

/**
 * Where an invitation stands, a line each: when it was sent and until when its link works, or
 * when it ran out.
 * @param {NonNullable<Member['invitation']>} invitation
 */
export function invitationLines(invitation) {
  const day = (/** @type {string} */ iso) => formatDay(iso.slice(0, 10));
  const lines = invitation.expired
    ? [t('members.expiredOn', { date: day(invitation.expiresAt) })]
    : [t('members.invitedOn', { date: day(invitation.sentAt) }), t('members.worksUntil', { date: day(invitation.expiresAt) })];
  return element(
    'span',
    { className: 'invitation-lines' },
    lines.map((text) => element('span', { text })),
  );
}

/**
 * The badge of a member still invited: "Invited", or "Invitation expired" once the link ran out.
 * @param {NonNullable<Member['invitation']>} invitation
 */
export function invitationBadge(invitation) {
  return element('span', {
    className: invitation.expired ? 'badge badge-warning' : 'badge',
    text: invitation.expired ? t('members.expiredBadge') : t('members.invitedBadge'),
  });
}

/**
 * Resend and revoke, as the server allows the viewer (the invitation's `can`). Resending
 * mails a new link at once; revoking asks first in the red modal. `onChange` gets the
 * member as the server now has them, or null once removed.
 * @param {Member} member
 * @param {{ onChange: (member: Member | null) => void, returnFocus: () => HTMLElement | null }} options
 */
export function invitationActions(member, { onChange, returnFocus }) {
  const invitation = member.invitation;
  if (!invitation) return [];
  return [
    invitation.can.resend
      ? actionButton({ text: t('members.resend'), label: t('members.resendNamed', { name: member.name }), icon: 'send', onClick: () => resend(member, onChange) })
      : null,
    invitation.can.revoke
      ? actionButton({
          text: t('members.revoke'),
          label: t('members.revokeNamed', { name: member.name }),
          icon: 'cancel',
          danger: true,
          onClick: () => revoke(member, onChange, returnFocus),
        })
      : null,
  ];
}

/**
 * @param {Member} member
 * @param {(member: Member | null) => void} onChange
 */
async function resend(member, onChange) {
  try {
    const answer = /** @type {{ member: Member }} */ (await call('POST', `/api/members/${member.id}/invitation`));
    onChange(answer.member);
    announce(tIsolated('members.resent', { name: member.name }));
  } catch (err) {
    announce(errorMessage(err));
  }
}

/**
 * @param {Member} member
 * @param {(member: Member | null) => void} onChange
 * @param {() => HTMLElement | null} returnFocus
 */
async function revoke(member, onChange, returnFocus) {
  const answer = await confirmDelete({
    title: t('members.revokeTitle'),
    message: t('members.revokeMessage', { name: member.name, email: member.email }),
    confirmText: t('members.revokeConfirm'),
    url: `/api/members/${member.id}/invitation`,
    returnFocus,
  });
  if (!answer) return;
  onChange(null);
  announce(tIsolated('members.revoked', { name: member.name }));
}
