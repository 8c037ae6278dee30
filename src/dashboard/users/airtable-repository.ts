import Airtable from 'airtable';
import type { FieldSet, Record as AirtableRecord, Table } from 'airtable';
import { pinsEqual } from '../pins';
import type { IdMarks, NewUserRecord, UserRecord, UserRecordPatch, UserRecordStore } from './repository';
import { MemoryIdMarks, StoreUnavailable } from './repository';

export const USERS_TABLE = 'Users';

/** Each HTTP request to Airtable: a slower answer is abandoned. */
export const AIRTABLE_REQUEST_TIMEOUT_MS = 4_000;
/**
 * The most one operation may take, every page and every retry included: the longest a PIN
 * sign-in waits for Airtable before it is refused (and the administrator PIN never waits).
 */
export const AIRTABLE_DEADLINE_MS = 8_000;
/** First wait before retrying an answer 429; it doubles, with jitter, within the deadline. */
const RATE_LIMIT_RETRY_MS = 250;

export interface AirtableOptions {
  apiKey: string;
  baseId: string;
  endpointUrl?: string;
  /** Per HTTP request; airtable.js aborts a request that takes longer. Default AIRTABLE_REQUEST_TIMEOUT_MS. */
  requestTimeoutMs?: number;
  /** Bound on a whole operation, retries of 429 answers included. Default AIRTABLE_DEADLINE_MS. */
  deadlineMs?: number;
  /** The highest Id handed out so far, kept where restarts find it; this process's memory unless given. */
  ids?: IdMarks;
}

/** The name under which the highest Id of this table is kept. */
const ID_MARK = 'airtable-users';
/** Times a create draws a new Id after finding its Id taken by a record made meanwhile elsewhere. */
const CREATE_ATTEMPTS = 3;

/** A field as text: numbers and booleans as written, anything else (a linked record, a list) as JSON. */
function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function toRecord(record: AirtableRecord<FieldSet>): UserRecord | undefined {
  const f = record.fields;
  const id = Number(f.Id);
  if (!Number.isInteger(id)) return undefined;
  return {
    id,
    name: text(f.Name) ?? '',
    pin: text(f.PIN) ?? '',
    role: text(f.Role) ?? '',
    allowedMuseums: text(f.AllowedMuseums),
    allowedChannels: text(f.AllowedChannels),
    ...(text(f.Email) ? { email: text(f.Email) } : {}),
  };
}

function toFields(input: Partial<NewUserRecord> & { id?: number }): FieldSet {
  const fields: FieldSet = {};
  if (input.id !== undefined) fields.Id = input.id;
  if (input.name !== undefined) fields.Name = input.name;
  if (input.pin !== undefined) fields.PIN = input.pin;
  if (input.role !== undefined) fields.Role = input.role;
  if (input.allowedMuseums !== undefined) fields.AllowedMuseums = input.allowedMuseums;
  if (input.allowedChannels !== undefined) fields.AllowedChannels = input.allowedChannels;
  // Written only when set, so that a table without the field keeps working for everything else.
  if (input.email !== undefined) fields.Email = input.email;
  return fields;
}

/**
 * The Users table in Airtable. Records are matched by reading the table, never by a
 * formula built from input, so nothing a user types can reach Airtable's formula language.
 */
export class AirtableUserRecordStore implements UserRecordStore {
  readonly kind = 'airtable' as const;
  private readonly table: Table<FieldSet>;
  private readonly deadlineMs: number;
  private readonly ids: IdMarks;
  /** Writes that choose an Id or a PIN run one at a time, as each reads the table before it writes. */
  private writing: Promise<unknown> = Promise.resolve();

  constructor(opts: AirtableOptions) {
    const client = new Airtable({
      apiKey: opts.apiKey,
      endpointUrl: opts.endpointUrl,
      requestTimeout: opts.requestTimeoutMs ?? AIRTABLE_REQUEST_TIMEOUT_MS,
      // airtable.js retries a 429 for ever, up to ten minutes apart, long after the sign-in
      // that asked has been answered; `call` retries within the deadline instead.
      noRetryIfRateLimited: true,
    });
    this.table = client.base(opts.baseId).table(USERS_TABLE);
    this.deadlineMs = opts.deadlineMs ?? AIRTABLE_DEADLINE_MS;
    this.ids = opts.ids ?? new MemoryIdMarks();
  }

