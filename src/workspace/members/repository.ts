import { randomBytes } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import { isUniqueViolation, type Db } from '../../platform/sqlite';
import type { Role } from '../domain';
import { assignments, groupPairs, inList } from '../sql';

export type Language = 'en' | 'ar';

/** A workspace user as stored, without the password hash (that has its own readers). */
export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: Role;
  avatar: string | null;
  jobTitle: string | null;
  phone: string | null;
  language: Language;
  mustChangePassword: boolean;
  profileCompletedAt: string | null;
  onboardingCompletedAt: string | null;
  tokenVersion: number;
  /**
   * Random and this member's alone, for good: tokens and cookie sessions carry it besides
   * the id, so they can never come to speak for another member.
   */
  tokenKey: string;
  createdAt: string;
  brandIds: number[];
}

export interface NewUserRecord {
  name: string;
  email: string;
  passwordHash: string;
  role: Role;
  mustChangePassword: boolean;
  brandIds: number[];
  createdAt: string;
}

export type UserPatch = Partial<
  Pick<UserRecord, 'name' | 'email' | 'role' | 'avatar' | 'jobTitle' | 'phone' | 'language' | 'brandIds' | 'profileCompletedAt' | 'onboardingCompletedAt'>
>;

export interface PasswordChange {
  passwordHash: string;
  mustChangePassword: boolean;
}

export type WriteRefusal = 'email-taken' | 'last-superadmin';

export interface UserRepository {
  get(id: number): Promise<UserRecord | undefined>;
  /** Members who belong to at least one of `brandIds` (every user when undefined). */
  list(brandIds: number[] | undefined): Promise<UserRecord[]>;
  count(): Promise<number>;
  credentialsByEmail(email: string): Promise<{ id: number; passwordHash: string; tokenKey: string } | undefined>;
  /** The user whose avatar is this address. */
  findByAvatar(avatar: string): Promise<UserRecord | undefined>;
  passwordHash(id: number): Promise<string | undefined>;
  create(input: NewUserRecord): Promise<UserRecord | 'email-taken'>;
  /**
   * Refuses to take the role from the last superadmin. With `password`, also stores the new
   * hash and bumps the token version, in the same transaction.
   */
  update(id: number, patch: UserPatch, password?: PasswordChange): Promise<UserRecord | WriteRefusal | undefined>;
  /** Stores a new hash and bumps the token version, so every older token stops working. */
  setPassword(id: number, change: PasswordChange): Promise<UserRecord | undefined>;
  bumpTokenVersion(id: number): Promise<void>;
  /** Refuses to delete the last superadmin; the user's content stays with no owner. */
  delete(id: number): Promise<'deleted' | 'last-superadmin' | undefined>;
}

interface Row {
  id: number;
  name: string;
  email: string;
  role: Role;
  avatar: string | null;
  job_title: string | null;
  phone: string | null;
  language: Language;
  must_change_password: number;
  profile_completed_at: string | null;
  onboarding_completed_at: string | null;
  token_version: number;
  token_key: string;
  created_at: string;
}

const COLUMNS =
  'id, name, email, role, avatar, job_title, phone, language, must_change_password, profile_completed_at, onboarding_completed_at, token_version, token_key, created_at';

const PATCH_COLUMNS: { [K in keyof UserPatch]?: string } = {
  name: 'name',
  email: 'email',
  role: 'role',
  avatar: 'avatar',
  jobTitle: 'job_title',
  phone: 'phone',
  language: 'language',
  profileCompletedAt: 'profile_completed_at',
  onboardingCompletedAt: 'onboarding_completed_at',
};

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
    mustChangePassword: row.must_change_password === 1,
    profileCompletedAt: row.profile_completed_at,
    onboardingCompletedAt: row.onboarding_completed_at,
    tokenVersion: row.token_version,
    tokenKey: row.token_key,
    createdAt: row.created_at,
    brandIds,
  };
}

