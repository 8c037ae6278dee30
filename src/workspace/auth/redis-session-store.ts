import { RedisStore } from 'connect-redis';
import type { SessionData } from 'express-session';
import type { Redis } from '../../platform/redis';

const PREFIX = 'workspace:session:';
/** The set that lists one user's sessions. */
const sessionsOf = (userId: number) => `workspace:user-sessions:${userId}`;

type Callback = (err?: unknown, data?: unknown) => unknown;

/**
 * The workspace's cookie sessions in Redis (connect-redis), shared by every instance. A
 * session lives seven days from its creation: connect-redis reads the end from the cookie,
 * and touching is off, so being used does not lengthen it. A set per user lists its
 * sessions, so that a password change or a removed account ends them everywhere.
 */
export class RedisCookieSessions extends RedisStore {
  private readonly redis: Redis;

  constructor(redis: Redis) {
    super({ client: redis, prefix: PREFIX, disableTouch: true });
    this.redis = redis;
  }

  override async set(sid: string, session: SessionData, cb?: Callback) {
    try {
      await super.set(sid, session);
      if (typeof session.userId === 'number') {
        await this.redis.multi().sAdd(sessionsOf(session.userId), sid).expire(sessionsOf(session.userId), 7 * 24 * 3600).exec();
      }
    } catch (err) {
      return cb?.(err);
    }
    return cb?.();
  }

  /** Ends every cookie session of one user, except `keepSid` when given. */
  async endUserSessions(userId: number, keepSid?: string): Promise<void> {
    const sids = (await this.redis.sMembers(sessionsOf(userId))).filter((sid) => sid !== keepSid);
    if (sids.length === 0) return;
    await this.redis.multi().del(sids.map((sid) => PREFIX + sid)).sRem(sessionsOf(userId), sids).exec();
  }
}
