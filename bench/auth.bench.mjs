// Signed-in requests and sign-ins under load (autocannon), each against baselines started
// by this run on this machine:
// - GET /auth/check with a live dashboard session and GET /api/auth/me with a bearer token,
//   against a bare Express 5 app and a raw node:http server that both answer {ok:true}, and
//   against the same bare app on the application's own HTTP server (src/platform/http-server.ts,
//   which declares each request's fields up front), so the gain of that server is shown apart;
// - POST /auth/login with 1,000 users in the embedded store and in the Airtable store
//   (through the local emulator of test/support), against a bare Express 5 app that parses
//   the same JSON body and answers {ok:true};
// - POST /api/auth/login (bcrypt, cost 10), against a bare bcrypt compare loop.
// Every server runs in its own process, so the load generator (this process) does not
// share a thread with it. Each server also reports the CPU time it spent, so that the reads
// are compared per request as well, which a busy machine disturbs less than throughput; and
// the application's CPU profile over the reads says where their time goes. Runs on dist/
// (built by `npm run bench`); `--reads-only` stops after the reads and their profile.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const require = createRequire(import.meta.url);
const here = fileURLToPath(import.meta.url);

const ADMIN_PIN = '999999';
const USERS = 1_000;
const PASSWORD = 'Bench-password-2026';
const SECONDS = 3;
const ROUNDS = 3;
const WARMUP_SECONDS = 1;
const CONNECTIONS = 20;
const BCRYPT_CONNECTIONS = 8;
const BCRYPT_SECONDS = 6;
const GOAL_RATIO = 0.7;

// ## Servers (each in a child process started with `--serve <kind>`)

const OK = JSON.stringify({ ok: true });

function listen(server) {
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  // The CPU time this server has used, so the run can divide it by the requests it answered.
  process.on('message', (message) => {
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send({ cpu: user + system });
    }
  });
}

function serveRaw() {
  listen(
    http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(OK) });
      res.end(OK);
    }),
  );
}

/** `declared`: on the application's HTTP server (src/platform/http-server.ts) instead of Node's. */
function serveExpress(declared) {
  const express = require('express');
  const app = express();
  app.use(express.json());
  app.all('/{*any}', (_req, res) => {
    res.json({ ok: true });
  });
  listen(declared ? require('../dist/platform/http-server.js').createHttpServer(app) : http.createServer(app));
}