const recordCaches = new WeakMap<Db, Map<number, UserRecord>>();

/**
 * Committed user records by id, one map per database, shared by every repository on it.
 * TEMP triggers drop a record whenever this connection changes its row or its brands,
 * whichever code does it, foreign-key cascades included. That is all it takes because the
 * server's one connection is the database's only writer; several instances on a shared
 * database would need a shared cache or none.
 */
function recordCache(db: Db): Map<number, UserRecord> {
  const cache = recordCaches.get(db);
  if (cache) return cache;
  const records = new Map<number, UserRecord>();
  db.function('forget_workspace_user', { deterministic: false }, (id) => {
    records.delete(Number(id));
    return null;
  });
  db.exec(`
    CREATE TEMP TRIGGER forget_user_updated AFTER UPDATE ON main.users
      BEGIN SELECT forget_workspace_user(OLD.id), forget_workspace_user(NEW.id); END;
    CREATE TEMP TRIGGER forget_user_deleted AFTER DELETE ON main.users
      BEGIN SELECT forget_workspace_user(OLD.id); END;
    CREATE TEMP TRIGGER forget_user_brand_added AFTER INSERT ON main.user_brands
      BEGIN SELECT forget_workspace_user(NEW.user_id); END;
    CREATE TEMP TRIGGER forget_user_brand_removed AFTER DELETE ON main.user_brands
      BEGIN SELECT forget_workspace_user(OLD.user_id); END;
    CREATE TEMP TRIGGER forget_user_brand_changed AFTER UPDATE ON main.user_brands
      BEGIN SELECT forget_workspace_user(OLD.user_id), forget_workspace_user(NEW.user_id); END;
  `);
  recordCaches.set(db, records);
  return records;
}

export class SqliteUserRepository implements UserRepository {
  private readonly byId: Statement<[number], Row & { brand_ids: string | null }>;
  /**
   * Every signed-in request reads its user, and under load that read (a read transaction's
   * locks, the brands subquery, a new object) cost more than all the rest of the request.
   */
  private readonly records: Map<number, UserRecord>;

  constructor(private readonly db: Db) {
    this.byId = db.prepare(
      `SELECT ${COLUMNS}, (SELECT group_concat(brand_id ORDER BY brand_id) FROM user_brands WHERE user_id = users.id) AS brand_ids FROM users WHERE id = ?`,
    );
    this.records = recordCache(db);
  }

  async get(id: number) {
    return this.read(id);
  }

  async list(brandIds: number[] | undefined) {
    let rows: Row[];
    if (brandIds === undefined) {
      rows = this.db.prepare(`SELECT ${COLUMNS} FROM users ORDER BY name, id`).all() as Row[];
    } else if (brandIds.length === 0) {
      rows = [];
    } else {
      rows = this.db
        .prepare(
          `SELECT ${COLUMNS} FROM users WHERE id IN (SELECT user_id FROM user_brands WHERE brand_id IN ${inList(brandIds)}) ORDER BY name, id`,
        )
        .all(...brandIds) as Row[];
    }
    const brands = this.brandsOf(rows.map((r) => r.id));
    return rows.map((row) => toRecord(row, brands.get(row.id) ?? []));
  }

  async count() {
    return this.db.prepare('SELECT COUNT(*) FROM users').pluck().get() as number;
  }

  async credentialsByEmail(email: string) {
    return this.db.prepare('SELECT id, password_hash AS passwordHash, token_key AS tokenKey FROM users WHERE email = ?').get(email) as
      | { id: number; passwordHash: string; tokenKey: string }
      | undefined;
  }

  async findByAvatar(avatar: string) {
    const id = this.db.prepare('SELECT id FROM users WHERE avatar = ?').pluck().get(avatar) as number | undefined;
    return id === undefined ? undefined : this.read(id);
  }

  async passwordHash(id: number) {
    return this.db.prepare('SELECT password_hash FROM users WHERE id = ?').pluck().get(id) as string | undefined;
  }

