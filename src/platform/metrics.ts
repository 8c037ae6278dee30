import { createHash, timingSafeEqual } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler } from 'express';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CallTimes } from './call-times';
import { toErrorBody, Unauthorized } from './errors';
import { matchedRouteOf } from './http-tuning';

/** Connections of a pool: open ones, of them idle ones, and the requests waiting for one. */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

/** What the metrics read on a scrape, besides what they count themselves. */
export interface MetricsSources {
  /** The event streams open now. */
  openStreams(): number;
  /** Mails waiting in the outbox: one indexed count. */
  mailWaiting(): Promise<number>;
  /** The engines besides the records ('redis', 's3'), by the names `unreachable` gives them. */
  engines: readonly string[];
  /** The engines that do not answer now, as /healthz names them. */
  unreachable(): Promise<string[]>;
  /** The PostgreSQL pool's connections, when the records are there. */
  poolUse?: () => PoolUse;
  /** Each Redis command's time, when Redis is used. */
  redisTimes?: CallTimes;
}

/**
 * The longest a scrape waits for an engine: a little over the health check's own bound
 * (2 s), which it runs, and well within Prometheus's default scrape timeout (10 s). An
 * engine that has not answered by then is reported down, and the scrape answers anyway.
 */
const SCRAPE_DEADLINE_MS = 2_500;

/** Seconds: from a quick cached read to the 5 s within which every request is answered. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const REDIS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2];

const BEARER = /^Bearer +(\S+) *$/i;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The label of a request that no route answered: never its address, which may hold anything. */
export const UNMATCHED = 'unmatched';

function routeLabel(req: Request): string {
  return matchedRouteOf(req) ?? (req.path.startsWith('/static/') ? '/static' : UNMATCHED);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Settles within `ms`, as undefined when `work` has not answered by then or failed. */
async function within<T>(work: () => Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([work().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (CPU, heap, event-loop delay, garbage collection), in one
 * registry for the whole process, made at the first app that asks: they describe the
 * process whatever its apps, and their watchers (an event-loop delay histogram, a GC
 * observer) cannot be stopped, so an app made again and again (tests) must not start more.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface Metrics {
  /** Times every request; first of all the app's handlers. */
  measure: RequestHandler;
  /** GET /metrics: the Prometheus text for the right bearer token, 401 otherwise. */
  endpoint: RequestHandler;
  registry: Registry;
}

/**
 * The metrics of one app, in a registry of its own (an app may be made many times in one
 * process), served after the process's. Requests are counted as they are answered; everything else is read on a scrape
 * from counts the engines keep anyway, with one indexed count of the outbox, bounded by
 * SCRAPE_DEADLINE_MS. No label ever holds an address, an id or anything a user typed.
 */
export function createMetrics(token: string, sources: MetricsSources): Metrics {
  const registry = new Registry();
  const shared = processMetrics();

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request to the end of its answer, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'],
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  let inFlight = 0;
  new Gauge({
    name: 'http_requests_in_flight',
    help: 'Requests received and not yet answered (open event streams included).',
    registers: [registry],
    collect() {
      this.set(inFlight);
    },
  });
  new Gauge({
    name: 'sse_streams_open',
    help: 'Server-sent event streams open now.',
    registers: [registry],
    collect() {
      this.set(sources.openStreams());
    },
  });
  const mailWaiting = new Gauge({
    name: 'mail_outbox_waiting',
    help: 'Mails in the outbox waiting to be sent; NaN when the database did not answer the scrape in time.',
    registers: [registry],
  });
  const engineUp = new Gauge({
    name: 'engine_up',
    help: 'Whether a configured engine answered this scrape within its deadline (1) or not (0).',
    labelNames: ['engine'],
    registers: [registry],
  });
  if (sources.poolUse) {
    const poolUse = sources.poolUse;
    new Gauge({
      name: 'pg_pool_connections',
      help: 'PostgreSQL pool connections by state: open (total), idle, and requests waiting for one.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const use = poolUse();
        this.set({ state: 'total' }, use.total);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });
  }
  if (sources.redisTimes) {
    const commands = new Histogram({
      name: 'redis_command_duration_seconds',
      help: 'Time from a Redis command to its answer, by outcome (ok, or error: refused, failed or late).',
      labelNames: ['outcome'],
      buckets: REDIS_BUCKETS,
      registers: [registry],
    });
    sources.redisTimes.listen((seconds, ok) => commands.observe({ outcome: ok ? 'ok' : 'error' }, seconds));
  }

  const measure: RequestHandler = (req, res, next) => {
    const started = performance.now();
    inFlight += 1;
    // 'close' comes once, after 'finish' or alone when the client went away first.
    res.on('close', () => {
      inFlight -= 1;
      if (!res.writableFinished) return;
      const method = METHODS.has(req.method) ? req.method : 'other';
      requests.observe({ method, route: routeLabel(req), status: String(res.statusCode) }, (performance.now() - started) / 1000);
    });
    next();
  };

  const expected = digest(token);
  const endpoint: RequestHandler = async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const given = BEARER.exec(req.get('authorization') ?? '')?.[1] ?? '';
    // Digests of equal length, compared in constant time: neither the token nor its length shows in the timing.
    if (!timingSafeEqual(digest(given), expected)) {
      // JSON whatever the client accepts: a browser that opens the address gets no page either.
      res.set('WWW-Authenticate', 'Bearer realm="metrics"');
      res.status(401).json(toErrorBody(new Unauthorized('A valid metrics token is required', 'METRICS_TOKEN')));
      return;
    }
    const [waiting, failing] = await Promise.all([within(() => sources.mailWaiting(), SCRAPE_DEADLINE_MS), within(() => sources.unreachable(), SCRAPE_DEADLINE_MS)]);
    mailWaiting.set(waiting ?? Number.NaN);
    const databaseAnswered = waiting !== undefined && failing !== undefined && !failing.includes('database');
    engineUp.set({ engine: 'database' }, databaseAnswered ? 1 : 0);
    for (const engine of sources.engines) engineUp.set({ engine }, failing !== undefined && !failing.includes(engine) ? 1 : 0);
    const [ofProcess, own] = await Promise.all([shared.metrics(), registry.metrics()]);
    res.type(registry.contentType).send(ofProcess + own);
  };

  return { measure, endpoint, registry };
}