/** The whole application, as server.ts builds it, with the production log level. */
async function serveApp(store) {
  const { benchApp } = await import('./app.mjs');
  const { createHttpServer } = require('../dist/platform/http-server.js');
  const { AirtableUserRecordStore } = require('../dist/dashboard/users/airtable-repository.js');
  const { hashPassword } = require('../dist/workspace/members/passwords.js');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-bench-auth-'));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const { app, stores } = await benchApp(
    {
      DATA_DIR: dir,
      UPLOAD_DIR: path.join(dir, 'uploads'),
      ADMIN_PIN,
      // Behind a proxy, as in production, so that each simulated client has an address of its own.
      TRUST_PROXY: '1',
      JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef01234',
    },
    { users: store.kind === 'airtable' ? new AirtableUserRecordStore(store.options) : undefined },
  );
  if (store.kind === 'sqlite') {
    await stores.records.dashboard.bulk.upsert(
      'users',
      ['id'],
      ['id', 'name', 'pin', 'role', 'allowed_museums', 'allowed_channels'],
      Array.from({ length: USERS }, (_, i) => {
        const r = userRecord(i);
        return [i + 1, r.name, r.pin, r.role, r.allowedMuseums, r.allowedChannels];
      }),
    );
  }
  const { db } = stores.records.workspace;
  const now = new Date().toISOString();
  const brand = await db.insertInto('brands').values({ name: 'Bench brand', created_at: now }).returning('id').executeTakeFirstOrThrow();
  const admin = await db
    .insertInto('users')
    .values({ name: 'Bench admin', email: 'admin@bench.test', password_hash: await hashPassword(PASSWORD), role: 'superadmin', must_change_password: 0, created_at: now, token_key: 'bench' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('user_brands').values({ user_id: admin.id, brand_id: brand.id }).execute();
  listen(createHttpServer(app));
  // The profile of the requests alone, started and stopped by the run, without the start-up.
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  const profiler = {
    async 'profile:start'() {
      await session.post('Profiler.enable');
      await session.post('Profiler.start');
      return { profiling: true };
    },
    async 'profile:stop'() {
      return { profile: (await session.post('Profiler.stop')).profile };
    },
  };
  process.on('message', (message) => {
    void profiler[message]?.().then((answer) => process.send(answer));
  });
}

/** @param {number} i */
function userRecord(i) {
  return { name: `User ${i}`, pin: String(100_000 + i), role: i % 10 === 0 ? 'admin' : 'viewer', allowedMuseums: '[]', allowedChannels: '[]' };
}

/** The Airtable emulator of test/support, with Airtable's real page size of 100. */
async function serveEmulator() {
  const { tsImport } = await import('tsx/esm/api');
  const { AirtableEmulator } = await tsImport('../test/support/airtable-emulator.ts', import.meta.url);
  const emulator = await AirtableEmulator.start({ maxPageSize: 100 });
  emulator.seed(
    'Users',
    Array.from({ length: USERS }, (_, i) => {
      const r = userRecord(i);
      return { Id: i + 1, Name: r.name, PIN: r.pin, Role: r.role, AllowedMuseums: r.allowedMuseums, AllowedChannels: r.allowedChannels };
    }),
  );
  process.send({ port: Number(new URL(emulator.url).port), options: emulator.clientOptions });
}

/** bcrypt.compare of the right password against a cost-10 hash, `concurrency` at a time. */
async function bcryptLoop(concurrency) {
  const bcrypt = require('bcrypt');
  const hash = await bcrypt.hash(PASSWORD, 10);
  const latencies = [];
  const end = performance.now() + BCRYPT_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        if (!(await bcrypt.compare(PASSWORD, hash))) throw new Error('bcrypt compare failed');
        latencies.push(performance.now() - start);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  process.send({ rps: latencies.length / BCRYPT_SECONDS, p50: at(50), p99: at(99) });
}

// ## The run

const children = new Set();
process.on('exit', () => {
  for (const child of children) child.kill();
});

function start(kind, arg) {
  const child = fork(here, ['--serve', kind, ...(arg === undefined ? [] : [JSON.stringify(arg)])], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.add(child);
  const stop = () => {
    children.delete(child);
    child.kill();
  };
  /** Sends `message` and resolves with the answer that has `key`. */
  const ask = (message, key) =>
    new Promise((resolve) => {
      const hear = (answer) => {
        if (!(key in answer)) return;
        child.off('message', hear);
        resolve(answer[key]);
      };
      child.on('message', hear);
      child.send(message);
    });
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve({ ...message, url: message.port && `http://127.0.0.1:${message.port}`, stop, ask }));
    child.once('exit', (code) => reject(new Error(`${kind} exited (${code})`)));
  });
}

/**
 * Each sign-in from an address of its own, as many clients behind a proxy send them: the
 * requests autocannon cuts off at the end of a run count as failed attempts, and from one
 * address they would soon fill its sign-in limit.
 */
let client = 0;
const manyClients = [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, 'X-Forwarded-For': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client++ & 255}` } }) }];

/** `server`, when given, is asked for its CPU time around the measured load: the CPU per request. */
async function load({ seconds = SECONDS, server, ...target }) {
  const opts = { connections: CONNECTIONS, ...(target.method === 'POST' ? { requests: manyClients } : {}), ...target };
  await autocannon({ ...opts, duration: WARMUP_SECONDS });
  const cpuBefore = server ? await server.ask('cpu', 'cpu') : 0;
  // autocannon ships no types: the fields of its result read here.
  /** @type {{ errors: number, timeouts: number, non2xx: number, requests: { total: number, average: number }, latency: { p50: number, p99: number } }} */
  const result = await autocannon({ ...opts, duration: seconds });
  const cpuUs = server ? ((await server.ask('cpu', 'cpu')) - cpuBefore) / result.requests.total : undefined;
  const failed = result.errors + result.timeouts + result.non2xx;
  if (failed > 0) throw new Error(`${opts.method ?? 'GET'} ${opts.url}: ${failed} failed requests of ${result.requests.total}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Measures the targets in turn, ROUNDS times over, and keeps each one's median figures:
 * the baseline and the figure see the same moments of a busy machine.
 */
async function measure(targets) {
  const runs = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [name, target] of Object.entries(targets)) runs[name].push(await load(target));
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, list]) => [
      name,
      { rps: median(list.map((r) => r.rps)), p50: median(list.map((r) => r.p50)), p99: median(list.map((r) => r.p99)), cpuUs: list[0].cpuUs === undefined ? undefined : median(list.map((r) => r.cpuUs)) },
    ]),
  );
}

