// The team: everyone who shares a brand with the user. Those the server lets add members do so
// here, and see those invited who have not joined yet in a list of their own, as Plane shows them.
import { element, findElement, requireElement } from '../core/dom.js';
import { t } from '../core/i18n.js';
import { avatar, call, can, errorMessage, me } from './common.js';
import { announceAdded, invitationActions, invitationBadge, invitationLines, memberDialog } from './members.js';

/** @typedef {import('./common.js').Member} Member */
/** @typedef {import('./common.js').Brand} Brand */

const grid = requireElement('[data-team]', HTMLElement);
const state = requireElement('[data-state]', HTMLElement);
const invitedSection = requireElement('[data-invited]', HTMLElement);
const invitedList = requireElement('[data-invited-list]', HTMLElement);
/** @type {Member[]} */
let members = [];
/** @type {Brand[]} */
let brands = [];

/** @param {Member} member */
function memberCard(member) {
  const brandNames = brands.filter((b) => member.brandIds.includes(b.id)).map((b) => b.name);
  return element('li', { className: 'record team-card', 'data-member-id': member.id }, [
    element('div', { className: 'person' }, [
      avatar(member, 'medium'),
      element('div', { className: 'person-text' }, [
        element('span', { className: 'person-name', text: member.id === me.id ? t('common.you', { name: member.name }) : member.name }),
        element('span', { className: 'person-sub', text: member.jobTitle ?? t('team.noJobTitle') }),
      ]),
    ]),
    element('p', { className: 'record-meta' }, [
      element('span', { className: `badge role-badge role-${member.role}`, text: t(`role.${member.role}`) }),
      ...(brands.length > 1 ? brandNames.map((name) => element('span', { className: 'badge badge-muted', text: name })) : []),
    ]),
    element('p', { className: 'record-meta' }, [
      element('a', { href: `mailto:${member.email}`, dir: 'ltr', text: member.email }),
      member.phone ? element('a', { href: `tel:${member.phone.replace(/[^+0-9]/g, '')}`, dir: 'ltr', text: member.phone }) : null,
    ]),
  ]);
}

/** @param {Member} member */
function invitedCard(member) {
  const invitation = /** @type {NonNullable<Member['invitation']>} */ (member.invitation);
  return element('li', { className: 'record team-card', 'data-member-id': member.id }, [
    element('div', { className: 'person' }, [
      avatar(member, 'medium'),
      element('div', { className: 'person-text' }, [
        element('span', { className: 'person-name', text: member.name }),
        element('span', { className: 'person-sub', dir: 'ltr', text: member.email }),
      ]),
    ]),
    element('p', { className: 'record-meta' }, [
      invitationBadge(invitation),
      element('span', { className: `badge role-badge role-${member.role}`, text: t(`role.${member.role}`) }),
    ]),
    element('p', { className: 'record-meta' }, [invitationLines(invitation)]),
    element('div', { className: 'record-actions' }, invitationActions(member, { onChange: (saved) => invitationChanged(member, saved), returnFocus: () => findElement('[data-new-member]', HTMLElement) })),
  ]);
}

/**
 * @param {Member} member
 * @param {Member | null} saved the member after a resend, or null once the invitation is revoked
 */
function invitationChanged(member, saved) {
  members = saved ? members.map((m) => (m.id === member.id ? saved : m)) : members.filter((m) => m.id !== member.id);
  render();
}

function render() {
  const joined = members.filter((m) => !m.invitation);
  const invited = members.filter((m) => m.invitation);
  grid.replaceChildren(...joined.map(memberCard));
  invitedList.replaceChildren(...invited.map(invitedCard));
  invitedSection.hidden = invited.length === 0;
  state.textContent = members.length ? '' : t('team.empty');
}

async function load() {
  try {
    const [m, b] = /** @type {[{ members: Member[] }, { brands: Brand[] }]} */ (await Promise.all([call('GET', '/api/members'), call('GET', '/api/brands')]));
    members = m.members;
    brands = b.brands;
    render();
  } catch (err) {
    state.textContent = errorMessage(err);
  } finally {
    grid.setAttribute('aria-busy', 'false');
  }
}

async function addMember() {
  if (!can.addMembers) return;
  const ownBrands = brands.filter((b) => me.brandIds.includes(b.id));
  const created = await memberDialog(null, { brands: ownBrands, defaultBrandIds: me.brandIds });
  if (!created) return;
  members = [...members, created].sort((a, b) => a.name.localeCompare(b.name));
  render();
  announceAdded(created);
}

findElement('[data-new-member]', HTMLButtonElement)?.addEventListener('click', () => void addMember());

await load();
