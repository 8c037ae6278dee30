import type { Statement } from 'better-sqlite3';
import { HttpError } from '../../platform/errors';
import { isUniqueViolation, type Db } from '../../platform/sqlite';

/** One record of the Users table, with the field names of SPEC.md mapped to camelCase. */
export interface UserRecord {
  id: number;
  name: string;
  pin: string;
  /** Empty when the record has no role. */
  role: string;
  /** JSON text as stored; undefined when the record has no such field. */
  allowedMuseums: string | undefined;
  allowedChannels: string | undefined;
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
  readonly kind: 'sqlite' | 'airtable';
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

export class SqliteIdMarks implements IdMarks {
  constructor(private readonly db: Db) {}

  async claim(name: string, atLeast: number) {
    return this.db
      .prepare(
        `INSERT INTO id_marks (name, last_id) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET last_id = max(excluded.last_id, last_id + 1) RETURNING last_id`,
      )
      .pluck()
      .get(name, atLeast) as number;
  }
}

interface Row {
  id: number;
  name: string;
  pin: string;
  role: string;
  allowed_museums: string | null;
  allowed_channels: string | null;
}

function toRecord(row: Row): UserRecord {
  return {
    id: row.id,
    name: row.name,
    pin: row.pin,
    role: row.role,
    allowedMuseums: row.allowed_museums ?? undefined,
    allowedChannels: row.allowed_channels ?? undefined,
  };
}

export class SqliteUserRecordStore implements UserRecordStore {
  readonly kind = 'sqlite' as const;
  /**
   * Every PIN sign-in reads the whole table (SPEC.md: no cache). Preparing the statement cost
   * as much as the read, and better-sqlite3 frees a statement's native memory only after a
   * collection and a later turn of the event loop, so a burst of sign-ins piled it up.
   */
  private readonly all: Statement<[], Row>;

  constructor(private readonly db: Db) {
    this.all = db.prepare('SELECT * FROM users ORDER BY id');
  }

  async list(): Promise<UserRecord[]> {
    return this.all.all().map(toRecord);
  }

  async get(id: number): Promise<UserRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
    return row && toRecord(row);
  }

  async create(input: NewUserRecord): Promise<UserRecord | 'pin-taken'> {
    try {
      const row = this.db
        .prepare('INSERT INTO users (name, pin, role, allowed_museums, allowed_channels) VALUES (?, ?, ?, ?, ?) RETURNING *')
        .get(input.name, input.pin, input.role, input.allowedMuseums ?? null, input.allowedChannels ?? null) as Row;
      return toRecord(row);
    } catch (err) {
      if (isUniqueViolation(err)) return 'pin-taken';
      throw err;
    }
  }

  async update(id: number, patch: UserRecordPatch): Promise<UserRecord | 'pin-taken' | undefined> {
    const current = await this.get(id);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    try {
      const row = this.db
        .prepare('UPDATE users SET name = ?, pin = ?, role = ?, allowed_museums = ?, allowed_channels = ? WHERE id = ? RETURNING *')
        .get(next.name, next.pin, next.role, next.allowedMuseums ?? null, next.allowedChannels ?? null, id) as Row | undefined;
      return row && toRecord(row);
    } catch (err) {
      if (isUniqueViolation(err)) return 'pin-taken';
      throw err;
    }
  }

  async delete(id: number): Promise<boolean> {
    return this.db.prepare('DELETE FROM users WHERE id = ?').run(id).changes > 0;
  }
}
