// Shared state in Redis against the in-memory default, in the same run on this machine:
// - GET /auth/check with a live dashboard session, and the workspace board's request
//   (GET /api/posts of a brand with 200 posts) with a cookie session, on two real server
//   processes (dist/server.js) that differ only in REDIS_URL (without it, dashboard sessions
//   live in memory and workspace cookie sessions in SQLite); goal: Redis at least 70 % of the default.
// - Memory per 100,000 dashboard sessions: the heap the in-memory store takes, against the
//   memory Redis reports for the same sessions (and the heap of this process meanwhile).
// Starts its own redis-server on a free loopback port. Runs on dist/ (built by `npm run bench`).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { MemorySessionStore } = require('../dist/dashboard/auth/session-store.js');
const { RedisSessionStore } = require('../dist/dashboard/auth/redis-session-store.js');
const { connectRedis } = require('../dist/platform/redis.js');

const ADMIN_PIN = '48151623';
const ADMIN_EMAIL = 'bench@example.test';
const FIRST_PASSWORD = 'Bench-first-2026';
const PASSWORD = 'Bench-password-2026';
const POSTS = 200;
const SESSIONS = 100_000;
const SECONDS = 3;
const ROUNDS = 3;
const CONNECTIONS = 20;
const GOAL_RATIO = 0.7;
const MB = 1024 * 1024;

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

async function startRedis() {
  const port = await freePort();
  const child = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => d.toString().includes('Ready to accept connections') && resolve());
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

async function startServer(env) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-bench-redis-'));
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: dir,
      UPLOAD_DIR: path.join(dir, 'uploads'),
      ADMIN_PIN,
      DEFAULT_ADMIN_EMAIL: ADMIN_EMAIL,
      DEFAULT_ADMIN_PASSWORD: FIRST_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      output += `${d}`;
      const line = output.split('\n').find((l) => l.includes('"Listening on'));
      if (line) resolve(JSON.parse(line).port);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}\n${output}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    stop() {
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function call(base, method, route, { cookie, body } = {}) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', ...(cookie ? { Cookie: cookie } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  const setCookie = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return { body: await res.json(), cookies: setCookie };
}

/** A dashboard session and a workspace cookie session with a brand of 200 posts. */
async function seed(base) {
  const dashboard = (await call(base, 'POST', '/auth/login', { body: { pin: ADMIN_PIN } })).cookies.find((c) => c.startsWith('service_session='));
  let signIn = await call(base, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: FIRST_PASSWORD } });
  let cookie = signIn.cookies.find((c) => c.startsWith('workspace_session='));
  await call(base, 'POST', '/api/auth/password', { cookie, body: { currentPassword: FIRST_PASSWORD, newPassword: PASSWORD } });
  signIn = await call(base, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: PASSWORD } });
  cookie = signIn.cookies.find((c) => c.startsWith('workspace_session='));
  const { brand } = (await call(base, 'POST', '/api/brands', { cookie, body: { name: 'Bench brand' } })).body;
  for (let i = 0; i < POSTS; i += 1) await call(base, 'POST', '/api/posts', { cookie, body: { title: `Post ${i}`, brandId: brand.id } });
  return { dashboard, cookie, board: `/api/posts?brandId=${brand.id}&limit=200` };
}

async function rate(url, cookie) {
  const once = () =>
    new Promise((resolve, reject) =>
      autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: { Cookie: cookie } }, (err, result) => {
        if (err) reject(err instanceof Error ? err : new Error(String(err)));
        else if (result.non2xx > 0 || result.errors > 0) reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
        else resolve(result.requests.average);
      }),
    );
  await once();
  const rates = [];
  for (let i = 0; i < ROUNDS; i += 1) rates.push(await once());
  return rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)];
}

