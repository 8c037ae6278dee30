import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Clock } from './clock';
import { TooManyRequests } from './errors';

/** Where attempts are counted: process memory here, a shared store when instances share limits. */
export interface AttemptCounter {
  /**
   * Claims a place for one attempt under `key`, atomically: granted unless the window's
   * failures and the attempts still being judged already number `limit`. The first
   * attempt of a key opens a window of `windowMs`.
   */
  take(key: string, limit: number, windowMs: number): Promise<{ granted: boolean; failures: number; resetAt: number }>;
  /** Ends a granted attempt: kept as a failure (in the window of `windowMs`), or its place given back. */
  settle(key: string, failed: boolean, windowMs: number): Promise<void>;
}

interface Window {
  failures: number;
  /** Attempts granted and not yet judged. */
  pending: number;
  resetAt: number;
}

/** Counts in a Map, by the injected clock so that windows can be tested. */
export class MemoryAttemptCounter implements AttemptCounter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  // No await inside: each call runs to completion before another starts, so it is atomic.
  async take(key: string, limit: number, windowMs: number) {
    const now = this.clock.now();
    if (this.windows.size > 10_000) this.prune(now);
    let window = this.windows.get(key);
    if (!window) {
      window = { failures: 0, pending: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    } else if (window.resetAt <= now) {
      // Attempts still being judged carry over: they will settle into this new window.
      Object.assign(window, { failures: 0, resetAt: now + windowMs });
    }
    const granted = window.failures + window.pending < limit;
    if (granted) window.pending += 1;
    return { granted, failures: window.failures, resetAt: window.resetAt };
  }

  async settle(key: string, failed: boolean) {
    const window = this.windows.get(key);
    if (!window) return;
    window.pending = Math.max(0, window.pending - 1);
    if (failed && window.resetAt > this.clock.now()) window.failures += 1;
  }

  private prune(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now && window.pending === 0) this.windows.delete(key);
  }
}

/** At most `limit` failed attempts per key in a fixed window of `windowMs`. */
export interface AttemptRule {
  /** Keeps this rule's keys apart from every other rule's in one counter. */
  name: string;
  limit: number;
  windowMs: number;
  /** The key an attempt counts under; undefined when the rule does not apply to it. */
  key: (req: Request) => string | undefined | Promise<string | undefined>;
  message: string;
  /** The refusal's code, for pages that say why in their own words. */
  code?: string;
}

export interface AttemptLimitOptions {
  counter: AttemptCounter;
  clock: Clock;
  rules: AttemptRule[];
  /** Whether the answer judged the attempt a failure; anything else gives its place back. */
  isFailure: (res: Response) => boolean;
}

/** How often an attempt that found every place taken by attempts still being judged looks again. */
const WAIT_STEP_MS = 25;
/** How long it waits for a place before it is refused all the same. */
const WAIT_MAX_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Admits an attempt only once it holds a place under every rule that applies, and refuses
 * it with 429 and Retry-After once a rule's window holds `limit` failures. A place is held
 * from the start of the attempt until its answer, and kept as a failure or given back
 * then; so however many attempts arrive at once, no more than the limit are ever judged in
 * a window. Attempts that find the places held by others still being judged wait for them
 * rather than being refused, so that many honest sign-ins at once (an office behind one
 * address) all go through. An attempt whose client went away before its answer counts as
 * a failure.
 */
export function attemptLimiter(opts: AttemptLimitOptions): RequestHandler {
  const { counter, clock } = opts;
  return async (req, res, next) => {
    const keys: Keyed[] = [];
    for (const rule of opts.rules) {
      const key = await rule.key(req);
      if (key !== undefined) keys.push({ rule, key: `${rule.name}:${key}` });
    }
    const started = Date.now();
    let taken = await takeAll(counter, keys);
    while (!Array.isArray(taken)) {
      const { rule, failures, resetAt } = taken;
      if (failures >= rule.limit || Date.now() - started >= WAIT_MAX_MS) {
        res.setHeader('Retry-After', String(Math.max(1, Math.ceil((resetAt - clock.now()) / 1000))));
        throw new TooManyRequests(rule.message, rule.code);
      }
      await sleep(WAIT_STEP_MS);
      taken = await takeAll(counter, keys);
    }
    const places = taken;
    if (places.length > 0) {
      let settled = false;
      const settle = (answered: boolean) => {
        if (settled) return;
        settled = true;
        const failed = !answered || opts.isFailure(res);
        // A settle that fails leaves a place held until the window ends: stricter, never looser.
        for (const { rule, key } of places) counter.settle(key, failed, rule.windowMs).catch(() => undefined);
      };
      res.once('finish', () => settle(true));
      res.once('close', () => settle(res.writableFinished));
    }
    next();
  };
}

/**
 * A place under every key, or none: an attempt never holds a place while it waits for
 * another. Answers the keys taken, or the rule that refused and its window.
 */
async function takeAll(counter: AttemptCounter, keys: Keyed[]) {
  const taken: Keyed[] = [];
  for (const keyed of keys) {
    const { rule, key } = keyed;
    const place = await counter.take(key, rule.limit, rule.windowMs);
    if (!place.granted) {
      await Promise.all(taken.map((k) => counter.settle(k.key, false, k.rule.windowMs)));
      return { rule, failures: place.failures, resetAt: place.resetAt };
    }
    taken.push(keyed);
  }
  return taken;
}

interface Keyed {
  rule: AttemptRule;
  key: string;
}

export function clientAddress(req: Request): string {
  return ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? 'unknown');
}
