import { randomUUID } from 'node:crypto';
import { HttpError } from './errors';
import type { Redis } from './redis';

/**
 * How long a lock outlives its holder. The holder renews it three times as often while
 * its work runs, so however long the work takes, a holder killed mid-way (kill -9) frees
 * the lock within this long.
 */
export const LEASE_MS = 30_000;

/** The work lost its lock: the shared store did not answer in time to keep it, so another instance may hold it now. */
export class LeaseLost extends HttpError {
  constructor() {
    super(503, 'This work lost its lock because the shared store did not answer in time; try again shortly', 'UNAVAILABLE');
  }
}

/** A held lock. */
export interface Lease {
  /** Aborts, with LeaseLost, once the lock may have passed to someone else: the work must stop before it writes. */
  readonly lost: AbortSignal;
  /** Gives the lock back; never fails (a lock that cannot be given back ends with its lease). */
  release(): Promise<void>;
}

/**
 * Named locks for work that must run once at a time across every instance (an import that
 * uses the shared staging area, a sweep of the shared bucket). `acquire` answers undefined
 * at once when someone else holds the name: callers refuse rather than queue.
 */
export interface Locks {
  acquire(name: string): Promise<Lease | undefined>;
}

/** One process: a set of held names. */
export class LocalLocks implements Locks {
  private readonly held = new Set<string>();

  async acquire(name: string): Promise<Lease | undefined> {
    if (this.held.has(name)) return undefined;
    this.held.add(name);
    return {
      lost: new AbortController().signal,
      release: async () => {
        this.held.delete(name);
      },
    };
  }
}

/** Deletes the lock only while it still holds this owner's token: an expired lock taken by another stays theirs. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
/** Lengthens the lease only while it still holds this owner's token. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/**
 * Several instances: a Redis key set only if absent, holding its owner's token, with a
 * lease that its owner renews while the work runs; a lock whose instance was killed frees
 * itself once its lease runs out.
 */
export class RedisLocks implements Locks {
  constructor(
    private readonly redis: Redis,
    private readonly leaseMs = LEASE_MS,
  ) {}

  async acquire(name: string): Promise<Lease | undefined> {
    const key = `lock:${name}`;
    const token = randomUUID();
    const asked = Date.now();
    const taken = await this.redis.set(key, token, { condition: 'NX', expiration: { type: 'PX', value: this.leaseMs } });
    if (taken !== 'OK') return undefined;
    const lost = new AbortController();
    // Counted from when each renewal was sent, not answered: never later than Redis's own end.
    let heldUntil = asked + this.leaseMs;
    let renewing = false;
    const renew = async () => {
      if (Date.now() >= heldUntil) lost.abort(new LeaseLost());
      if (renewing || lost.signal.aborted) return;
      renewing = true;
      const sent = Date.now();
      try {
        const kept = await this.redis.eval(RENEW, { keys: [key], arguments: [token, String(this.leaseMs)] });
        if (kept === 1) heldUntil = sent + this.leaseMs;
        else lost.abort(new LeaseLost());
      } catch {
        // Not answered: the lease still stands until heldUntil, and the next turn tries again.
      } finally {
        renewing = false;
      }
    };
    const timer = setInterval(() => void renew(), Math.max(1, Math.floor(this.leaseMs / 3)));
    timer.unref();
    lost.signal.addEventListener('abort', () => clearInterval(timer));
    return {
      lost: lost.signal,
      release: async () => {
        clearInterval(timer);
        await this.redis.eval(RELEASE, { keys: [key], arguments: [token] }).catch(() => undefined);
      },
    };
  }
}
