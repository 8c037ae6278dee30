import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  createClient,
  SocketClosedUnexpectedlyError,
  SocketTimeoutError,
  TimeoutError,
  type RedisClientType,
} from 'redis';
import { HttpError } from './errors';

export type Redis = RedisClientType;

/** Redis is out of reach: 503, like the database. */
export class RedisUnavailable extends HttpError {
  constructor(override readonly cause?: unknown) {
    super(503, 'A shared store cannot be reached right now; try again shortly', 'UNAVAILABLE');
  }
}

/** How long a command may wait for Redis before the request is answered 503. */
const COMMAND_TIMEOUT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 5_000;

export interface RedisConnection {
  /** Commands; they fail at once while the connection is down, rather than queue. */
  client: Redis;
  /** A second connection, which subscribing takes over entirely. */
  subscriber: Redis;
  /** Whether Redis answers PING within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Two connections to Redis, reconnecting by themselves with a growing pause (at most 2 s).
 * While one is down its commands fail at once (no offline queue), so a request that needs
 * Redis answers 503 instead of waiting for it to come back.
 */
export async function connectRedis(url: string, opts: { onError: (err: Error) => void; onReconnect?: () => void }): Promise<RedisConnection> {
  const make = () =>
    createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
    })
      .on('error', (err: Error) => opts.onError(err)) as unknown as Redis;
  const client = make();
  const subscriber = make();
  let ready = false;
  // A subscriber that was away missed notices: whoever keeps caches must reload them.
  subscriber.on('ready', () => {
    if (ready) opts.onReconnect?.();
    ready = true;
  });
  await Promise.all([client.connect(), subscriber.connect()]);
  const timed = client.withCommandOptions({ timeout: COMMAND_TIMEOUT_MS }) as unknown as Redis;
  return {
    client: timed,
    subscriber,
    async ping(timeoutMs) {
      try {
        await client.withCommandOptions({ timeout: timeoutMs }).ping();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
    },
  };
}

const OUT_OF_REACH = [ClientClosedError, ClientOfflineError, ConnectionTimeoutError, SocketClosedUnexpectedlyError, SocketTimeoutError, TimeoutError];

/** Whether an error says Redis is out of reach, rather than that a command was wrong. */
export function isRedisUnreachable(err: unknown): boolean {
  if (OUT_OF_REACH.some((type) => err instanceof type)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE';
}
