import type { Generated, Kysely, Selectable } from 'kysely';
import type { RecordsDb } from '../db/engine';

export const MAIL_STATUSES = ['pending', 'sent', 'failed', 'skipped'] as const;
/**
 * `pending` waits for its next attempt; `sent` was accepted by the SMTP server (or written);
 * `failed` ran out of attempts; `skipped` had nothing left to say when its turn came (its
 * recipient gone, or no longer allowed to see what it was about).
 */
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** The outbox table, in whichever application's records keep it. */
export interface OutboxTables {
  mail_outbox: {
    id: Generated<number>;
    kind: string;
    /** The member it goes to, while they exist: what it says is decided for them when it is sent. */
    user_id: number | null;
    to_address: string;
    subject: string;
    /** What the kind needs to write the message (ids, never a secret): JSON text. */
    params: string;
    status: string;
    attempts: number;
    last_error: string | null;
    next_attempt_at: string;
    /** Until then the row is being sent by the instance that claimed it. */
    lease_until: string | null;
    created_at: string;
    sent_at: string | null;
  };
}

/** A mail to add to the outbox, in the transaction of the change that causes it. */
export interface NewMail {
  kind: string;
  userId: number | null;
  to: string;
  subject: string;
  params: Record<string, unknown>;
}

export interface OutboxMessage {
  id: number;
  kind: string;
  userId: number | null;
  to: string;
  subject: string;
  params: Record<string, unknown>;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  createdAt: string;
  sentAt: string | null;
}

type Row = Selectable<OutboxTables['mail_outbox']>;

const iso = (ms: number) => new Date(ms).toISOString();

function toMessage(row: Row): OutboxMessage {
  return {
    id: row.id,
    kind: row.kind,
    userId: row.user_id,
    to: row.to_address,
    subject: row.subject,
    params: JSON.parse(row.params) as Record<string, unknown>,
    status: row.status as MailStatus,
    attempts: row.attempts,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

/** Writes mails into the outbox with `db`, which may be a transaction of the change that causes them. */
export async function addToOutbox(db: Kysely<OutboxTables>, mails: readonly NewMail[], now: number): Promise<void> {
  if (mails.length === 0) return;
  const at = iso(now);
  await db
    .insertInto('mail_outbox')
    .values(
      mails.map((m) => ({
        kind: m.kind,
        user_id: m.userId,
        to_address: m.to,
        subject: m.subject,
        params: JSON.stringify(m.params),
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
      })),
    )
    .execute();
}

/**
 * The outbox's rows. Several instances may drain it at once: a claim takes due rows under a
 * lease (PostgreSQL skips rows another transaction is claiming), so each row is sent by one
 * instance at a time, and a row whose instance died is taken again once its lease ends.
 */
export class OutboxRepository {
  private readonly db: Kysely<OutboxTables>;

  constructor(private readonly records: RecordsDb<OutboxTables>) {
    this.db = records.db;
  }

  async add(mails: readonly NewMail[], now: number): Promise<void> {
    await addToOutbox(this.db, mails, now);
  }

  /** Up to `limit` due rows, each counted as one more attempt and leased until `leaseUntil`. */
  async claim(now: number, leaseUntil: number, limit: number): Promise<OutboxMessage[]> {
    const at = iso(now);
    const due = this.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', at)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(limit)
      .$if(this.records.engine.locksRows, (q) => q.forUpdate().skipLocked());
    const rows = await this.db
      .updateTable('mail_outbox')
      .set((eb) => ({ lease_until: iso(leaseUntil), attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', due)
      .returningAll()
      .execute();
    return rows.map(toMessage).sort((a, b) => a.id - b.id);
  }

  /** A claimed row sent (accepted by the server), or skipped with nothing left to say. */
  async finish(id: number, status: 'sent' | 'skipped', at: number, subject: string | undefined): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set({ status, sent_at: status === 'sent' ? iso(at) : null, lease_until: null, last_error: null, ...(subject === undefined ? {} : { subject }) })
      .where('id', '=', id)
      .execute();
  }

  /** A claimed row not sent: due again at `retryAt`, or failed for good without one. */
  async putBack(id: number, error: string, retryAt: number | undefined): Promise<void> {
    await this.db
      .updateTable('mail_outbox')
      .set(retryAt === undefined ? { status: 'failed', last_error: error, lease_until: null } : { last_error: error, lease_until: null, next_attempt_at: iso(retryAt) })
      .where('id', '=', id)
      .execute();
  }

  /** How many mails wait for their next attempt: one count over the index of due rows. */
  async waiting(): Promise<number> {
    const row = await this.db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The newest rows first, `beforeId` paging back. */
  async list(opts: { limit: number; beforeId?: number; status?: MailStatus }): Promise<OutboxMessage[]> {
    const rows = await this.db
      .selectFrom('mail_outbox')
      .selectAll()
      .$call((q) => (opts.beforeId === undefined ? q : q.where('id', '<', opts.beforeId)))
      .$call((q) => (opts.status === undefined ? q : q.where('status', '=', opts.status)))
      .orderBy('id', 'desc')
      .limit(opts.limit)
      .execute();
    return rows.map(toMessage);
  }

  async get(id: number): Promise<OutboxMessage | undefined> {
    const row = await this.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toMessage(row) : undefined;
  }

  /**
   * A failed or skipped row back in line, due at once with its attempts counted afresh;
   * undefined when there is no such row, false when it is pending or already sent.
   */
  async retry(id: number, now: number): Promise<OutboxMessage | undefined | false> {
    const updated = await this.db
      .updateTable('mail_outbox')
      .set({ status: 'pending', attempts: 0, next_attempt_at: iso(now), lease_until: null })
      .where('id', '=', id)
      .where('status', 'in', ['failed', 'skipped'])
      .returningAll()
      .executeTakeFirst();
    if (updated) return toMessage(updated);
    return (await this.get(id)) ? false : undefined;
  }
}
