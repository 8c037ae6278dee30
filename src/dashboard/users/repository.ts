import type { Selectable } from 'kysely';
import type { RecordsDb } from '../../platform/db/engine';
import { HttpError } from '../../platform/errors';
import type { DashboardTables } from '../tables';

/** One record of the Users table, with the Airtable field names (Name, PIN, Role, AllowedMuseums, AllowedChannels) in camelCase. */
export interface UserRecord {
  id: number;
  name: string;
  pin: string;
  /** Empty when the record has no role. */
  role: string;
  /** JSON text as stored; undefined when the record has no such field. */
  allowedMuseums: string | undefined;
  allowedChannels: string | undefined;
  /** Where scheduled reports go; undefined when the record has none ('' in a patch clears it). */
  email?: string;
}

export type NewUserRecord = Omit<UserRecord, 'id'>;
export type UserRecordPatch = Partial<Omit<UserRecord, 'id'>>;

/** Raised when the store cannot be reached or has no Users table; `detail` is for the log only. */
export class StoreUnavailable extends HttpError {
  constructor(readonly detail: string, override readonly cause?: unknown) {
    super(503, 'User records store unavailable', 'STORE_UNAVAILABLE');
  }
}

export interface UserRecordStore {
  readonly kind: 'database' | 'airtable';
  /** Every record, in the store's order (all pages). */
  list(): Promise<UserRecord[]>;
  get(id: number): Promise<UserRecord | undefined>;
  /** 'pin-taken' when the store itself holds PINs unique and another record has this one. */
  create(input: NewUserRecord): Promise<UserRecord | 'pin-taken'>;
  update(id: number, patch: UserRecordPatch): Promise<UserRecord | 'pin-taken' | undefined>;
  delete(id: number): Promise<boolean>;
}

/** The highest id handed out under a name, for stores that number records themselves. */
export interface IdMarks {
  /** Answers `atLeast` or one above the highest id handed out before, whichever is higher, and remembers it. */
  claim(name: string, atLeast: number): Promise<number>;
}

export class MemoryIdMarks implements IdMarks {
  private readonly marks = new Map<string, number>();

  async claim(name: string, atLeast: number) {
    const id = Math.max(atLeast, (this.marks.get(name) ?? 0) + 1);
    this.marks.set(name, id);
    return id;
  }
}

/** Id marks in the records database, claimed atomically so that instances never hand out one id twice. */
export class SqlIdMarks implements IdMarks {
  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async claim(name: string, atLeast: number) {
    const { engine } = this.records;
    const row = await this.records.db
      .insertInto('id_marks')
      .values({ name, last_id: atLeast })
      .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ last_id: engine.greatest(eb.ref('excluded.last_id'), eb(eb.ref('id_marks.last_id'), '+', 1)) })))
      .returning('last_id')
      .executeTakeFirstOrThrow();
    return row.last_id;
  }
}

function toRecord(row: Selectable<DashboardTables['users']>): UserRecord {
  return {
    id: row.id,
    name: row.name,
    pin: row.pin,
    role: row.role,
    allowedMuseums: row.allowed_museums ?? undefined,
    allowedChannels: row.allowed_channels ?? undefined,
    ...(row.email === null ? {} : { email: row.email }),
  };
}

const ROW = ['id', 'name', 'pin', 'role', 'allowed_museums', 'allowed_channels', 'email'] as const;

/** The embedded user records (read afresh on every PIN sign-in, no cache: docs/decisions.md). */
export class SqlUserRecordStore implements UserRecordStore {
  readonly kind = 'database' as const;

  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async list(): Promise<UserRecord[]> {
    return (await this.records.db.selectFrom('users').select(ROW).orderBy('id').execute()).map(toRecord);
  }

  async get(id: number): Promise<UserRecord | undefined> {
    const row = await this.records.db.selectFrom('users').select(ROW).where('id', '=', id).executeTakeFirst();
    return row && toRecord(row);
  }

  async create(input: NewUserRecord): Promise<UserRecord | 'pin-taken'> {
    try {
      const row = await this.records.db
        .insertInto('users')
        .values({ name: input.name, pin: input.pin, role: input.role, allowed_museums: input.allowedMuseums ?? null, allowed_channels: input.allowedChannels ?? null, email: input.email || null })
        .returning(ROW)
        .executeTakeFirstOrThrow();
      return toRecord(row);
    } catch (err) {
      if (this.records.engine.isUniqueViolation(err)) return 'pin-taken';
      throw err;
    }
  }

  async update(id: number, patch: UserRecordPatch): Promise<UserRecord | 'pin-taken' | undefined> {
    const current = await this.get(id);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    try {
      const row = await this.records.db
        .updateTable('users')
        .set({ name: next.name, pin: next.pin, role: next.role, allowed_museums: next.allowedMuseums ?? null, allowed_channels: next.allowedChannels ?? null, email: next.email || null })
        .where('id', '=', id)
        .returning(ROW)
        .executeTakeFirst();
      return row && toRecord(row);
    } catch (err) {
      if (this.records.engine.isUniqueViolation(err)) return 'pin-taken';
      throw err;
    }
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.records.db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

/** Where a user's access stood: `stamp` moves with every change, `ended` names the last change that ended the sessions before it. */
export interface AccessStamp {
  stamp: number;
  ended: number;
}

/** Per user record, a stamp that moves with each change to its access, PIN or existence, in the records database every instance shares. */
export interface AccessStampRepository {
  /** The stamp of every user whose record was ever changed; a user without one has 0 for both. */
  all(): Promise<Map<number, AccessStamp>>;
  /** Moves the user's stamp; `ending` also ends every session made under an older one. Answers the new stamp. */
  bump(userId: number, ending: boolean): Promise<number>;
}

export class SqlAccessStamps implements AccessStampRepository {
  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async all() {
    const rows = await this.records.db.selectFrom('access_stamps').select(['user_id', 'stamp', 'ended']).execute();
    return new Map(rows.map((r) => [r.user_id, { stamp: r.stamp, ended: r.ended }]));
  }

  async bump(userId: number, ending: boolean) {
    const row = await this.records.db
      .insertInto('access_stamps')
      .values({ user_id: userId, stamp: 1, ended: ending ? 1 : 0 })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet((eb) => {
          const next = eb(eb.ref('access_stamps.stamp'), '+', 1);
          return { stamp: next, ended: ending ? next : eb.ref('access_stamps.ended') };
        }),
      )
      .returning('stamp')
      .executeTakeFirstOrThrow();
    return row.stamp;
  }
}
