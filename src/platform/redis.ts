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
import { CallTimes } from './call-times';
import { HttpError } from './errors';
import { StallGuard } from './stall';

export type Redis = RedisClientType;

/** Redis is out of reach: 503, like the database. */
export class RedisUnavailable extends HttpError {
  constructor(override readonly cause?: unknown) {
    super(503, 'A shared store cannot be reached right now; try again shortly', 'UNAVAILABLE');
  }
}

/**
 * How long a command waits for Redis's answer. node-redis's own command timeout only
 * covers a command still waiting to be written: once written to a server that stopped
 * answering, it would wait for ever.
 */
const COMMAND_DEADLINE_MS = 2_000;
const CONNECT_TIMEOUT_MS = 2_000;
/** How long closing waits for Redis to say goodbye before the sockets are simply dropped. */
const QUIT_MS = 1_000;
/** Pause between two looks at a Redis that stopped answering. */
const PROBE_RETRY_MS = 250;

export interface RedisConnection {
  /**
   * Commands, each answered within COMMAND_DEADLINE_MS or failed with RedisUnavailable;
   * they fail at once while the connection is down or Redis is known not to answer.
   */
  client: Redis;
  /** A second connection, which subscribing takes over entirely. */
  subscriber: Redis;
  /** One more connection for subscribing alone, for a user that wants its own; closed with the others. */
  openSubscriber(): Promise<Redis>;
  /** Whether Redis answers PING within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  /** How long each command of `client` waits for its answer. */
  times: CallTimes;
  close(): Promise<void>;
}

export interface RedisEvents {
  onError: (err: Error) => void;
  /** The subscriber is back from a lost connection. */
  onReconnect?: () => void;
  /** Redis stopped answering commands, and answers again. */
  onStall?: () => void;
  onRecover?: () => void;
}

/**
 * Two connections to Redis, reconnecting by themselves with a growing pause (at most 2 s).
 * While one is down its commands fail at once (no offline queue), and once a command has
 * waited COMMAND_DEADLINE_MS for its answer, the following ones fail at once too until
 * Redis answers a PING again: a request that needs Redis answers 503 instead of waiting
 * for it to come back.
 */
export async function connectRedis(url: string, events: RedisEvents): Promise<RedisConnection> {
  const make = () =>
    createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: CONNECT_TIMEOUT_MS, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
    })
      .on('error', (err: Error) => events.onError(err)) as unknown as Redis;
  const client = make();
  const subscriber = make();
  const others: Redis[] = [];
  let ready = false;
  // A subscriber that was away missed notices: whoever keeps caches must reload them.
  subscriber.on('ready', () => {
    if (ready) events.onReconnect?.();
    ready = true;
  });
  await Promise.all([client.connect(), subscriber.connect()]);
  const guard = new StallGuard({
    deadlineMs: COMMAND_DEADLINE_MS,
    // Answered only after every command written before it: Redis has caught up.
    probe: () => client.ping(),
    retryMs: PROBE_RETRY_MS,
    unavailable: (cause) => new RedisUnavailable(cause),
    onStall: events.onStall,
    onRecover: events.onRecover,
  });
  const times = new CallTimes();
  return {
    client: withDeadlines(client, guard, times),
    times,
    subscriber,
    async openSubscriber() {
      const another = make();
      others.push(another);
      await another.connect();
      return another;
    },
    ping: (timeoutMs) => guard.answers(() => client.ping(), timeoutMs),
    async close() {
      guard.close();
      await Promise.all([client, subscriber, ...others].map(quit));
    },
  };
}

async function quit(connection: Redis): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), QUIT_MS)));
  const said = await Promise.race([connection.quit().catch(() => 'failed' as const), late]);
  clearTimeout(timer);
  if (said === 'late' || said === 'failed') connection.destroy();
}

/**
 * The client seen through `guard`: every command (a call of any of its methods; nothing
 * else is called through this view) waits for its answer at most the guard's deadline.
 * A MULTI's commands are queued without a word to Redis, so only its exec is a call; a SCAN
 * iterator's every page is one.
 */
function withDeadlines(client: Redis, guard: StallGuard, times: CallTimes): Redis {
  const command =
    <T>(run: (...args: unknown[]) => T) =>
    (...args: unknown[]) =>
      times.time(() => guard.run(() => Promise.resolve(run(...args))));
  return new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (property === 'multi' || property === 'MULTI') return () => batch(method.call(target) as object, guard, times);
      if (property === 'scanIterator') return (...args: unknown[]) => pages(method.apply(target, args) as AsyncIterator<unknown>, guard);
      return command((...args) => method.apply(target, args));
    },
  });
}

function batch(multi: object, guard: StallGuard, times: CallTimes): unknown {
  const view: object = new Proxy(multi, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof property === 'string' && property.startsWith('exec')) {
        return (...args: unknown[]) => times.time(() => guard.run(() => method.apply(target, args) as Promise<unknown>));
      }
      // Queuing a command answers the MULTI itself, to chain the next one.
      return (...args: unknown[]) => {
        const result = method.apply(target, args);
        return result === target ? view : result;
      };
    },
  });
  return view;
}

async function* pages(iterator: AsyncIterator<unknown>, guard: StallGuard): AsyncGenerator {
  for (;;) {
    const page = await guard.run(() => iterator.next());
    if (page.done) return;
    yield page.value;
  }
}

const OUT_OF_REACH = [ClientClosedError, ClientOfflineError, ConnectionTimeoutError, SocketClosedUnexpectedlyError, SocketTimeoutError, TimeoutError];

/** Whether an error says Redis is out of reach, rather than that a command was wrong. */
export function isRedisUnreachable(err: unknown): boolean {
  if (err instanceof RedisUnavailable || OUT_OF_REACH.some((type) => err instanceof type)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE';
}
