import type { Selectable, Updateable } from 'kysely';
import { createHash, randomBytes } from 'node:crypto';
import { flag, isSet, readBack } from '../../platform/db/engine';
import type { NewMail } from '../../platform/mail/outbox';
import { writeMails } from '../mail/queue';
import type { Notices } from '../../platform/notices';
import type { Language, Role } from '../domain';
import { groupPairs, type WorkspaceDb, type WorkspaceRecords } from '../records';
import type { WorkspaceTables } from '../tables';
import type { MemberCache } from './cache';
import { outlive } from '../../platform/recent';
import { MEMBER_CONFIRM_MS, MEMBER_TOPIC, type UserRecord } from '../shared/member';

/** What this repository reads and writes, declared in the shared module for the features that only read members. */
export type { UserRecord };

export interface NewUserRecord {
  name: string;
  email: string;
  passwordHash: string;
  role: Role;
  mustChangePassword: boolean;
  brandIds: number[];
  createdAt: string;
  /** The language their mail is written in until they choose one (the database's default otherwise). */
  language?: Language;
  /** Set for a member invited by mail, who has no usable password until they accept. */
  invitedAt?: string;
}

export type UserPatch = Partial<
  Pick<UserRecord, 'name' | 'email' | 'role' | 'avatar' | 'jobTitle' | 'phone' | 'language' | 'timeZone' | 'brandIds' | 'profileCompletedAt' | 'onboardingCompletedAt'>
>;

export interface PasswordChange {
  passwordHash: string;
  mustChangePassword: boolean;
}

export type WriteRefusal = 'email-taken' | 'last-superadmin';

/** What else a password change does in its transaction. */
export interface PasswordWriteOptions {
  /** Checked first, in the transaction (a single-use link used up): false refuses the change. */
  claim?: (db: WorkspaceDb) => Promise<boolean>;
  /** Mail the change causes, written with it. */
  mails?: NewMail[];
  /** The moment the mails are queued at. */
  now?: number;
}

/** What else an invitation does in its transaction. */
export interface InvitationWriteOptions {
  /** The invitation mail, made for the member as written (their id is known only then). */
  mails: (user: UserRecord) => NewMail[];
  /** The moment the mails are queued at. */
  now: number;
  /** Whatever else ends with an older invitation (its link), in the same transaction. */
  also?: (db: WorkspaceDb) => Promise<void>;
}

export interface UserRepository {
  get(id: number): Promise<UserRecord | undefined>;
  /** The members of `ids` that exist, as committed now: read past the cache, for whoever keeps copies of their own. */
  many(ids: readonly number[]): Promise<UserRecord[]>;
  /** Members who belong to at least one of `brandIds` (every user when undefined). */
  list(brandIds: number[] | undefined): Promise<UserRecord[]>;
  count(): Promise<number>;
  credentialsByEmail(email: string): Promise<{ id: number; passwordHash: string; tokenKey: string } | undefined>;
  /** The user whose avatar is this address. */
  findByAvatar(avatar: string): Promise<UserRecord | undefined>;
  passwordHash(id: number): Promise<string | undefined>;
  /** With `invitation`, its mail is written in the same transaction. */
  create(input: NewUserRecord, invitation?: InvitationWriteOptions): Promise<UserRecord | 'email-taken'>;
  /**
   * A new invitation for a member still invited: `invitedAt` moves and its mail is written, in
   * one transaction; 'not-invited' once they have a password, undefined when there is no such member.
   */
  reinvite(id: number, invitedAt: string, invitation: InvitationWriteOptions): Promise<UserRecord | 'not-invited' | undefined>;
  /**
   * The member's own first password, which ends the invitation; 'refused' when `claim` turns it
   * down or the member is no longer invited (nothing is written then).
   */
  acceptInvitation(id: number, passwordHash: string, claim: (db: WorkspaceDb) => Promise<boolean>): Promise<UserRecord | 'refused'>;
  /** Removes a member who is still invited (and so has nothing of their own); 'not-invited' once they have a password. */
  deleteInvited(id: number): Promise<'deleted' | 'not-invited' | undefined>;
  /**
   * Refuses to take the role from the last superadmin. With `password`, also stores the new
   * hash and bumps the token version, in the same transaction.
   */
  update(id: number, patch: UserPatch, password?: PasswordChange): Promise<UserRecord | WriteRefusal | undefined>;
  /**
   * Stores a new hash and bumps the token version, so every older token stops working;
   * 'refused' when `options.claim` turns the change down (nothing is written then).
   */
  setPassword(id: number, change: PasswordChange, options?: PasswordWriteOptions): Promise<UserRecord | 'refused' | undefined>;
  bumpTokenVersion(id: number): Promise<void>;
  /** Refuses to delete the last superadmin; the user's content stays with no owner. */
  delete(id: number): Promise<'deleted' | 'last-superadmin' | undefined>;
}

