import { BadRequest, Conflict, Forbidden, NotFound } from '../../platform/errors';
import { brandScope, canSeeBrand, isManagerOrAbove, isSuperadmin, requireRole, type Actor } from '../access';
import { ROLES, type Language, type Role } from '../domain';
import type { Clock } from '../../platform/clock';
import { hashPassword, unusablePasswordHash } from './passwords';
import type { BrandRepository } from '../brands/repository';
import type { MailQueue } from '../mail/queue';
import { invitationOf, mayManageInvitation, seesInvitations, type InvitationBody, type InvitationLinks } from './invitations';
import type { UserRepository } from './repository';
import type { ChangeFeed } from '../events/changes';
import { isoTime } from '../shared/values';
import type { UserRecord } from '../shared/member';

/** Managers and superadmins add members. */
export function mayAddMembers(actor: Actor): boolean {
  return isManagerOrAbove(actor);
}

/** The roles `actor` gives a new member: a superadmin any, a manager contributors only, others none. */
export function rolesGivenBy(actor: Actor): Role[] {
  if (isSuperadmin(actor)) return [...ROLES];
  return mayAddMembers(actor) ? ['contributor'] : [];
}

/** What any API shows of a user: never the hash, the token version or the token key. */
export type UserBody = Omit<UserRecord, 'tokenVersion' | 'tokenKey' | 'passwordStamp' | 'profileCompletedAt' | 'onboardingCompletedAt' | 'invitedAt'> & {
  profileCompleted: boolean;
  onboardingCompleted: boolean;
};

export function toUserBody(user: UserRecord): UserBody {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    avatar: user.avatar,
    jobTitle: user.jobTitle,
    phone: user.phone,
    language: user.language,
    timeZone: user.timeZone,
    mustChangePassword: user.mustChangePassword,
    profileCompleted: user.profileCompletedAt !== null,
    onboardingCompleted: user.onboardingCompletedAt !== null,
    brandIds: user.brandIds,
    createdAt: user.createdAt,
  };
}

/** A member as the team lists them: their pending invitation too, for whoever looks after it. */
export type MemberBody = UserBody & { invitation: InvitationBody | null };

export function toMemberBody(actor: Actor, user: UserRecord, now: number): MemberBody {
  return { ...toUserBody(user), invitation: invitationOf(actor, user, now) };
}

/**
 * The cookie sessions that end with a member's password or account. Ending them is tidying
 * up: a session of a deleted member finds nobody, and one opened under an older password is
 * refused by its password stamp, whether or not this reached the store.
 */
export interface SessionRevoker {
  /** Ends every cookie session of one user, except `keepSid` when given. */
  endUserSessions(userId: number, keepSid?: string): Promise<void>;
  /** Tells whatever was opened under one cookie session (a live stream) that the session was ended by its user. */
  sessionEnded?(userId: number, sid: string): Promise<void>;
}

export interface NewMember {
  name: string;
  email: string;
  /** A first password to pass on by hand; without one, the member is invited by mail. */
  password?: string;
  role: Role;
  brandIds?: number[];
  /** Their mail's language until they choose one; the creator's by default. */
  language?: Language;
}

export interface MemberChange {
  name?: string;
  email?: string;
  role?: Role;
  brandIds?: number[];
  /** A reset by a superadmin: the member must choose a new one at next sign-in. */
  password?: string;
}

export class MembersService {
  constructor(
    private readonly deps: { users: UserRepository; brands: BrandRepository; sessions: SessionRevoker; clock: Clock; mail: MailQueue; links: InvitationLinks; live: ChangeFeed },
  ) {}

  /**
   * The team: everyone sharing a brand with the actor (a superadmin sees every user). Members
   * still invited are listed for managers and superadmins only.
   */
  async list(actor: Actor): Promise<MemberBody[]> {
    const scope = brandScope(actor);
    const users = await this.deps.users.list(scope);
    const self = users.some((u) => u.id === actor.id) ? [] : [await this.deps.users.get(actor.id)];
    const now = this.deps.clock.now();
    return [...users, ...self]
      .filter((u): u is UserRecord => u !== undefined && (u.invitedAt === null || seesInvitations(actor)))
      .map((u) => toMemberBody(actor, u, now));
  }

  /**
   * A superadmin creates any role in any brand; a manager only contributors, only in the
   * manager's own brands. Given a first password, the member must change it at first sign-in;
   * without one, they are invited: the invitation mail is queued with the member, and they
   * choose their own password through its link.
   */
  async create(actor: Actor, input: NewMember): Promise<MemberBody> {
    requireRole(actor, mayAddMembers, 'Only managers and superadmins add members');
    const brandIds = input.brandIds ?? actor.brandIds;
    if (!isSuperadmin(actor)) {
      if (!rolesGivenBy(actor).includes(input.role)) throw new Forbidden('A manager may only add contributors', 'FORBIDDEN_ROLE');
      if (brandIds.length === 0) throw new BadRequest('A new member needs at least one brand', 'BRAND_REQUIRED');
      if (brandIds.some((id) => !actor.brandIds.includes(id))) throw new Forbidden('A manager may only add members to own brands', 'FORBIDDEN_BRAND');
    }
    await this.assertBrandsExist(brandIds);
    const now = this.deps.clock.now();
    const at = isoTime(now);
    const invited = input.password === undefined;
    const created = await this.deps.users.create(
      {
        name: input.name,
        email: input.email,
        passwordHash: input.password === undefined ? await unusablePasswordHash() : await hashPassword(input.password),
        role: input.role,
        mustChangePassword: !invited,
        brandIds,
        createdAt: at,
        language: input.language ?? (await this.deps.users.get(actor.id))?.language,
        ...(invited ? { invitedAt: at } : {}),
      },
      invited ? { mails: (user) => [this.deps.mail.mail('invitation', user, { invitedBy: actor.id, invitedAt: at })], now } : undefined,
    );
    if (created === 'email-taken') throw emailTaken();
    return toMemberBody(actor, created, now);
  }

