import type { Redis } from './redis';
import type { AttemptCounter } from './rate-limit';

/**
 * How long a place held by an attempt survives without its answer: an instance killed
 * mid-attempt never settles it, and its places must not block the key for good.
 */
const PENDING_TTL_MS = 60_000;

/**
 * Takes a place atomically: granted unless failures and attempts in progress already fill
 * the limit. KEYS: failures, pending. ARGV: limit. Answers {granted, failures, ms left}.
 */
const TAKE = `
local failures = tonumber(redis.call('GET', KEYS[1]) or '0')
local pending = tonumber(redis.call('GET', KEYS[2]) or '0')
local left = redis.call('PTTL', KEYS[1])
if failures + pending >= tonumber(ARGV[1]) then return {0, failures, left} end
redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ${PENDING_TTL_MS})
return {1, failures, left}`;

/**
 * Gives a place back and, for a failure, counts it in the window, which the first failure
 * opens. KEYS: failures, pending. ARGV: failed (1 or 0), window in ms.
 */
const SETTLE = `
if tonumber(redis.call('DECR', KEYS[2])) < 0 then redis.call('SET', KEYS[2], 0, 'PX', ${PENDING_TTL_MS}) end
if ARGV[1] == '1' and redis.call('INCR', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

/**
 * Attempts counted in Redis, so that every instance behind one address counts against the
 * same limits: an attacker gains nothing by spreading guesses across instances.
 */
export class RedisAttemptCounter implements AttemptCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'attempts:',
  ) {}

  async take(key: string, limit: number, windowMs: number) {
    const [granted, failures, left] = (await this.redis.eval(TAKE, {
      keys: this.keysOf(key),
      arguments: [String(limit)],
    })) as [number, number, number];
    return { granted: granted === 1, failures, resetAt: Date.now() + (left > 0 ? left : windowMs) };
  }

  async settle(key: string, failed: boolean, windowMs: number) {
    await this.redis.eval(SETTLE, { keys: this.keysOf(key), arguments: [failed ? '1' : '0', String(windowMs)] });
  }

  private keysOf(key: string): string[] {
    return [`${this.prefix}${key}:failures`, `${this.prefix}${key}:pending`];
  }
}