type Row = Selectable<WorkspaceTables['users']>;

/** The columns a patch sets (its brands are rows of their own); what it leaves undefined is not written. */
function memberChange(patch: UserPatch): Updateable<WorkspaceTables['users']> {
  return {
    name: patch.name,
    email: patch.email,
    role: patch.role,
    avatar: patch.avatar,
    job_title: patch.jobTitle,
    phone: patch.phone,
    language: patch.language,
    time_zone: patch.timeZone,
    profile_completed_at: patch.profileCompletedAt,
    onboarding_completed_at: patch.onboardingCompletedAt,
  };
}

function toRecord(row: Row, brandIds: number[]): UserRecord {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    avatar: row.avatar,
    jobTitle: row.job_title,
    phone: row.phone,
    language: row.language,
    mustChangePassword: isSet(row.must_change_password),
    profileCompletedAt: row.profile_completed_at,
    onboardingCompletedAt: row.onboarding_completed_at,
    tokenVersion: row.token_version,
    tokenKey: row.token_key,
    passwordStamp: createHash('sha256').update(row.password_hash).digest('base64url').slice(0, 22),
    createdAt: row.created_at,
    invitedAt: row.invited_at,
    timeZone: row.time_zone,
    brandIds,
  };
}

const COLUMNS = [
  'id',
  'name',
  'email',
  'role',
  'avatar',
  'job_title',
  'phone',
  'language',
  'must_change_password',
  'profile_completed_at',
  'onboarding_completed_at',
  'token_version',
  'token_key',
  'password_hash',
  'created_at',
  'invited_at',
  'time_zone',
] as const;

export class SqlUserRepository implements UserRepository {
  constructor(
    private readonly records: WorkspaceRecords,
    private readonly cache: MemberCache,
    private readonly notices: Notices,
  ) {}

  async get(id: number) {
    return this.cache.read(id, () => readUser(this.records.db, id));
  }

  async many(ids: readonly number[]) {
    if (ids.length === 0) return [];
    const { db } = this.records;
    const rows = await db.selectFrom('users').select(COLUMNS).where('id', 'in', [...ids]).execute();
    const brands = await brandsOf(db, rows.map((r) => r.id));
    return rows.map((row) => toRecord(row, brands.get(row.id) ?? []));
  }

  async list(brandIds: number[] | undefined) {
    if (brandIds !== undefined && brandIds.length === 0) return [];
    const { db } = this.records;
    const rows = await db
      .selectFrom('users')
      .select(COLUMNS)
      .$call((q) => (brandIds === undefined ? q : q.where('id', 'in', db.selectFrom('user_brands').select('user_id').where('brand_id', 'in', brandIds))))
      .orderBy('name')
      .orderBy('id')
      .execute();
    const brands = await brandsOf(db, rows.map((r) => r.id));
    return rows.map((row) => toRecord(row, brands.get(row.id) ?? []));
  }

  async count() {
    const row = await this.records.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return row.n;
  }

  async credentialsByEmail(email: string) {
    return this.records.db
      .selectFrom('users')
      .select(['id', 'password_hash as passwordHash', 'token_key as tokenKey'])
      .where('email', '=', email)
      .executeTakeFirst();
  }