  async list(): Promise<UserRecord[]> {
    return (await this.rawList()).map(({ user }) => user);
  }

  async get(id: number): Promise<UserRecord | undefined> {
    return (await this.rawList()).find(({ user }) => user.id === id)?.user;
  }

  /**
   * Airtable numbers nothing itself: the new record gets an Id above every Id in the table
   * and every Id handed out before, so that a deleted user's Id never comes back. Another
   * instance, or a person editing the table, may still pick the same Id at the same moment:
   * the table is read again after the write, and a clash retires this record and tries again.
   */
  async create(input: NewUserRecord): Promise<UserRecord | 'pin-taken'> {
    return this.serially(async () => {
      for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt += 1) {
        const existing = await this.rawList();
        if (existing.some(({ user }) => pinsEqual(user.pin, input.pin))) return 'pin-taken';
        const highest = existing.reduce((max, { user }) => Math.max(max, user.id), 0);
        const id = await this.ids.claim(ID_MARK, highest + 1);
        const created = await this.call(() => this.table.create(toFields({ ...input, id }), { typecast: true }));
        const user = toRecord(created);
        if (!user) throw new StoreUnavailable('Airtable returned a record without Id');
        const holders = (await this.rawList()).filter((r) => r.user.id === id);
        if (holders.length <= 1) return user;
        await this.call(() => this.table.destroy(created.id));
      }
      throw new StoreUnavailable(`Airtable: ${CREATE_ATTEMPTS} new Ids in a row were taken by records made meanwhile`);
    });
  }

  async update(id: number, patch: UserRecordPatch): Promise<UserRecord | 'pin-taken' | undefined> {
    const write = async () => {
      const records = await this.rawList();
      const found = records.find(({ user }) => user.id === id);
      if (!found) return undefined;
      const { pin } = patch;
      if (pin !== undefined && records.some(({ user }) => user.id !== id && pinsEqual(user.pin, pin))) return 'pin-taken' as const;
      const updated = await this.call(() => this.table.update(found.recordId, toFields(patch), { typecast: true }));
      return toRecord(updated);
    };
    return patch.pin === undefined ? write() : this.serially(write);
  }

  async delete(id: number): Promise<boolean> {
    const found = (await this.rawList()).find(({ user }) => user.id === id);
    if (!found) return false;
    await this.call(() => this.table.destroy(found.recordId));
    return true;
  }

  private async rawList(): Promise<{ recordId: string; user: UserRecord }[]> {
    const records = await this.call(() => this.table.select({ pageSize: 100 }).all());
    const out: { recordId: string; user: UserRecord }[] = [];
    for (const record of records) {
      const user = toRecord(record);
      if (user) out.push({ recordId: record.id, user });
    }
    return out;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const run = this.writing.then(work);
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** Runs `operation` within the deadline, retrying it while Airtable answers 429 and time is left. */
  private async call<T>(operation: () => Promise<T>): Promise<T> {
    const end = Date.now() + this.deadlineMs;
    for (let attempt = 0; ; attempt += 1) {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new StoreUnavailable(`Airtable did not answer within ${this.deadlineMs} ms`)), end - Date.now());
      });
      try {
        return await Promise.race([operation(), deadline]);
      } catch (err) {
        if (err instanceof StoreUnavailable) throw err;
        const e = err as { error?: string; statusCode?: number; message?: string };
        if (e.statusCode === 429) {
          const wait = RATE_LIMIT_RETRY_MS * 2 ** attempt * (0.5 + Math.random() / 2);
          if (Date.now() + wait >= end) throw new StoreUnavailable(`Airtable kept answering 429 (rate limited); gave up within ${this.deadlineMs} ms`, err);
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        throw new StoreUnavailable(`Airtable ${e.statusCode ?? ''} ${e.error ?? ''}: ${e.message ?? String(err)}`.trim(), err);
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
