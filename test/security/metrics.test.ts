import { describe, expect, it } from 'vitest';
import { testEngine } from '../support/app';
import { openStream, serve } from '../support/events';
import { request } from '../support/http';
import { cuttableRelay } from '../support/net';
import { migratedDatabase } from '../support/postgres';
import { describeRedis, freshRedis } from '../support/redis';
import { buildWorkspace } from '../support/workspace';
import { routesOf } from './world';

const TOKEN = 'metrics-token-for-the-tests-0123456789abcdef';
const scrape = (app: Parameters<typeof request>[0], token = TOKEN) => request(app).get('/metrics').set('Authorization', `Bearer ${token}`);

/** One sample: a metric's name, its labels, its value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const HELP = new RegExp(`^# HELP (${NAME}) \\S.*$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE = new RegExp(`^(${NAME})(?:\\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*",?)*)\\})? (NaN|[+-]Inf|-?\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?)$`, 'i');
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"/g;

/**
 * The Prometheus text format, read strictly (values as Prometheus reads them: prom-client
 * writes NaN as `Nan`, which Prometheus takes in any case): every line a HELP, a TYPE or a sample (blank
 * lines between families), every sample of a family declared by a TYPE line before it
 * (a histogram's by its _bucket, _sum and _count), no family declared twice.
 */
function parseExposition(text: string): Sample[] {
  const families = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split('\n');
  expect(lines.at(-1), 'the text ends with a newline').toBe('');
  for (const line of lines.slice(0, -1)) {
    if (line === '' || HELP.test(line)) continue;
    const type = TYPE.exec(line);
    if (type) {
      expect(families.has(type[1]), `${type[1]} declared once`).toBe(false);
      families.set(type[1], type[2]);
      continue;
    }
    const sample = SAMPLE.exec(line);
    expect(sample, `a sample line: ${line}`).not.toBeNull();
    const [, name, labelText = '', value] = sample!;
    const family = families.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    expect(families.has(family), `${name} has a TYPE line before it`).toBe(true);
    if (family !== name) expect(families.get(family)).toMatch(/histogram|summary/);
    const labels = Object.fromEntries([...labelText.matchAll(LABEL)].map((m) => [m[1], m[2]]));
    samples.push({ name, labels, value: Number(value) });
  }
  return samples;
}

