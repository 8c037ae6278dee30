import { randomUUID } from 'node:crypto';
import type { Redis } from './redis';

/** Gives a held lock back. */
export type Release = () => Promise<void>;

/**
 * Named locks for work that must run once at a time across every instance (an import that
 * uses the shared staging area). `acquire` answers undefined at once when someone else holds
 * the name: callers refuse rather than queue.
 */
export interface Locks {
  acquire(name: string, ttlMs: number): Promise<Release | undefined>;
}

/** One process: a set of held names. */
export class LocalLocks implements Locks {
  private readonly held = new Set<string>();

  async acquire(name: string): Promise<Release | undefined> {
    if (this.held.has(name)) return undefined;
    this.held.add(name);
    return async () => {
      this.held.delete(name);
    };
  }
}

/** Deletes the lock only while it still holds this owner's token: an expired lock taken by another stays theirs. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/**
 * Several instances: a Redis key set only if absent, with an end, so that a lock whose
 * instance was killed frees itself after `ttlMs`.
 */
export class RedisLocks implements Locks {
  constructor(private readonly redis: Redis) {}

  async acquire(name: string, ttlMs: number): Promise<Release | undefined> {
    const key = `lock:${name}`;
    const token = randomUUID();
    const taken = await this.redis.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    if (taken !== 'OK') return undefined;
    return async () => {
      await this.redis.eval(RELEASE, { keys: [key], arguments: [token] });
    };
  }
}
