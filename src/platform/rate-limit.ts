import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import type { Clock } from './clock';
import { TooManyRequests } from './errors';

/**
 * express-rate-limit's own MemoryStore reads the wall clock; this one reads the injected
 * clock so that window expiry can be tested, and it stays replaceable by a shared store.
 */
export class ClockedMemoryStore implements Store {
  localKeys = true;
  private windowMs = 60_000;
  private readonly hits = new Map<string, { totalHits: number; resetAt: number }>();

  constructor(private readonly clock: Clock) {}

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const entry = this.live(key);
    return entry ? { totalHits: entry.totalHits, resetTime: new Date(entry.resetAt) } : undefined;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const now = this.clock.now();
    if (this.hits.size > 10_000) this.prune(now);
    let entry = this.live(key);
    if (!entry) {
      entry = { totalHits: 0, resetAt: now + this.windowMs };
      this.hits.set(key, entry);
    }
    entry.totalHits += 1;
    return { totalHits: entry.totalHits, resetTime: new Date(entry.resetAt) };
  }

  async decrement(key: string): Promise<void> {
    const entry = this.live(key);
    if (entry && entry.totalHits > 0) entry.totalHits -= 1;
  }

  async resetKey(key: string): Promise<void> {
    this.hits.delete(key);
  }

  async resetAll(): Promise<void> {
    this.hits.clear();
  }

  private live(key: string) {
    const entry = this.hits.get(key);
    if (entry && entry.resetAt <= this.clock.now()) {
      this.hits.delete(key);
      return undefined;
    }
    return entry;
  }

  private prune(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

export interface FailureLimitOptions {
  clock: Clock;
  windowMs: number;
  limit: number;
  /** Which responses count as a failed attempt. */
  isFailure: (res: Response) => boolean;
  key: (req: Request) => string | undefined;
  message: string;
  store?: Store;
}

/**
 * Counts failed attempts per key in a fixed window; once `limit` have failed, every further
 * attempt (right or wrong) gets 429 with Retry-After until the window ends.
 *
 * express-rate-limit's middleware counts every request first and gives successes back
 * later, so concurrent good requests could be refused; here only a failure is ever counted,
 * in an express-rate-limit store so a shared store can replace the memory one.
 */
export function failureLimiter(opts: FailureLimitOptions): RequestHandler {
  const store = opts.store ?? new ClockedMemoryStore(opts.clock);
  void store.init?.({ windowMs: opts.windowMs } as Options);
  return async (req, res, next) => {
    const key = opts.key(req);
    if (key === undefined) return next();
    const info = await store.get?.(key);
    if (info && info.totalHits >= opts.limit) {
      const resetAt = info.resetTime?.getTime() ?? opts.clock.now() + opts.windowMs;
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil((resetAt - opts.clock.now()) / 1000))));
      throw new TooManyRequests(opts.message);
    }
    res.on('finish', () => {
      if (opts.isFailure(res)) void store.increment(key);
    });
    next();
  };
}
export function clientAddress(req: Request): string {
  return ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}