/** The value of the sample of `name` whose labels include `labels`; undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

async function readMetrics(app: Parameters<typeof request>[0]): Promise<{ text: string; samples: Sample[] }> {
  const res = await scrape(app);
  expect(res.status).toBe(200);
  return { text: res.text, samples: parseExposition(res.text) };
}

const requestCount = (samples: Sample[], route: string, status: string) =>
  valueOf(samples, 'http_request_duration_seconds_count', { method: 'GET', route, status }) ?? 0;

describe('GET /metrics without METRICS_TOKEN', () => {
  it('when METRICS_TOKEN is unset, then /metrics answers exactly as a path that does not exist, with or without a bearer, and /livez answers 200', async () => {
    const ws = await buildWorkspace();
    const absent = await request(ws.app).get('/no-such-path');
    for (const res of [await request(ws.app).get('/metrics'), await scrape(ws.app)]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(absent.body);
      expect(res.text).not.toMatch(/http_request|process_cpu/);
    }
    const live = await request(ws.app).get('/livez');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ ok: true });
    expect(live.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  it.each([
    ['no Authorization header', undefined],
    ['a wrong token', `Bearer ${TOKEN.slice(0, -1)}x`],
    ['the token with a tail', `Bearer ${TOKEN}x`],
    ['the token without its scheme', TOKEN],
    ['the token under another scheme', `Basic ${Buffer.from(`metrics:${TOKEN}`).toString('base64')}`],
    ['an empty bearer', 'Bearer '],
  ])('when the request carries %s, then 401 JSON {error, code} names no metric, even to a browser', async (_name, header) => {
    const ws = await buildWorkspace({ env: { METRICS_TOKEN: TOKEN } });
    for (const accept of ['*/*', 'text/html']) {
      const req = request(ws.app).get('/metrics').set('Accept', accept);
      const res = header === undefined ? await req : await req.set('Authorization', header);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).toEqual({ error: expect.any(String), code: 'METRICS_TOKEN' });
      expect(res.text).not.toMatch(/http_request|process_cpu|nodejs_/);
    }
  });

  it('when the right token is sent (in any case of its scheme), then 200 in the Prometheus text format, read strictly, with the process, request, outbox, stream and engine metrics, no cookie and no caching', async () => {
    const ws = await buildWorkspace({ env: { METRICS_TOKEN: TOKEN } });
    const res = await request(ws.app).get('/metrics').set('Authorization', `bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
    const samples = parseExposition(res.text);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_heap_size_total_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_eventloop_lag_mean_seconds',
      'http_requests_in_flight',
      'sse_streams_open',
      'mail_outbox_waiting',
    ]) {
      expect(valueOf(samples, name), name).toEqual(expect.any(Number));
    }
    // The scrape itself is in flight while it is read.
    expect(valueOf(samples, 'http_requests_in_flight')).toBe(1);
    expect(valueOf(samples, 'engine_up', { engine: 'database' })).toBe(1);
    expect(samples.filter((s) => s.name === 'engine_up').map((s) => s.labels.engine)).toEqual(['database']);
    if (testEngine() === 'postgres') {
      for (const state of ['total', 'idle', 'waiting']) expect(valueOf(samples, 'pg_pool_connections', { state }), state).toEqual(expect.any(Number));
      expect(valueOf(samples, 'pg_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    } else {
      expect(valueOf(samples, 'pg_pool_connections')).toBeUndefined();
    }
    expect(valueOf(samples, 'redis_command_duration_seconds_count')).toBeUndefined();
  });

  it('when a signed-in member reads posts by id, then the requests are counted under the route pattern, whatever the case of the address or the error, and no id, address or email is in the output', async () => {
    const ws = await buildWorkspace({ env: { METRICS_TOKEN: TOKEN } });
    const brand = await ws.brand('Counted');
    const member = await ws.user('manager', { brandIds: [brand.id], email: 'counted.member@example.test' });
    const { cookie } = await ws.signIn(member.email);
    const before = (await readMetrics(ws.app)).samples;

    for (const id of [918273, 918274, 918275]) expect((await ws.withCookie(cookie).get(`/api/posts/${id}`)).status).toBe(404);
    expect((await ws.as(member).get('/API/Posts/918276')).status).toBe(404);
    const invalid = await ws.as(member).get('/api/posts/not-a-number-5550123');
    expect(invalid.status).toBe(400);
    expect((await request(ws.app).get('/no/such/page/7770123')).status).toBe(404);
    expect((await request(ws.app).get('/api/posts/918277')).status).toBe(401);
    expect((await ws.as(member).get('/api/auth/me')).status).toBe(200);

    const { text, samples } = await readMetrics(ws.app);
    expect(requestCount(samples, '/api/posts/:id', '404') - requestCount(before, '/api/posts/:id', '404')).toBe(4);
    expect(requestCount(samples, '/api/posts/:id', '400') - requestCount(before, '/api/posts/:id', '400')).toBe(1);
    expect(requestCount(samples, '/api/auth/me', '200') - requestCount(before, '/api/auth/me', '200')).toBe(1);
    expect(requestCount(samples, 'unmatched', '404') - requestCount(before, 'unmatched', '404')).toBe(1);
    // Refused before any route of /api/posts matched: nothing in the request says more than where it was refused.
    expect(requestCount(samples, 'unmatched', '401') - requestCount(before, 'unmatched', '401')).toBe(1);
    for (const leak of ['918273', '918276', '918277', '5550123', '7770123', 'not-a-number', member.email, 'example.test', '/API/Posts', 'Counted']) {
      expect(text, leak).not.toContain(leak);
    }
    const patterns = new Set([...routesOf(ws.app).map((r) => r.path), 'unmatched', '/static']);
    const labels = new Set(samples.filter((s) => s.name.startsWith('http_request_duration_seconds')).map((s) => s.labels.route));
    for (const label of labels) expect(patterns, `route label ${label}`).toContain(label);
  });

  it('when requests are answered, then their count, their sum of seconds and their buckets move, and the slowest bucket holds them all', async () => {
    const ws = await buildWorkspace({ env: { METRICS_TOKEN: TOKEN } });
    const count = (samples: Sample[]) => valueOf(samples, 'http_request_duration_seconds_count', { method: 'GET', route: '/livez', status: '200' }) ?? 0;
    const before = (await readMetrics(ws.app)).samples;
    for (let i = 0; i < 5; i += 1) expect((await request(ws.app).get('/livez')).status).toBe(200);
    const after = (await readMetrics(ws.app)).samples;
    expect(count(after) - count(before)).toBe(5);
    expect(valueOf(after, 'http_request_duration_seconds_sum', { route: '/livez' })).toBeGreaterThan(0);
    expect(valueOf(after, 'http_request_duration_seconds_bucket', { route: '/livez', le: '+Inf' })).toBe(count(after));
    // The scrapes count too, under their own route.
    expect(valueOf(after, 'http_request_duration_seconds_count', { route: '/metrics', status: '200' })).toBe(1);
  });

  it('when a mail is queued and an event stream is open, then mail_outbox_waiting and sse_streams_open count them, and the stream is in flight until it closes', async () => {
    const ws = await buildWorkspace({ env: { METRICS_TOKEN: TOKEN } });
    const brand = await ws.brand();
    const member = await ws.user('contributor', { brandIds: [brand.id] });
    const before = (await readMetrics(ws.app)).samples;
    // No mail worker runs beside this app: the reset mail stays in the outbox.
    expect((await request(ws.app).post('/api/auth/password-reset').send({ email: member.email })).status).toBeLessThan(300);
    const url = await serve(ws.app);
    const stream = await openStream(`${url}/api/events`, { Authorization: `Bearer ${member.token}` });
    expect(stream.status).toBe(200);

    const open = (await readMetrics(ws.app)).samples;
    expect((valueOf(open, 'mail_outbox_waiting') ?? 0) - (valueOf(before, 'mail_outbox_waiting') ?? 0)).toBe(1);
    expect(valueOf(open, 'sse_streams_open')).toBe(1);
    expect(valueOf(open, 'http_requests_in_flight')).toBe(2);
    stream.close();
    await expect.poll(async () => valueOf((await readMetrics(ws.app)).samples, 'sse_streams_open'), { timeout: 5_000, interval: 50 }).toBe(0);
    expect(valueOf((await readMetrics(ws.app)).samples, 'http_requests_in_flight')).toBe(1);
  });

  it('when two apps are made in one process, then each counts only its own requests, and both serve the process metrics', async () => {
    const [a, b] = [await buildWorkspace({ env: { METRICS_TOKEN: TOKEN } }), await buildWorkspace({ env: { METRICS_TOKEN: TOKEN } })];
    for (let i = 0; i < 3; i += 1) await request(a.app).get('/livez');
    const [onA, onB] = [(await readMetrics(a.app)).samples, (await readMetrics(b.app)).samples];
    expect(requestCount(onA, '/livez', '200')).toBe(3);
    expect(requestCount(onB, '/livez', '200')).toBe(0);
    for (const samples of [onA, onB]) expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});

/** What answers within this while an engine is frozen: the scrape's own deadline is 2.5 s. */
const FROZEN_ANSWER_MS = 3_500;

async function timedGet(app: Parameters<typeof request>[0], path: string, token?: string) {
  const started = Date.now();
  const req = request(app).get(path);
  const res = token ? await req.set('Authorization', `Bearer ${token}`) : await req;
  return { res, ms: Date.now() - started };
}

describe('probes and metrics while an engine is frozen', () => {
  if (testEngine() === 'postgres') {
    it('when PostgreSQL stops answering with its connections open, then /livez answers 200 at once, /healthz 503, and /metrics within its deadline with engine_up{engine="database"} 0 and the outbox count unknown (NaN)', async () => {
      const url = new URL(await migratedDatabase());
      const relay = await cuttableRelay(url.hostname, Number(url.port));
      url.port = String(relay.port);
      const ws = await buildWorkspace({ engine: 'postgres', env: { DATABASE_URL: url.toString(), METRICS_TOKEN: TOKEN } });
      const up = (await readMetrics(ws.app)).samples;
      expect(valueOf(up, 'engine_up', { engine: 'database' })).toBe(1);
      expect(valueOf(up, 'mail_outbox_waiting')).toBe(0);

      relay.freeze();
      const [live, health, metrics] = await Promise.all([timedGet(ws.app, '/livez'), timedGet(ws.app, '/healthz'), timedGet(ws.app, '/metrics', TOKEN)]);
      expect(live.res.status).toBe(200);
      expect(live.ms).toBeLessThan(500);
      expect(health.res.status).toBe(503);
      expect(health.res.body).toEqual({ ok: false, failing: ['database'] });
      expect(metrics.res.status).toBe(200);
      expect(metrics.ms).toBeLessThan(FROZEN_ANSWER_MS);
      const frozen = parseExposition(metrics.res.text);
      expect(valueOf(frozen, 'engine_up', { engine: 'database' })).toBe(0);
      expect(valueOf(frozen, 'mail_outbox_waiting')).toBeNaN();
      expect(valueOf(frozen, 'pg_pool_connections', { state: 'total' })).toEqual(expect.any(Number));

      relay.thaw();
      await expect.poll(async () => valueOf((await readMetrics(ws.app)).samples, 'engine_up', { engine: 'database' }), { timeout: 10_000, interval: 200 }).toBe(1);
    });
  }

  describeRedis('with Redis', () => {
    it('when Redis stops answering with its connections open, then /livez answers 200 at once, /healthz 503, and /metrics within its deadline with engine_up{engine="redis"} 0; Redis command times are counted', async () => {
      const redis = await freshRedis();
      const ws = await buildWorkspace({ env: { REDIS_URL: redis.url, METRICS_TOKEN: TOKEN } });
      const brand = await ws.brand();
      const member = await ws.user('contributor', { brandIds: [brand.id] });
      // A cookie sign-in keeps its session in Redis.
      const { cookie } = await ws.signIn(member.email);
      expect((await ws.withCookie(cookie).get('/api/auth/me')).status).toBe(200);
      const up = (await readMetrics(ws.app)).samples;
      expect(valueOf(up, 'engine_up', { engine: 'redis' })).toBe(1);
      expect(valueOf(up, 'redis_command_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThan(0);

      redis.freeze();
      try {
        const [live, health, metrics] = await Promise.all([timedGet(ws.app, '/livez'), timedGet(ws.app, '/healthz'), timedGet(ws.app, '/metrics', TOKEN)]);
        expect(live.res.status).toBe(200);
        expect(live.ms).toBeLessThan(500);
        expect(health.res.status).toBe(503);
        expect(health.res.body).toEqual({ ok: false, failing: ['redis'] });
        expect(metrics.res.status).toBe(200);
        expect(metrics.ms).toBeLessThan(FROZEN_ANSWER_MS);
        const frozen = parseExposition(metrics.res.text);
        expect(valueOf(frozen, 'engine_up', { engine: 'redis' })).toBe(0);
        expect(valueOf(frozen, 'engine_up', { engine: 'database' })).toBe(1);
      } finally {
        redis.thaw();
      }
      await expect.poll(async () => valueOf((await readMetrics(ws.app)).samples, 'engine_up', { engine: 'redis' }), { timeout: 10_000, interval: 200 }).toBe(1);
    });
  });
});
