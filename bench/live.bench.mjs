// Live events across two instances behind nginx, against a bare Redis round trip in the same run:
// - Fan-out: 2,000 event streams (GET /api/events, bearer tokens of 100 members, 20 streams
//   each; half the members in the brand that changes, half in another) opened through Debian's
//   nginx, spread by it over two server processes (dist/server.js) on one PostgreSQL and one
//   Redis. One change (POST /api/posts in the first brand, through nginx) at a time: the time
//   from sending it until every one of the 1,000 permitted streams has its event, p50 and p99
//   over the changes (goal: p99 ≤ 250 ms), and every single delivery's time; the other 1,000
//   streams must hear nothing of it. The baseline is a bare PUBLISH to a SUBSCRIBE on the
//   same Redis, round trip, measured in the same run.
// - Memory per idle stream: each server's memory with its streams open, less before, both
//   after a full garbage collection asked for through the inspector (goal ≤ 20 KB): the V8
//   heap and the memory outside it (buffers), and the resident size for reference; nginx's
//   resident size the same way.
// - CPU with the 2,000 streams idle (heartbeats only): each process's CPU time over a minute.
// Starts its own PostgreSQL, redis-server and nginx on free loopback ports. Runs on dist/
// (built by `npm run bench`); the clients are in this process, so their own reading is in the
// delivery times.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const { createClient } = require('redis');

const ADMIN_EMAIL = 'bench@example.test';
const FIRST_PASSWORD = 'Bench-first-2026';
const PASSWORD = 'Bench-password-2026';
const MEMBERS = 100;
const STREAMS_PER_MEMBER = 20;
const STREAMS = MEMBERS * STREAMS_PER_MEMBER;
const WARMUP_CHANGES = 5;
const CHANGES = 200;
const ROUND_TRIPS = 1_000;
const IDLE_MS = 60_000;
const GOAL_P99_MS = 250;
const GOAL_STREAM_KB = 20;
const DELIVERY_TIMEOUT_MS = 15_000;
const NGINX = '/usr/sbin/nginx';

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const sortedCopy = (list) => [...list].sort((a, b) => a - b);

async function startRedis() {
  const port = await freePort();
  const child = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => d.toString().includes('Ready to accept connections') && resolve());
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, pid: child.pid, stop: () => void child.kill('SIGKILL') };
}

async function startServer(env, inspectPort) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-bench-live-'));
  // The inspector only listens: the memory figures ask it for a garbage collection.
  const child = spawn(process.execPath, [`--inspect=127.0.0.1:${inspectPort}`, 'dist/server.js'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATA_DIR: dir,
      UPLOAD_DIR: path.join(dir, 'uploads'),
      DEFAULT_ADMIN_EMAIL: ADMIN_EMAIL,
      DEFAULT_ADMIN_PASSWORD: FIRST_PASSWORD,
      JWT_SECRET: '',
      SESSION_SECRET: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.resume();
  await new Promise((resolve, reject) => {
    let output = '';
    const listen = (d) => {
      output += `${d}`;
      if (output.includes('"Listening on')) {
        child.stdout.off('data', listen);
        child.stdout.resume();
        resolve();
      }
    };
    child.stdout.setEncoding('utf8').on('data', listen);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}\n${output}`)));
  });
  return {
    pid: child.pid,
    inspectPort,
    stop: () => {
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * process.memoryUsage() of a server, after full garbage collections, through its inspector.
 * @returns {Promise<NodeJS.MemoryUsage>}
 */
async function settledMemory(server) {
  const [target] = await (await fetch(`http://127.0.0.1:${server.inspectPort}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  const answers = new Map();
  socket.onmessage = (message) => {
    const answer = JSON.parse(message.data);
    answers.get(answer.id)?.(answer);
  };
  let next = 0;
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      next += 1;
      answers.set(next, resolve);
      socket.send(JSON.stringify({ id: next, method, params }));
    });
  for (let i = 0; i < 3; i += 1) await send('HeapProfiler.collectGarbage');
  const answer = await send('Runtime.evaluate', { expression: 'JSON.stringify(process.memoryUsage())', returnByValue: true });
  socket.close();
  return { ...JSON.parse(answer.result.result.value), rss: rssOf(server.pid) };
}