async function send(url, method, headers, body) {
  const res = await fetch(url, { method, headers, body });
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}`);
  return res;
}

function printReads(reads) {
  console.log('\n| request | p50 | p99 | requests/s | × bare Express | × bare Express on the same HTTP server |');
  console.log('|---|---|---|---|---|---|');
  const same = (run) => ` | ${Math.round((run.rps / reads.bareDeclared.rps) * 100)}%`;
  console.log(row('baseline: raw node:http, {ok:true}', reads.raw, reads.bare, ' | –'));
  console.log(row('baseline: bare Express 5, {ok:true}', reads.bare, undefined, same(reads.bare)));
  console.log(row("baseline: bare Express 5 on the application's HTTP server", reads.bareDeclared, reads.bare, ' | 100%'));
  const goal = (run) => ` (goal ≥ ${GOAL_RATIO * 100}%: ${run.rps / reads.bare.rps >= GOAL_RATIO ? 'met' : 'NOT met'})`;
  console.log(row('GET /auth/check, live dashboard session', reads.check, reads.bare, goal(reads.check) + same(reads.check)));
  console.log(row('GET /api/auth/me, bearer token', reads.me, reads.bare, goal(reads.me) + same(reads.me)));
}

async function printProfile() {
  const json = { 'Content-Type': 'application/json' };
  const { functions, places } = await profileReads(
    async (url) => (await send(`${url}/auth/login`, 'POST', json, JSON.stringify({ pin: ADMIN_PIN }))).headers.getSetCookie()[0].split(';')[0],
    async (url) => (await (await send(`${url}/api/auth/login`, 'POST', json, JSON.stringify({ email: 'admin@bench.test', password: PASSWORD }))).json()).token,
  );
  const pct = (share) => `${(share * 100).toFixed(1)}%`;
  console.log('\nWhere the signed-in reads spend the application\'s CPU time (node --cpu-prof, both reads loaded in turn, idle left out):');
  console.log('\n| package or file | self time |');
  console.log('|---|---|');
  for (const { name, share } of places) console.log(`| ${name} | ${pct(share)} |`);
  console.log('\n| function | self time |');
  console.log('|---|---|');
  for (const { name, share } of functions) console.log(`| \`${name}\` | ${pct(share)} |`);
}

const ms = (v) => `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms`;
const row = (name, run, baseline, extra = '') =>
  `| ${name} | ${ms(run.p50)} | ${ms(run.p99)} | ${Math.round(run.rps).toLocaleString('en')} | ${baseline ? `${Math.round((run.rps / baseline.rps) * 100)}%` : '100%'}${extra} |`;

/**
 * Where a signed-in read's time goes: the application's CPU profile (V8's sampling profiler,
 * as `node --cpu-prof` takes it, but over the loaded requests only, not the start-up) while
 * both reads are loaded, its samples summed by function (self time) and by package or source
 * file, the idle time left out. Answers the two tables' top rows.
 */
async function profileReads(cookieFor, tokenFor) {
  const app = await start('app', { kind: 'sqlite' });
  const cookie = await cookieFor(app.url);
  const token = await tokenFor(app.url);
  await load({ url: `${app.url}/auth/check`, headers: { Cookie: cookie }, seconds: 1 });
  await app.ask('profile:start', 'profiling');
  await load({ url: `${app.url}/auth/check`, headers: { Cookie: cookie } });
  await load({ url: `${app.url}/api/auth/me`, headers: { Authorization: `Bearer ${token}` } });
  /** @type {import('node:inspector').Profiler.Profile} */
  const profile = await app.ask('profile:stop', 'profile');
  app.stop();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  /** @type {Map<string, number>} */
  const functions = new Map();
  /** @type {Map<string, number>} */
  const places = new Map();
  let total = 0;
  for (const [id, count] of counts) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    total += count;
    const where = url.includes('/node_modules/') ? url.replace(/.*\/node_modules\/((@[^/]+\/)?[^/]+).*/, '$1') : url.includes('/dist/') ? url.replace(/.*\/dist\//, 'dist/') : url.startsWith('node:') ? url : url ? 'other' : functionName;
    const name = `${functionName || '(anonymous)'} ${where}${url && !url.startsWith('node:') ? `:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + count);
    places.set(where, (places.get(where) ?? 0) + count);
  }
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, count]) => ({ name, share: count / total }));
  return { functions: top(functions, 15), places: top(places, 12) };
}

