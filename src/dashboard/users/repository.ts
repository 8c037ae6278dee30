import type { Statement } from 'better-sqlite3';
import { HttpError } from '../../platform/errors';
import type { Db } from '../../platform/sqlite';

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
export type UserRecordPatch = Partial<Omit<UserRecord, 'id' | 'pin'>>;

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
  create(input: NewUserRecord): Promise<UserRecord>;
  update(id: number, patch: UserRecordPatch): Promise<UserRecord | undefined>;
  delete(id: number): Promise<boolean>;
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

  async create(input: NewUserRecord): Promise<UserRecord> {
    const row = this.db
      .prepare('INSERT INTO users (name, pin, role, allowed_museums, allowed_channels) VALUES (?, ?, ?, ?, ?) RETURNING *')
      .get(input.name, input.pin, input.role, input.allowedMuseums ?? null, input.allowedChannels ?? null) as Row;
    return toRecord(row);
  }

  async update(id: number, patch: UserRecordPatch): Promise<UserRecord | undefined> {
    const current = await this.get(id);
    if (!current) return undefined;
    const next = { ...current, ...patch };
    const row = this.db
      .prepare('UPDATE users SET name = ?, role = ?, allowed_museums = ?, allowed_channels = ? WHERE id = ? RETURNING *')
      .get(next.name, next.role, next.allowedMuseums ?? null, next.allowedChannels ?? null, id) as Row;
    return toRecord(row);
  }

  async delete(id: number): Promise<boolean> {
    return this.db.prepare('DELETE FROM users WHERE id = ?').run(id).changes > 0;
  }
}