async function startNginx(upstreams, nginxConfig) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-bench-nginx-'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig({ dir, port, upstreams }));
  const child = spawn(NGINX, ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'inherit', 'inherit'] });
  for (let tries = 0; ; tries += 1) {
    const open = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) break;
    if (tries > 200) throw new Error('nginx did not start');
    await pause(25);
  }
  // The master only waits; the worker does the work.
  const worker = () => Number(fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
  return {
    base: `http://127.0.0.1:${port}`,
    worker,
    stop: () => {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function call(base, method, route, { token, body } = {}) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A member's first sign-in: the password a superadmin gave must be changed. */
async function firstSignIn(base, email, given) {
  const { token } = await call(base, 'POST', '/api/auth/login', { body: { email, password: given } });
  return (await call(base, 'POST', '/api/auth/password', { token, body: { currentPassword: given, newPassword: PASSWORD } })).token;
}

async function seed(base) {
  const admin = await firstSignIn(base, ADMIN_EMAIL, FIRST_PASSWORD);
  const changing = (await call(base, 'POST', '/api/brands', { token: admin, body: { name: 'Changing brand' } })).brand;
  const quiet = (await call(base, 'POST', '/api/brands', { token: admin, body: { name: 'Quiet brand' } })).brand;
  const members = [];
  for (let start = 0; start < MEMBERS; start += 4) {
    const batch = Array.from({ length: Math.min(4, MEMBERS - start) }, (_, k) => start + k);
    members.push(
      ...(await Promise.all(
        batch.map(async (i) => {
          const email = `member${i}@bench.test`;
          const brandId = i % 2 === 0 ? changing.id : quiet.id;
          await call(base, 'POST', '/api/members', { token: admin, body: { name: `Member ${i}`, email, password: FIRST_PASSWORD, role: 'contributor', brandIds: [brandId] } });
          return { token: await firstSignIn(base, email, FIRST_PASSWORD), permitted: brandId === changing.id };
        }),
      )),
    );
  }
  return { admin, brandId: changing.id, members };
}

/**
 * One event stream through nginx that notes when the event carrying `marker.text` arrives.
 * @returns {Promise<{ permitted: boolean, upstream: string | string[] | undefined, heard: Map<string, number>, wrong: number, ready: boolean, close: () => void }>}
 */
function openStream(base, token, permitted, marker) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/events`, { agent: false, headers: { Accept: 'text/event-stream', Authorization: `Bearer ${token}` } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream answered ${res.statusCode}`));
        return;
      }
      const stream = { permitted, upstream: res.headers['x-upstream'], heard: new Map(), wrong: 0, ready: false, close: () => req.destroy() };
      res.setEncoding('utf8');
      // The end of the previous chunk, for a marker cut in two.
      let tail = '';
      res.on('data', (chunk) => {
        if (!stream.ready && chunk.includes('id: ')) {
          stream.ready = true;
          resolve(stream);
        }
        const text = `${tail}${chunk}`;
        tail = text.slice(-200);
        if (marker.text && text.includes(marker.text)) {
          if (!permitted) stream.wrong += 1;
          else if (!stream.heard.has(marker.text)) {
            stream.heard.set(marker.text, performance.now());
            marker.onHeard();
          }
        }
      });
    });
    req.on('error', reject);
  });
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
/** User and system CPU time of a process so far, in ms. */
function cpuOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function redisRoundTrips(url) {
  const publisher = createClient({ url });
  const subscriber = createClient({ url });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  let arrived;
  await subscriber.subscribe('bench:round-trip', () => arrived());
  const times = [];
  for (let i = 0; i < ROUND_TRIPS + 100; i += 1) {
    const heard = new Promise((resolve) => (arrived = resolve));
    const start = performance.now();
    await publisher.publish('bench:round-trip', JSON.stringify({ i }));
    await heard;
    if (i >= 100) times.push(performance.now() - start);
  }
  await Promise.all([publisher.quit(), subscriber.quit()]);
  return sortedCopy(times);
}