  async findByAvatar(avatar: string) {
    const row = await this.records.db.selectFrom('users').select('id').where('avatar', '=', avatar).executeTakeFirst();
    return row === undefined ? undefined : this.get(row.id);
  }

  async passwordHash(id: number) {
    return (await this.records.db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst())?.password_hash;
  }

  async create(input: NewUserRecord, invitation?: InvitationWriteOptions) {
    try {
      return await this.records.db.transaction().execute(async (trx) => {
        const { id } = await trx
          .insertInto('users')
          .values({
            name: input.name,
            email: input.email,
            password_hash: input.passwordHash,
            role: input.role,
            must_change_password: flag(input.mustChangePassword),
            created_at: input.createdAt,
            token_key: randomBytes(16).toString('hex'),
            ...(input.language === undefined ? {} : { language: input.language }),
            invited_at: input.invitedAt ?? null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await setBrands(trx, id, input.brandIds);
        const created = readBack(await readUser(trx, id), `Member ${id}`);
        if (invitation) await writeMails(trx, invitation.mails(created), invitation.now);
        return created;
      });
    } catch (err) {
      if (this.records.engine.isUniqueViolation(err)) return 'email-taken' as const;
      throw err;
    }
  }

  async update(id: number, patch: UserPatch, password?: PasswordChange) {
    let result: UserRecord | WriteRefusal | undefined;
    try {
      result = await this.records.db.transaction().execute(async (trx): Promise<UserRecord | WriteRefusal | undefined> => {
        const current = await readUser(trx, id);
        if (!current) return undefined;
        if (patch.role !== undefined && patch.role !== 'superadmin' && isActingSuperadmin(current) && (await superadmins(trx, this.records.engine.locksRows)) <= 1) {
          return 'last-superadmin';
        }
        const set = memberChange(patch);
        // The fields a patch leaves out are there, undefined, which Object.values's type leaves out.
        if (Object.values<unknown>(set).some((value) => value !== undefined)) await trx.updateTable('users').set(set).where('id', '=', id).execute();
        if (patch.brandIds !== undefined) await setBrands(trx, id, patch.brandIds);
        if (password) await writePassword(trx, id, password);
        return readUser(trx, id);
      });
    } catch (err) {
      if (this.records.engine.isUniqueViolation(err)) return 'email-taken' as const;
      throw err;
    }
    if (typeof result === 'object') await this.changed(id);
    return result;
  }

  async setPassword(id: number, change: PasswordChange, options: PasswordWriteOptions = {}) {
    const written = await this.records.db.transaction().execute(async (trx) => {
      if (options.claim && !(await options.claim(trx))) return false;
      await writePassword(trx, id, change);
      await writeMails(trx, options.mails ?? [], options.now ?? Date.now());
      return true;
    });
    if (!written) return 'refused' as const;
    await this.changed(id);
    return this.get(id);
  }

  async reinvite(id: number, invitedAt: string, invitation: InvitationWriteOptions) {
    const result = await this.records.db.transaction().execute(async (trx): Promise<UserRecord | 'not-invited' | undefined> => {
      const updated = await trx.updateTable('users').set({ invited_at: invitedAt }).where('id', '=', id).where('invited_at', 'is not', null).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return (await readUser(trx, id)) ? 'not-invited' : undefined;
      await invitation.also?.(trx);
      const user = readBack(await readUser(trx, id), `Member ${id}`);
      await writeMails(trx, invitation.mails(user), invitation.now);
      return user;
    });
    if (typeof result === 'object') await this.changed(id);
    return result;
  }

  async acceptInvitation(id: number, passwordHash: string, claim: (db: WorkspaceDb) => Promise<boolean>) {
    const accepted = await this.records.db
      .transaction()
      .execute(async (trx) => {
        if (!(await claim(trx))) return false;
        // The member may have been removed, or given a password another way, since the link was made.
        const updated = await trx
          .updateTable('users')
          .set((eb) => ({ password_hash: passwordHash, must_change_password: flag(false), invited_at: null, token_version: eb('token_version', '+', 1) }))
          .where('id', '=', id)
          .where('invited_at', 'is not', null)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) throw new NotInvited();
        return true;
      })
      .catch((err: unknown) => {
        if (err instanceof NotInvited) return false;
        throw err;
      });
    if (!accepted) return 'refused' as const;
    await this.changed(id);
    return (await this.get(id)) ?? ('refused' as const);
  }

  async deleteInvited(id: number) {
    const deleted = await this.records.db.deleteFrom('users').where('id', '=', id).where('invited_at', 'is not', null).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return (await readUser(this.records.db, id)) ? ('not-invited' as const) : undefined;
    await this.changed(id);
    return 'deleted' as const;
  }

  async bumpTokenVersion(id: number) {
    await this.records.db
      .updateTable('users')
      .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
      .where('id', '=', id)
      .execute();
    await this.changed(id);
  }

  async delete(id: number) {
    const result = await this.records.db.transaction().execute(async (trx): Promise<'deleted' | 'last-superadmin' | undefined> => {
      const current = await readUser(trx, id);
      if (!current) return undefined;
      if (isActingSuperadmin(current) && (await superadmins(trx, this.records.engine.locksRows)) <= 1) return 'last-superadmin';
      // Another deletion of the same member may have come first meanwhile.
      const deleted = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0 ? 'deleted' : undefined;
    });
    if (result === 'deleted') await this.changed(id);
    return result;
  }

  /**
   * After the commit, so that no instance reloads the record as it was before. A notice that
   * cannot be sent delays the answer until every instance has read the member again, so a
   * change is in force everywhere once it is answered, and never answered 503 once committed.
   */
  private async changed(id: number): Promise<void> {
    const since = Date.now();
    if (!(await this.notices.publish({ topic: MEMBER_TOPIC, id }))) await outlive(since, MEMBER_CONFIRM_MS);
  }
}

/** Rolls back an acceptance whose member is no longer invited. */
class NotInvited extends Error {}

/** One member with their brands. */
async function readUser(db: WorkspaceDb, id: number): Promise<UserRecord | undefined> {
  const row = await db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const brandIds = Object.freeze((await brandsOf(db, [id])).get(id) ?? []) as number[];
  // Records are shared by every request that reads them from the cache.
  return Object.freeze(toRecord(row, brandIds));
}

/** A password set any way (a reset by mail or by a superadmin) also ends an invitation: the member can sign in. */
async function writePassword(db: WorkspaceDb, id: number, change: PasswordChange): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({ password_hash: change.passwordHash, must_change_password: flag(change.mustChangePassword), invited_at: null, token_version: eb('token_version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/** A superadmin who can sign in: one still invited may never accept, so they keep nobody in charge. */
function isActingSuperadmin(user: UserRecord): boolean {
  return user.role === 'superadmin' && user.invitedAt === null;
}

/**
 * How many superadmins can sign in. `lock` holds their rows to the end of the transaction, so
 * that two transactions that each demote or delete one cannot both count two and pass.
 */
async function superadmins(db: WorkspaceDb, lock: boolean): Promise<number> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'superadmin')
    .where('invited_at', 'is', null)
    .$if(lock, (q) => q.forUpdate())
    .execute();
  return rows.length;
}

async function brandsOf(db: WorkspaceDb, userIds: number[]): Promise<Map<number, number[]>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('user_brands')
    .select(['user_id', 'brand_id'])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('brand_id')
    .execute();
  return groupPairs(rows.map((r) => [r.user_id, r.brand_id] as const));
}

async function setBrands(db: WorkspaceDb, userId: number, brandIds: number[]): Promise<void> {
  await db.deleteFrom('user_brands').where('user_id', '=', userId).execute();
  const unique = [...new Set(brandIds)];
  if (unique.length > 0) await db.insertInto('user_brands').values(unique.map((brandId) => ({ user_id: userId, brand_id: brandId }))).execute();
}
