import session, { type SessionData } from 'express-session';
import type { Clock } from '../../platform/clock';
import type { Db } from '../../platform/sqlite';

declare module 'express-session' {
  interface SessionData {
    userId: number;
    /** The user's token key, so a session can never come to speak for another user. */
    userKey: string;
  }
}

const PRUNE_EVERY_MS = 10 * 60 * 1000;

/**
 * express-session's store in the workspace database, so sign-ins survive a restart.
 * A session lives `ttlMs` from its creation by the injected clock (saving it again does
 * not extend it); expired rows are never returned and are swept at most every ten
 * minutes, on the next write, rather than by a timer that would outlive the database.
 */
export class SqliteSessionStore extends session.Store {
  private lastPrune = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {
    super();
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.run(callback, () => {
      const data = this.db.prepare('SELECT data FROM sessions WHERE sid = ? AND expires_at > ?').pluck().get(sid, this.clock.now()) as
        | string
        | undefined;
      return data === undefined ? null : (JSON.parse(data) as SessionData);
    });
  }

  override set(sid: string, data: SessionData, callback?: (err?: unknown) => void): void {
    this.run(callback, () => {
      const now = this.clock.now();
      this.db
        .prepare(
          `INSERT INTO sessions (sid, user_id, data, expires_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (sid) DO UPDATE SET user_id = excluded.user_id, data = excluded.data`,
        )
        .run(sid, data.userId ?? null, JSON.stringify(data), now + this.ttlMs);
      if (now - this.lastPrune >= PRUNE_EVERY_MS) this.prune();
    });
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.run(callback, () => {
      this.db.prepare('DELETE FROM sessions WHERE sid = ?').run(sid);
    });
  }

  override length(callback: (err: unknown, length?: number) => void): void {
    this.run(callback, () => this.db.prepare('SELECT COUNT(*) FROM sessions WHERE expires_at > ?').pluck().get(this.clock.now()) as number);
  }

  override clear(callback?: (err?: unknown) => void): void {
    this.run(callback, () => {
      this.db.prepare('DELETE FROM sessions').run();
    });
  }

  async endUserSessions(userId: number, keepSid?: string): Promise<void> {
    this.db.prepare('DELETE FROM sessions WHERE user_id = ? AND sid IS NOT ?').run(userId, keepSid ?? null);
  }

  /** Removes expired rows; returns how many went. */
  prune(): number {
    this.lastPrune = this.clock.now();
    return this.db.prepare('DELETE FROM sessions WHERE expires_at <= ?').run(this.lastPrune).changes;
  }

  private run<T>(callback: ((err: unknown, value?: T) => void) | undefined, work: () => T): void {
    let value: T;
    try {
      value = work();
    } catch (err) {
      callback?.(err);
      return;
    }
    callback?.(null, value);
  }
}