async function main() {
  if (!fs.existsSync(NGINX)) throw new Error('nginx is not installed: apt-get install nginx');
  const { tsImport } = await import('tsx/esm/api');
  const { postgresBinaries, startPostgres } = await tsImport('../test/support/postgres-server.ts', import.meta.url);
  const { nginxConfig } = await tsImport('../test/support/nginx-config.ts', import.meta.url);
  const bin = postgresBinaries();
  if (!bin) throw new Error('PostgreSQL is not installed: apt-get install postgresql');
  const stops = [];
  try {
    const postgres = await startPostgres(bin);
    stops.push(() => postgres.stop());
    const redis = await startRedis();
    stops.push(redis.stop);
    const ports = [await freePort(), await freePort()];
    const env = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, TRUST_PROXY: '1' };
    const servers = [];
    for (const port of ports) {
      const server = await startServer({ ...env, PORT: String(port) }, await freePort());
      stops.push(server.stop);
      servers.push(server);
    }
    const nginx = await startNginx(ports, nginxConfig);
    stops.push(nginx.stop);
    const { admin, brandId, members } = await seed(nginx.base);
    await pause(2_000);

    const before = { servers: await Promise.all(servers.map(settledMemory)), nginx: rssOf(nginx.worker()) };
    const marker = { text: '', onHeard: () => {} };
    const streams = [];
    for (let start = 0; start < STREAMS; start += 100) {
      const batch = Array.from({ length: 100 }, (_, k) => members[(start + k) % MEMBERS]);
      streams.push(...(await Promise.all(batch.map((m) => openStream(nginx.base, m.token, m.permitted, marker)))));
    }
    const perInstance = ports.map((port) => streams.filter((s) => s.upstream === `127.0.0.1:${port}`).length);
    const permitted = streams.filter((s) => s.permitted);
    await pause(3_000);
    const after = { servers: await Promise.all(servers.map(settledMemory)), nginx: rssOf(nginx.worker()) };

    // Idle: nothing but heartbeats (every 25 s) for a minute.
    const cpuBefore = { servers: servers.map((s) => cpuOf(s.pid)), nginx: cpuOf(nginx.worker()), redis: cpuOf(redis.pid) };
    const idleStart = performance.now();
    await pause(IDLE_MS);
    const idleMs = performance.now() - idleStart;
    const idleCpu = {
      servers: servers.map((s, i) => ((cpuOf(s.pid) - cpuBefore.servers[i]) / idleMs) * 100),
      nginx: ((cpuOf(nginx.worker()) - cpuBefore.nginx) / idleMs) * 100,
      redis: ((cpuOf(redis.pid) - cpuBefore.redis) / idleMs) * 100,
    };
    const load = os.loadavg();

    const everyone = [];
    const deliveries = [];
    let wrong = 0;
    for (let round = 0; round < WARMUP_CHANGES + CHANGES; round += 1) {
      marker.text = `"title":"Fanout ${round}."`;
      let left = permitted.length;
      const done = new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`round ${round}: ${left} of ${permitted.length} streams still waiting after ${DELIVERY_TIMEOUT_MS} ms`)), DELIVERY_TIMEOUT_MS);
        marker.onHeard = () => {
          left -= 1;
          if (left === 0) {
            clearTimeout(timer);
            resolve();
          }
        };
      });
      const sent = performance.now();
      await call(nginx.base, 'POST', '/api/posts', { token: admin, body: { title: `Fanout ${round}.`, brandId } });
      await done;
      const times = permitted.map((s) => s.heard.get(marker.text) - sent);
      if (round >= WARMUP_CHANGES) {
        everyone.push(Math.max(...times));
        deliveries.push(...times);
      }
      await pause(100);
    }
    wrong = streams.reduce((sum, s) => sum + s.wrong, 0);
    const roundTrips = await redisRoundTrips(redis.url);
    for (const stream of streams) stream.close();

    const all = sortedCopy(everyone);
    const each = sortedCopy(deliveries);
    const kb = (bytes) => (bytes / 1024).toFixed(1);
    /** @param {number} i @param {...keyof NodeJS.MemoryUsage} keys */
    const grown = (i, ...keys) => keys.reduce((sum, key) => sum + after.servers[i][key] - before.servers[i][key], 0) / perInstance[i];
    const perStream = servers.map((_, i) => grown(i, 'heapUsed', 'external'));
    const nginxPerStream = (after.nginx - before.nginx) / STREAMS;
    const p99 = percentile(all, 99);

    console.log(`\nLive benchmark: Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} CPUs; load average ${load.map((l) => l.toFixed(2)).join(' / ')} (1/5/15 min, at the end of the idle minute)`);
    console.log(`${STREAMS} streams of ${MEMBERS} members through nginx: ${perInstance.join(' + ')} on the two instances, ${permitted.length} permitted to see the changes; ${CHANGES} changes after ${WARMUP_CHANGES} warm-ups`);
    console.log('\n| one change (POST /api/posts through nginx) | p50 | p99 | max |');
    console.log('|---|---|---|---|');
    console.log(`| until every permitted stream has it | ${percentile(all, 50).toFixed(1)} ms | ${p99.toFixed(1)} ms | ${all.at(-1).toFixed(1)} ms |`);
    console.log(`| each delivery to one stream | ${percentile(each, 50).toFixed(1)} ms | ${percentile(each, 99).toFixed(1)} ms | ${each.at(-1).toFixed(1)} ms |`);
    console.log(`| baseline: bare Redis PUBLISH → SUBSCRIBE round trip | ${percentile(roundTrips, 50).toFixed(2)} ms | ${percentile(roundTrips, 99).toFixed(2)} ms | ${roundTrips.at(-1).toFixed(2)} ms |`);
    console.log(`\nGoal p99 ≤ ${GOAL_P99_MS} ms: ${p99 <= GOAL_P99_MS ? 'met' : 'NOT met'}. Events that reached a stream not permitted to see them: ${wrong}.`);
    const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
    console.log('\n| idle streams | heap + external, before → with streams | per stream | of which heap | resident size per stream | CPU, idle minute |');
    console.log('|---|---|---|---|---|---|');
    servers.forEach((_, i) => {
      const total = (/** @type {NodeJS.MemoryUsage} */ m) => m.heapUsed + m.external;
      console.log(
        `| instance ${i + 1} (${perInstance[i]} streams) | ${mb(total(before.servers[i]))} → ${mb(total(after.servers[i]))} MB | ${kb(perStream[i])} KB | ${kb(grown(i, 'heapUsed'))} KB | ${kb(grown(i, 'rss'))} KB | ${idleCpu.servers[i].toFixed(2)} % |`,
      );
    });
    console.log(`| nginx worker (all ${STREAMS}, both sides) | — | — | — | ${kb(nginxPerStream)} KB (${mb(before.nginx)} → ${mb(after.nginx)} MB) | ${idleCpu.nginx.toFixed(2)} % |`);
    console.log(`| redis-server | — | — | — | — | ${idleCpu.redis.toFixed(2)} % |`);
    const memoryMet = perStream.every((b) => b / 1024 <= GOAL_STREAM_KB);
    console.log(`\nGoal ≤ ${GOAL_STREAM_KB} KB per idle stream: ${memoryMet ? 'met' : 'NOT met'}.`);
    return p99 <= GOAL_P99_MS && memoryMet && wrong === 0;
  } finally {
    for (const stop of stops.reverse()) {
      try {
        stop();
      } catch {
        // Stopping what is already gone is fine.
      }
    }
  }
}

main().then(
  (met) => process.exit(met ? 0 : 1),
  (/** @type {unknown} */ err) => {
    console.error(err);
    process.exit(1);
  },
);
