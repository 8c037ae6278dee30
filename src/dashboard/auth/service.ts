import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../platform/clock';
import { Unauthorized } from '../../platform/errors';
import type { Logger } from '../../platform/logger';
import type { AuditTrail } from '../audit/service';
import type { AuditContext } from '../request';
import { NO_RESTRICTION } from '../access';
import { pinDigest, pinsEqual } from '../pins';
import type { UserRecord, UserRecordStore } from '../users/repository';
import { sessionFieldsOf } from '../users/service';
import type { AccessStamps } from '../users/access-stamps';
import type { DashboardSession, SessionStore } from './session-store';

export const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export function sessionFromRecord(record: UserRecord, createdAt: number, stamp: number): DashboardSession {
  return { ...sessionFieldsOf(record), createdAt, userId: record.id, stamp };
}

/** Removes expired sessions on a timer, so memory does not grow with abandoned ones. */
export function sweepEvery(sessions: SessionStore, clock: Clock, intervalMs: number): () => void {
  const timer = setInterval(() => {
    void sessions.deleteCreatedBefore(clock.now() - SESSION_MAX_AGE_MS);
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

export interface LoginResult {
  id: string;
  session: DashboardSession;
}

export class DashboardAuthService {
  constructor(
    private readonly deps: {
      sessions: SessionStore;
      users: UserRecordStore;
      stamps: AccessStamps;
      clock: Clock;
      logger: Logger;
      adminPin: string | undefined;
      trail: AuditTrail;
    },
  ) {}

  /**
   * A sign-in from `from` (its actor "anonymous"): the session it opens, recorded under its
   * name; a PIN that opens none is recorded as a failed sign-in and refused.
   */
  async signIn(from: AuditContext, pin: string): Promise<LoginResult> {
    const result = await this.login(pin);
    if (!result) {
      await this.deps.trail.record(from, 'signInFailed');
      throw new Unauthorized('Invalid PIN');
    }
    const { name, userId } = result.session;
    await this.deps.trail.record({ ...from, actor: name }, 'signIn', { target: userId === null ? 'admin' : `user:${userId}`, targetName: userId === null ? undefined : name });
    return result;
  }

  /** The order of docs/decisions.md: administrator PIN, then the Users table; undefined = no match. */
  async login(pin: string): Promise<LoginResult | undefined> {
    const { adminPin, clock } = this.deps;
    const now = clock.now();
    if (adminPin && pinsEqual(pin, adminPin)) {
      return this.open({ name: 'Admin', role: 'admin', createdAt: now, allowedMuseums: NO_RESTRICTION, allowedChannels: NO_RESTRICTION, userId: null });
    }
    // Looked at before the records are read: a change under way then is caught by its stamp.
    const stampOf = await this.deps.stamps.now();
    const record = await this.findByPin(pin);
    return record ? this.open(sessionFromRecord(record, now, stampOf(record.id).stamp)) : undefined;
  }

  /** The live session for an id, confirmed against its user's access stamp; an expired one is removed and reported as none. */
  async lookup(id: string | undefined): Promise<DashboardSession | undefined> {
    if (!id || !/^[0-9a-f]{64}$/.test(id)) return undefined;
    const session = await this.deps.sessions.get(id);
    if (!session) return undefined;
    if (this.deps.clock.now() - session.createdAt > SESSION_MAX_AGE_MS) {
      await this.deps.sessions.delete(id);
      return undefined;
    }
    return session.userId === null ? session : this.confirmed(id, session, session.userId);
  }

  /**
   * The session with its copy of the user record brought up to date when the user's stamp
   * moved past it, or ended when a new PIN or a deletion came since. A change made on
   * another instance normally reaches the shared sessions at once; this catches the ones
   * whose word got lost, within ACCESS_CONFIRM_MS.
   */
  private async confirmed(id: string, session: DashboardSession, userId: number): Promise<DashboardSession | undefined> {
    const held = session.stamp ?? 0;
    const current = await this.deps.stamps.recent(userId);
    if (held >= current.stamp) return session;
    const record = current.ended > held ? undefined : await this.deps.users.get(userId);
    if (!record) {
      await this.deps.sessions.delete(id);
      return undefined;
    }
    const refreshed = { ...session, ...sessionFieldsOf(record), stamp: current.stamp };
    await this.deps.sessions.replace(id, refreshed);
    return refreshed;
  }

  async logout(id: string | undefined): Promise<void> {
    if (id) await this.deps.sessions.delete(id);
  }

  async sweep(): Promise<number> {
    return this.deps.sessions.deleteCreatedBefore(this.deps.clock.now() - SESSION_MAX_AGE_MS);
  }

  private async findByPin(pin: string): Promise<UserRecord | undefined> {
    let records: UserRecord[];
    try {
      records = await this.deps.users.list();
    } catch (err) {
      this.deps.logger.error({ err, store: this.deps.users.kind }, 'user records store unreachable during PIN login');
      return undefined;
    }
    // Every record is compared, so the time taken does not tell where a match sits.
    const wanted = pinDigest(pin);
    let match: UserRecord | undefined;
    for (const record of records) {
      if (timingSafeEqual(wanted, pinDigest(record.pin)) && !match) match = record;
    }
    return match;
  }

  private async open(session: DashboardSession): Promise<LoginResult> {
    const id = randomBytes(32).toString('hex');
    await this.deps.sessions.set(id, session);
    return { id, session };
  }
}