  async create(input: NewUserRecord) {
    try {
      return this.db.transaction(() => {
        const { id } = this.db
          .prepare(
            'INSERT INTO users (name, email, password_hash, role, must_change_password, created_at, token_key) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
          )
          .get(input.name, input.email, input.passwordHash, input.role, input.mustChangePassword ? 1 : 0, input.createdAt, randomBytes(16).toString('hex')) as {
          id: number;
        };
        this.setBrands(id, input.brandIds);
        return this.read(id)!;
      })();
    } catch (err) {
      if (isUniqueViolation(err)) return 'email-taken' as const;
      throw err;
    }
  }

  async update(id: number, patch: UserPatch, password?: PasswordChange) {
    try {
      return this.db.transaction((): UserRecord | WriteRefusal | undefined => {
        const current = this.read(id);
        if (!current) return undefined;
        if (patch.role !== undefined && patch.role !== 'superadmin' && current.role === 'superadmin' && this.superadmins() <= 1) {
          return 'last-superadmin';
        }
        const set = assignments(patch, PATCH_COLUMNS);
        if (set.sql) this.db.prepare(`UPDATE users SET ${set.sql} WHERE id = ?`).run(...set.values, id);
        if (patch.brandIds !== undefined) this.setBrands(id, patch.brandIds);
        if (password) this.writePassword(id, password);
        return this.read(id);
      })();
    } catch (err) {
      if (isUniqueViolation(err)) return 'email-taken' as const;
      throw err;
    }
  }

  async setPassword(id: number, change: PasswordChange) {
    this.writePassword(id, change);
    return this.read(id);
  }

  async bumpTokenVersion(id: number) {
    this.db.prepare('UPDATE users SET token_version = token_version + 1 WHERE id = ?').run(id);
  }

  async delete(id: number) {
    return this.db.transaction((): 'deleted' | 'last-superadmin' | undefined => {
      const current = this.read(id);
      if (!current) return undefined;
      if (current.role === 'superadmin' && this.superadmins() <= 1) return 'last-superadmin';
      this.db.prepare('DELETE FROM users WHERE id = ?').run(id);
      return 'deleted';
    })();
  }

  /** Records are shared, so they are frozen; inside a transaction nothing is kept, as it may roll back. */
  private read(id: number): UserRecord | undefined {
    const cached = this.records.get(id);
    if (cached) return cached;
    const row = this.byId.get(id);
    if (!row) return undefined;
    const brandIds = Object.freeze(row.brand_ids === null ? [] : row.brand_ids.split(',').map(Number)) as number[];
    const record = Object.freeze(toRecord(row, brandIds));
    if (!this.db.inTransaction) this.records.set(id, record);
    return record;
  }

  private writePassword(id: number, change: PasswordChange): void {
    this.db
      .prepare('UPDATE users SET password_hash = ?, must_change_password = ?, token_version = token_version + 1 WHERE id = ?')
      .run(change.passwordHash, change.mustChangePassword ? 1 : 0, id);
  }

  private superadmins(): number {
    return this.db.prepare("SELECT COUNT(*) FROM users WHERE role = 'superadmin'").pluck().get() as number;
  }

  private brandsOf(userIds: number[]): Map<number, number[]> {
    if (userIds.length === 0) return new Map();
    const rows = this.db
      .prepare(`SELECT user_id, brand_id FROM user_brands WHERE user_id IN ${inList(userIds)} ORDER BY brand_id`)
      .raw()
      .all(...userIds) as [number, number][];
    return groupPairs(rows);
  }

  private setBrands(userId: number, brandIds: number[]): void {
    this.db.prepare('DELETE FROM user_brands WHERE user_id = ?').run(userId);
    const insert = this.db.prepare('INSERT INTO user_brands (user_id, brand_id) VALUES (?, ?)');
    for (const brandId of new Set(brandIds)) insert.run(userId, brandId);
  }
}
