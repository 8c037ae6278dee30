import session, { type SessionData } from 'express-session';
import type { Clock } from '../../platform/clock';
import type { WorkspaceRecords } from '../records';

declare module 'express-session' {
  interface SessionData {
    userId: number;
    /** The user's token key, so a session can never come to speak for another user. */
    userKey: string;
    /** The user's password stamp when the session was opened: a later password ends it. */
    passwordStamp: string;
  }
}

const PRUNE_EVERY_MS = 10 * 60 * 1000;

type Callback<T> = ((err: unknown, value?: T) => void) | undefined;

/**
 * express-session's store in the workspace's records, so sign-ins survive a restart and
 * every instance on a shared database sees them. A session lives `ttlMs` from its creation
 * by the injected clock (saving it again does not extend it); expired rows are never
 * returned and are swept at most every ten minutes, on the next write, rather than by a
 * timer that would outlive the database.
 */
export class SqlSessionStore extends session.Store {
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly records: WorkspaceRecords,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {
    super();
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    answer(callback, async () => {
      const row = await this.records.db
        .selectFrom('sessions')
        .select('data')
        .where('sid', '=', sid)
        .where('expires_at', '>', this.clock.now())
        .executeTakeFirst();
      return row === undefined ? null : (JSON.parse(row.data) as SessionData);
    });
  }

  /** express-session hands the session as it stands, signed in or not, whatever its type says. */
  override set(sid: string, data: Partial<SessionData>, callback?: (err?: unknown) => void): void {
    answer(callback, async () => {
      const now = this.clock.now();
      await this.records.db
        .insertInto('sessions')
        .values({ sid, user_id: data.userId ?? null, data: JSON.stringify(data), expires_at: now + this.ttlMs })
        .onConflict((oc) => oc.column('sid').doUpdateSet((eb) => ({ user_id: eb.ref('excluded.user_id'), data: eb.ref('excluded.data') })))
        .execute();
      if (now - this.lastPrune >= PRUNE_EVERY_MS) await this.prune();
    });
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    answer(callback, async () => {
      await this.records.db.deleteFrom('sessions').where('sid', '=', sid).execute();
    });
  }

  override length(callback: (err: unknown, length?: number) => void): void {
    answer(callback, async () => {
      const row = await this.records.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('expires_at', '>', this.clock.now())
        .executeTakeFirstOrThrow();
      return row.n;
    });
  }

  override clear(callback?: (err?: unknown) => void): void {
    answer(callback, async () => {
      await this.records.db.deleteFrom('sessions').execute();
    });
  }

  async endUserSessions(userId: number, keepSid?: string): Promise<void> {
    await this.records.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .$call((q) => (keepSid === undefined ? q : q.where('sid', '<>', keepSid)))
      .execute();
  }

  /** Removes expired rows; returns how many went. */
  async prune(): Promise<number> {
    this.lastPrune = this.clock.now();
    const result = await this.records.db.deleteFrom('sessions').where('expires_at', '<=', this.lastPrune).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** express-session's callbacks from a promise: the value, or the error, and never both. */
function answer<T>(callback: Callback<T>, work: () => Promise<T>): void {
  work().then(
    (value) => callback?.(null, value),
    (err: unknown) => callback?.(err),
  );
}