  /** A first password given to a member still invited ends the invitation: they sign in with it instead. */
  async update(actor: Actor, id: number, change: MemberChange): Promise<MemberBody> {
    requireRole(actor, isSuperadmin, 'Only a superadmin changes members');
    if (change.brandIds) await this.assertBrandsExist(change.brandIds);
    const { password, ...patch } = change;
    const reset = password === undefined ? undefined : { passwordHash: await hashPassword(password), mustChangePassword: true };
    const before = await this.deps.users.get(id);
    const updated = await this.deps.users.update(id, patch, reset);
    if (updated === undefined) throw new NotFound('No such member');
    if (updated === 'email-taken') throw emailTaken();
    if (updated === 'last-superadmin') throw lastSuperadmin();
    if (reset) await this.deps.sessions.endUserSessions(id);
    await this.deps.live.publish({ type: 'member', id, reason: accessChange(before, updated), by: actor.id });
    return toMemberBody(actor, updated, this.deps.clock.now());
  }

  /** The member's campaigns and posts stay, with no owner. */
  async remove(actor: Actor, id: number): Promise<void> {
    if (id === actor.id) throw new BadRequest('You cannot delete your own account', 'CANNOT_DELETE_SELF');
    requireRole(actor, isSuperadmin, 'Only a superadmin deletes members');
    const result = await this.deps.users.delete(id);
    if (!result) throw new NotFound('No such member');
    if (result === 'last-superadmin') throw lastSuperadmin();
    await this.deps.live.publish({ type: 'member', id, by: actor.id });
  }

  /** A new invitation mail with a new link; the older link stops working at once. */
  async resendInvitation(actor: Actor, id: number): Promise<MemberBody> {
    await this.invited(actor, id);
    const now = this.deps.clock.now();
    const invitedAt = isoTime(now);
    const result = await this.deps.users.reinvite(id, invitedAt, {
      mails: (user) => [this.deps.mail.mail('invitation', user, { invitedBy: actor.id, invitedAt })],
      now,
      also: (db) => this.deps.links.retire(id, 'invitation', db),
    });
    if (result === undefined) throw noSuchMember();
    if (result === 'not-invited') throw notInvited();
    return toMemberBody(actor, result, now);
  }

  /**
   * Withdraws an invitation: its link dies and the member, who never signed in and so has
   * nothing of their own, is removed, which leaves the address free to be invited again.
   */
  async revokeInvitation(actor: Actor, id: number): Promise<void> {
    await this.invited(actor, id);
    const result = await this.deps.users.deleteInvited(id);
    if (result === undefined) throw noSuchMember();
    if (result === 'not-invited') throw notInvited();
  }

  /**
   * A member whose invitation the actor may look after: one the actor cannot see answers as
   * a missing one; one who already joined, 409.
   */
  private async invited(actor: Actor, id: number): Promise<UserRecord> {
    requireRole(actor, isManagerOrAbove, 'Only managers and superadmins look after invitations');
    const member = await this.deps.users.get(id);
    if (!member || !(isSuperadmin(actor) || member.brandIds.some((brandId) => canSeeBrand(actor, brandId)))) throw noSuchMember();
    if (!mayManageInvitation(actor, member)) throw new Forbidden('A manager looks after the invitations of contributors of their own brands only', 'FORBIDDEN_MEMBER');
    if (member.invitedAt === null) throw notInvited();
    return member;
  }

  private async assertBrandsExist(ids: number[]): Promise<void> {
    const found = new Set(await this.deps.brands.existing(ids));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new NotFound('No such brand', 'UNKNOWN_BRAND');
  }
}

/** How a change touches what a member may see: their role first, else their brands. */
function accessChange(before: UserRecord | undefined, after: UserRecord): 'role' | 'brands' | undefined {
  if (before?.role !== after.role) return 'role';
  const same = before.brandIds.length === after.brandIds.length && before.brandIds.every((id) => after.brandIds.includes(id));
  return same ? undefined : 'brands';
}

function noSuchMember() {
  return new NotFound('No such member');
}

function notInvited() {
  return new Conflict('This member has already joined: there is no invitation to change', 'NOT_INVITED');
}

function emailTaken() {
  return new Conflict('This email is already in use', 'EMAIL_TAKEN');
}

function lastSuperadmin() {
  return new Conflict('The last superadmin must stay a superadmin', 'LAST_SUPERADMIN');
}
