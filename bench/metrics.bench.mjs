// What measuring every request for GET /metrics costs: the same signed-in reads
// (GET /auth/check with a live dashboard session, GET /api/auth/me with a bearer token)
// against the whole application without METRICS_TOKEN (nothing measured) and with it
// (every request timed into the histogram, routes labelled), each app in a process of its
// own, turn about in the same rounds so both see the same moments of a busy machine; then
// the time of one scrape. Prints requests/s with the ratio and the load average.
// Runs on dist/ (built by `npm run bench`).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const require = createRequire(import.meta.url);
const here = fileURLToPath(import.meta.url);

const ADMIN_PIN = '999999';
const PASSWORD = 'Bench-password-2026';
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef0123';
const SECONDS = 3;
const ROUNDS = 5;
const WARMUP_SECONDS = 1;
const CONNECTIONS = 20;
const SCRAPES = 50;
/** The cost the measuring may add to a signed-in read. */
const GOAL_RATIO = 0.95;

// ## The app (in a child process started with `--serve <with|without>`)

async function serveApp(measured) {
  const { benchApp, benchEnv } = await import('./app.mjs');
  const { createHttpServer } = require('../dist/platform/http-server.js');
  const { hashPassword } = require('../dist/workspace/members/passwords.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-bench-metrics-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const { app, stores } = await benchApp(benchEnv(dir, { ADMIN_PIN, TRUST_PROXY: '1', ...(measured ? { METRICS_TOKEN } : {}) }));
  const { db } = stores.records.workspace;
  const now = new Date().toISOString();
  const brand = await db.insertInto('brands').values({ name: 'Bench brand', created_at: now }).returning('id').executeTakeFirstOrThrow();
  const admin = await db
    .insertInto('users')
    .values({ name: 'Bench admin', email: 'admin@bench.test', password_hash: await hashPassword(PASSWORD), role: 'superadmin', must_change_password: 0, created_at: now, token_key: 'bench' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('user_brands').values({ user_id: admin.id, brand_id: brand.id }).execute();
  const server = createHttpServer(app);
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}

// ## The run

const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill();
});

function start(kind) {
  const child = fork(here, ['--serve', kind], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    child.once('message', ({ port }) => resolve({ url: `http://127.0.0.1:${port}`, stop: () => child.kill() }));
    child.once('exit', (code) => reject(new Error(`${kind} exited (${code})`)));
  });
}

async function load(target) {
  const opts = { connections: CONNECTIONS, ...target };
  await autocannon({ ...opts, duration: WARMUP_SECONDS });
  // autocannon ships no types: the fields of its result read here.
  /** @type {{ errors: number, timeouts: number, non2xx: number, requests: { total: number, average: number }, latency: { p50: number, p99: number } }} */
  const result = await autocannon({ ...opts, duration: SECONDS });
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0) throw new Error(`GET ${opts.url}: ${failed} failed requests of ${result.requests.total}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function send(url, method, headers, body) {
  const res = await fetch(url, { method, headers, body });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}`);
  return res;
}

async function signIn(app) {
  const json = { 'Content-Type': 'application/json' };
  const login = await send(`${app.url}/auth/login`, 'POST', json, JSON.stringify({ pin: ADMIN_PIN }));
  const cookie = login.headers.getSetCookie()[0].split(';')[0];
  const { token } = await (await send(`${app.url}/api/auth/login`, 'POST', json, JSON.stringify({ email: 'admin@bench.test', password: PASSWORD }))).json();
  return {
    check: { url: `${app.url}/auth/check`, headers: { Cookie: cookie } },
    me: { url: `${app.url}/api/auth/me`, headers: { Authorization: `Bearer ${token}` } },
  };
}

const ms = (v) => `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms`;

async function main() {
  const [without, withMetrics] = [await start('without'), await start('with')];
  const reads = { without: await signIn(without), with: await signIn(withMetrics) };
  const absent = await fetch(`${without.url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  if (absent.status !== 404) throw new Error(`/metrics answered ${absent.status} without METRICS_TOKEN`);

  const loadBefore = os.loadavg();
  const runs = {};
  for (let round = 0; round < ROUNDS; round += 1) {
    // Which app goes first alternates, so neither always meets the other's after-effects.
    const order = round % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
    for (const read of ['check', 'me']) {
      for (const app of order) (runs[`${read} ${app}`] ??= []).push(await load(reads[app][read]));
    }
  }
  const loadAfter = os.loadavg();
  const figure = (name) => ({ rps: median(runs[name].map((r) => r.rps)), p50: median(runs[name].map((r) => r.p50)), p99: median(runs[name].map((r) => r.p99)) });

  const scrapeTimes = [];
  let scrapeBytes = 0;
  for (let i = 0; i < SCRAPES; i += 1) {
    const started = performance.now();
    const res = await send(`${withMetrics.url}/metrics`, 'GET', { Authorization: `Bearer ${METRICS_TOKEN}` });
    scrapeBytes = (await res.text()).length;
    scrapeTimes.push(performance.now() - started);
  }
  without.stop();
  withMetrics.stop();

  console.log(`\nMetrics benchmark: Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} CPUs; medians of ${ROUNDS} rounds of ${SECONDS} s (after ${WARMUP_SECONDS} s of warm-up each), ${CONNECTIONS} connections, the two apps in turn`);
  console.log(`Load average (1, 5, 15 min): ${loadBefore.map((v) => v.toFixed(2)).join(', ')} before, ${loadAfter.map((v) => v.toFixed(2)).join(', ')} after`);
  console.log('\n| request | without METRICS_TOKEN: requests/s | p50 | p99 | with METRICS_TOKEN: requests/s | p50 | p99 | with ÷ without |');
  console.log('|---|---|---|---|---|---|---|---|');
  let failed = false;
  for (const [read, name] of [
    ['check', 'GET /auth/check, live dashboard session'],
    ['me', 'GET /api/auth/me, bearer token'],
  ]) {
    const [off, on] = [figure(`${read} without`), figure(`${read} with`)];
    const ratio = on.rps / off.rps;
    failed ||= ratio < GOAL_RATIO;
    console.log(
      `| ${name} | ${Math.round(off.rps).toLocaleString('en')} | ${ms(off.p50)} | ${ms(off.p99)} | ${Math.round(on.rps).toLocaleString('en')} | ${ms(on.p50)} | ${ms(on.p99)} | ${(ratio * 100).toFixed(1)}% (goal ≥ ${GOAL_RATIO * 100}%: ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'}) |`,
    );
  }
  scrapeTimes.sort((a, b) => a - b);
  console.log(`\nGET /metrics after the load: p50 ${ms(median(scrapeTimes))}, slowest ${ms(scrapeTimes.at(-1))} of ${SCRAPES} scrapes, ${scrapeBytes.toLocaleString('en')} bytes`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[2] === '--serve') {
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
  await serveApp(process.argv[3] === 'with');
} else {
  await main();
}
