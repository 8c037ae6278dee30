import type { Redis } from '../../platform/redis';
import { SESSION_MAX_AGE_MS } from './service';
import type { DashboardSession, SessionPatch, SessionStore } from './session-store';

const SESSION = 'dashboard:session:';
/** The set that lists one user's sessions. */
const sessionsOf = (userId: number) => `dashboard:user-sessions:${userId}`;

/**
 * Dashboard sessions in Redis, shared by every instance behind one address: a session made
 * on one works on all, and a sign-out, a deletion or an access change reaches every one at
 * once. Each session expires in Redis when its seven days are up; a set per user lists its
 * sessions for the changes that concern them all.
 */
export class RedisSessionStore implements SessionStore {
  constructor(
    private readonly redis: Redis,
    private readonly clock: { now(): number },
  ) {}

  async get(id: string) {
    const text = await this.redis.get(SESSION + id);
    return text === null ? undefined : (JSON.parse(text) as DashboardSession);
  }

  async set(id: string, session: DashboardSession) {
    const left = Math.max(1, session.createdAt + SESSION_MAX_AGE_MS - this.clock.now());
    const write = this.redis.multi().set(SESSION + id, JSON.stringify(session), { expiration: { type: 'PX', value: left } });
    if (session.userId !== null) write.sAdd(sessionsOf(session.userId), id).pExpire(sessionsOf(session.userId), SESSION_MAX_AGE_MS);
    await write.exec();
  }

  async delete(id: string) {
    const session = await this.get(id);
    const write = this.redis.multi().del(SESSION + id);
    if (session?.userId != null) write.sRem(sessionsOf(session.userId), id);
    await write.exec();
  }

  async replace(id: string, session: DashboardSession) {
    // Only while it still exists: a sign-out meanwhile must not bring it back without an end.
    await this.redis.set(SESSION + id, JSON.stringify(session), { expiration: 'KEEPTTL', condition: 'XX' });
  }

  async updateUser(userId: number, patch: SessionPatch) {
    for (const id of await this.redis.sMembers(sessionsOf(userId))) {
      const session = await this.get(id);
      if (!session) {
        await this.redis.sRem(sessionsOf(userId), id);
        continue;
      }
      await this.replace(id, { ...session, ...patch });
    }
  }

  async deleteUser(userId: number) {
    const ids = await this.redis.sMembers(sessionsOf(userId));
    await this.redis.del([sessionsOf(userId), ...ids.map((id) => SESSION + id)]);
  }

  /** Redis removes each session when its time is up; nothing is left to sweep. */
  async deleteCreatedBefore() {
    return 0;
  }

  async size() {
    let count = 0;
    for await (const keys of this.redis.scanIterator({ MATCH: `${SESSION}*`, COUNT: 1000 })) count += keys.length;
    return count;
  }
}