async function settledHeap() {
  for (let i = 0; i < 4; i += 1) {
    global.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

function session(i) {
  return { name: `Viewer ${i % 20}`, role: 'viewer', createdAt: Date.now(), allowedMuseums: '["National Museum","Maritime Museum"]', allowedChannels: '[]', userId: 1 + (i % 20) };
}

async function inMemoryBytes() {
  const memoryStore = new MemorySessionStore();
  const before = await settledHeap();
  for (let i = 0; i < SESSIONS; i += 1) await memoryStore.set(`memory-session-${i}`, session(i));
  const bytes = (await settledHeap()) - before;
  // Used after the measure, so that the collector cannot take the store before it.
  if ((await memoryStore.size()) !== SESSIONS) throw new Error('the in-memory store lost sessions');
  return bytes;
}

async function sessionMemory(redisUrl) {
  const memoryBytes = await inMemoryBytes();
  const redis = await connectRedis(redisUrl, { onError: () => {} });
  await redis.client.flushAll();
  const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await redis.client.info('memory'))[1]);
  const redisBefore = await usedMemory();
  const heapBefore = await settledHeap();
  const store = new RedisSessionStore(redis.client, { now: () => Date.now() });
  const writes = [];
  for (let i = 0; i < SESSIONS; i += 1) {
    writes.push(store.set(`redis-session-${i}`, session(i)));
    if (writes.length === 500) await Promise.all(writes.splice(0));
  }
  await Promise.all(writes);
  const redisBytes = (await usedMemory()) - redisBefore;
  const heapBytes = (await settledHeap()) - heapBefore;
  await redis.close();
  return { memoryBytes, redisBytes, heapBytes };
}

async function main() {
  const redis = await startRedis();
  const servers = { memory: await startServer({}), redis: await startServer({ REDIS_URL: redis.url }) };
  try {
    const rows = [];
    const seeded = { memory: await seed(servers.memory.base), redis: await seed(servers.redis.base) };
    for (const [label, route, which] of [
      ['GET /auth/check, dashboard session', '/auth/check', 'dashboard'],
      [`workspace board: GET /api/posts of ${POSTS} posts, cookie session`, 'board', 'cookie'],
    ]) {
      const figures = {};
      for (const kind of ['memory', 'redis']) {
        const target = route === 'board' ? seeded[kind].board : route;
        figures[kind] = await rate(`${servers[kind].base}${target}`, seeded[kind][which]);
      }
      rows.push({ label, ...figures, ratio: figures.redis / figures.memory });
    }
    const memory = await sessionMemory(redis.url);

    console.log(`\nRedis benchmark: Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} CPUs, ${CONNECTIONS} connections, median of ${ROUNDS} × ${SECONDS} s`);
    console.log('\n| request | in memory (req/s) | Redis (req/s) | Redis ÷ memory |');
    console.log('|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.label} | ${Math.round(r.memory)} | ${Math.round(r.redis)} | ${(r.ratio * 100).toFixed(0)} % |`);
    console.log(`\n| ${SESSIONS.toLocaleString('en')} dashboard sessions | memory |`);
    console.log('|---|---|');
    console.log(`| in-memory store: heap of the server process | ${(memory.memoryBytes / MB).toFixed(1)} MB (${Math.round(memory.memoryBytes / SESSIONS)} bytes each) |`);
    console.log(`| Redis store: used_memory of redis-server | ${(memory.redisBytes / MB).toFixed(1)} MB (${Math.round(memory.redisBytes / SESSIONS)} bytes each) |`);
    console.log(`| Redis store: heap of the server process | ${(memory.heapBytes / MB).toFixed(1)} MB |`);
    const met = rows.every((r) => r.ratio >= GOAL_RATIO);
    console.log(`\nGoal: Redis at least ${GOAL_RATIO * 100} % of the in-memory default: ${met ? 'met' : 'NOT met'}`);
    process.exitCode = met ? 0 : 1;
  } finally {
    servers.memory.stop();
    servers.redis.stop();
    redis.stop();
  }
}

main().catch((/** @type {unknown} */ err) => {
  console.error(err);
  process.exit(1);
});