async function main() {
  if (process.argv.includes('--profile-only')) {
    await printProfile();
    process.exit(0);
  }
  const raw = await start('raw');
  const bare = await start('express');
  const bareDeclared = await start('express', true);
  const app = await start('app', { kind: 'sqlite' });
  const json = { 'Content-Type': 'application/json' };

  const login = await send(`${app.url}/auth/login`, 'POST', json, JSON.stringify({ pin: ADMIN_PIN }));
  const cookie = login.headers.getSetCookie()[0].split(';')[0];
  const signedIn = await (await send(`${app.url}/api/auth/login`, 'POST', json, JSON.stringify({ email: 'admin@bench.test', password: PASSWORD }))).json();
  const check = await (await send(`${app.url}/auth/check`, 'GET', { Cookie: cookie })).json();
  if (!check.authenticated) throw new Error('the dashboard session does not check');

  // ## Signed-in reads
  const reads = await measure({
    raw: { url: raw.url, server: raw },
    bare: { url: bare.url, server: bare },
    bareDeclared: { url: bareDeclared.url, server: bareDeclared },
    check: { url: `${app.url}/auth/check`, headers: { Cookie: cookie }, server: app },
    me: { url: `${app.url}/api/auth/me`, headers: { Authorization: `Bearer ${signedIn.token}` }, server: app },
  });
  console.log(`\nSigned-in reads on Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} after them. Server CPU per request, which a busy machine disturbs less than throughput:`);
  console.log('\n| request | server CPU per request | × bare Express (its CPU ÷ this one) |');
  console.log('|---|---|---|');
  for (const [name, label] of [['raw', 'baseline: raw node:http'], ['bare', 'baseline: bare Express 5'], ['bareDeclared', "baseline: bare Express 5 on the application's HTTP server"], ['check', 'GET /auth/check'], ['me', 'GET /api/auth/me']]) {
    console.log(`| ${label} | ${reads[name].cpuUs.toFixed(0)} µs | ${Math.round((reads.bare.cpuUs / reads[name].cpuUs) * 100)}% |`);
  }
  if (process.argv.includes('--reads-only')) {
    printReads(reads);
    await printProfile();
    process.exit(0);
  }
  raw.stop();
  bareDeclared.stop();
  app.stop();

  // ## PIN sign-in: the last user's PIN, so every record is read and compared
  const emulator = await start('emulator');
  const sqliteApp = await start('app', { kind: 'sqlite' });
  const airtableApp = await start('app', { kind: 'airtable', options: emulator.options });
  const post = { method: 'POST', headers: json, body: JSON.stringify({ pin: userRecord(USERS - 1).pin }) };
  const logins = await measure({
    bare: { url: bare.url, ...post },
    sqlite: { url: `${sqliteApp.url}/auth/login`, ...post },
    airtable: { url: `${airtableApp.url}/auth/login`, ...post },
  });
  bare.stop();
  airtableApp.stop();
  emulator.stop();

  // ## Workspace sign-in: bcrypt at cost 10 bounds it
  const wsLogin = await load({
    url: `${sqliteApp.url}/api/auth/login`,
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email: 'admin@bench.test', password: PASSWORD }),
    connections: BCRYPT_CONNECTIONS,
    seconds: BCRYPT_SECONDS,
  });
  sqliteApp.stop();
  const bcryptRun = await start('bcrypt', BCRYPT_CONNECTIONS);

  console.log(`\nAuthentication benchmark: Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} CPUs; medians of ${ROUNDS} rounds of ${SECONDS} s (after ${WARMUP_SECONDS} s of warm-up each), ${CONNECTIONS} connections`);
  printReads(reads);
  console.log('\n| sign-in | p50 | p99 | requests/s | × baseline |');
  console.log('|---|---|---|---|---|');
  console.log(row('baseline: bare Express 5, POST of the same JSON body', logins.bare));
  console.log(row(`POST /auth/login, ${USERS.toLocaleString('en')} users in the embedded store`, logins.sqlite, logins.bare));
  console.log(row(`POST /auth/login, ${USERS.toLocaleString('en')} users in Airtable (local emulator, 10 pages of 100)`, logins.airtable, logins.bare));
  console.log(row(`baseline: bcrypt.compare at cost 10, ${BCRYPT_CONNECTIONS} at a time`, bcryptRun));
  console.log(row(`POST /api/auth/login (workspace), ${BCRYPT_CONNECTIONS} connections`, wsLogin, bcryptRun));

  await printProfile();

  const failed = reads.check.rps / reads.bare.rps < GOAL_RATIO || reads.me.rps / reads.bare.rps < GOAL_RATIO;
  process.exit(failed ? 1 : 0);
}

if (process.argv[2] === '--serve') {
  // Leave with the run that started this process, however it ends.
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
  const kind = process.argv[3];
  const arg = process.argv[4] ? JSON.parse(process.argv[4]) : undefined;
  const run = { raw: serveRaw, express: () => serveExpress(arg), app: () => serveApp(arg), emulator: serveEmulator, bcrypt: () => bcryptLoop(arg) }[kind];
  await run();
} else {
  await main();
}
