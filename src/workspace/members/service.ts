import { BadRequest, Conflict, Forbidden, NotFound } from '../../platform/errors';
import { brandScope, isManagerOrAbove, isoTime, isSuperadmin, requireRole, type Actor } from '../access';
import type { Role } from '../domain';
import type { Clock } from '../../platform/clock';
import { hashPassword } from './passwords';
import type { BrandRepository } from '../brands/repository';
import type { UserRecord, UserRepository } from './repository';

/** What any API shows of a user: never the hash, the token version or the token key. */
export type UserBody = Omit<UserRecord, 'tokenVersion' | 'tokenKey' | 'profileCompletedAt' | 'onboardingCompletedAt'> & {
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

/** The cookie sessions that end with a member's password or account. */
export interface SessionRevoker {
  /** Ends every cookie session of one user, except `keepSid` when given. */
  endUserSessions(userId: number, keepSid?: string): Promise<void>;
}

export interface NewMember {
  name: string;
  email: string;
  password: string;
  role: Role;
  brandIds?: number[];
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
    private readonly deps: { users: UserRepository; brands: BrandRepository; sessions: SessionRevoker; clock: Clock },
  ) {}

  /** The team: everyone sharing a brand with the actor (a superadmin sees every user). */
  async list(actor: Actor): Promise<UserBody[]> {
    const scope = brandScope(actor);
    const users = await this.deps.users.list(scope);
    const self = users.some((u) => u.id === actor.id) ? [] : [await this.deps.users.get(actor.id)];
    return [...users, ...self].filter((u): u is UserRecord => u !== undefined).map(toUserBody);
  }

  /**
   * A superadmin creates any role in any brand; a manager only contributors, only in the
   * manager's own brands. Whoever is created must change the password at first sign-in.
   */
  async create(actor: Actor, input: NewMember): Promise<UserBody> {
    requireRole(actor, isManagerOrAbove, 'Only managers and superadmins add members');
    const brandIds = input.brandIds ?? actor.brandIds;
    if (!isSuperadmin(actor)) {
      if (input.role !== 'contributor') throw new Forbidden('A manager may only add contributors', 'FORBIDDEN_ROLE');
      if (brandIds.length === 0) throw new BadRequest('A new member needs at least one brand', 'BRAND_REQUIRED');
      if (brandIds.some((id) => !actor.brandIds.includes(id))) throw new Forbidden('A manager may only add members to own brands', 'FORBIDDEN_BRAND');
    }
    await this.assertBrandsExist(brandIds);
    const created = await this.deps.users.create({
      name: input.name,
      email: input.email,
      passwordHash: await hashPassword(input.password),
      role: input.role,
      mustChangePassword: true,
      brandIds,
      createdAt: isoTime(this.deps.clock.now()),
    });
    if (created === 'email-taken') throw emailTaken();
    return toUserBody(created);
  }

  async update(actor: Actor, id: number, change: MemberChange): Promise<UserBody> {
    requireRole(actor, isSuperadmin, 'Only a superadmin changes members');
    if (change.brandIds) await this.assertBrandsExist(change.brandIds);
    const { password, ...patch } = change;
    const reset = password === undefined ? undefined : { passwordHash: await hashPassword(password), mustChangePassword: true };
    const updated = await this.deps.users.update(id, patch, reset);
    if (updated === undefined) throw new NotFound('No such member');
    if (updated === 'email-taken') throw emailTaken();
    if (updated === 'last-superadmin') throw lastSuperadmin();
    if (reset) await this.deps.sessions.endUserSessions(id);
    return toUserBody(updated);
  }

  /** The member's campaigns and posts stay, with no owner. */
  async remove(actor: Actor, id: number): Promise<void> {
    if (id === actor.id) throw new BadRequest('You cannot delete your own account', 'CANNOT_DELETE_SELF');
    requireRole(actor, isSuperadmin, 'Only a superadmin deletes members');
    const result = await this.deps.users.delete(id);
    if (!result) throw new NotFound('No such member');
    if (result === 'last-superadmin') throw lastSuperadmin();
  }

  private async assertBrandsExist(ids: number[]): Promise<void> {
    const found = new Set(await this.deps.brands.existing(ids));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new NotFound('No such brand', 'UNKNOWN_BRAND');
  }
}

function emailTaken() {
  return new Conflict('This email is already in use', 'EMAIL_TAKEN');
}

function lastSuperadmin() {
  return new Conflict('The last superadmin must stay a superadmin', 'LAST_SUPERADMIN');
}
