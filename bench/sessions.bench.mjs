// Memory of application A's in-memory sessions: resident memory and heap with 100,000 live
// dashboard sessions, opened through the sign-in service (PIN check included), and again
// once they have expired and the sweep has removed them. The baseline is the same process
// measured before the first session, in the same run. Runs on dist/ with --expose-gc
// (`npm run bench` passes it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { ManualClock } = require('../dist/platform/clock.js');
const { createLogger } = require('../dist/platform/logger.js');
const { openRecords } = require('../dist/stores.js');
// dist/ is built from src/: its types are those of the source.
const { DashboardAuthService, SESSION_MAX_AGE_MS } = /** @type {typeof import('../src/dashboard/auth/service.js')} */ (require('../dist/dashboard/auth/service.js'));
const { MemorySessionStore } = require('../dist/dashboard/auth/session-store.js');
const { SqlUserRecordStore } = require('../dist/dashboard/users/repository.js');

const SESSIONS = 100_000;
const USERS = 20;
const ADMIN_PIN = '999999';
/** Heap left after the sweep may exceed the baseline by at most this much. */
const GOAL_HEAP_LEFT_MB = 5;
const IDLE_SECONDS = 5;

if (typeof global.gc !== 'function') {
  console.error('run with --expose-gc (npm run bench does)');
  process.exit(1);
}

const MB = 1024 * 1024;
const mb = (bytes) => `${(bytes / MB).toFixed(1)} MB`;

/** Settled figures: several full collections, so only what is still referenced counts. */
async function memory() {
  for (let i = 0; i < 4; i += 1) {
    global.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-bench-sessions-'));
  const records = await openRecords({ dataDir: dir }, createLogger('silent'));
  const users = new SqlUserRecordStore(records.dashboard);
  for (let i = 0; i < USERS; i += 1) {
    await users.create({
      name: `Viewer ${i}`,
      pin: String(100_000 + i),
      role: 'viewer',
      allowedMuseums: JSON.stringify(['National Museum', 'Maritime Museum']),
      allowedChannels: '[]',
    });
  }
  const clock = new ManualClock();
  const sessions = new MemorySessionStore();
  const auth = new DashboardAuthService({ sessions, users, clock, logger: createLogger('silent'), adminPin: ADMIN_PIN });
  // Warm the code paths, then drop what they made, before the baseline.
  for (let i = 0; i < 1_000; i += 1) await auth.login(String(100_000 + (i % USERS)));
  clock.advance(SESSION_MAX_AGE_MS + 1);
  await auth.sweep();

  const before = await memory();
  const ids = [];
  const started = performance.now();
  for (let i = 0; i < SESSIONS; i += 1) {
    // One session in ten is the administrator's; the rest are viewers with access lists.
    const pin = i % 10 === 0 ? ADMIN_PIN : String(100_000 + (i % USERS));
    const result = await auth.login(pin);
    if (!result) throw new Error(`sign-in ${i} failed`);
    if (i % 1_000 === 0) ids.push(result.id);
  }
  const openSeconds = (performance.now() - started) / 1000;
  const live = await memory();
  if ((await sessions.size()) !== SESSIONS) throw new Error(`expected ${SESSIONS} live sessions, found ${await sessions.size()}`);
  for (const id of ids) if (!(await auth.lookup(id))) throw new Error('a live session did not look up');

  clock.advance(SESSION_MAX_AGE_MS + 1);
  const sweepStart = performance.now();
  const swept = await auth.sweep();
  const sweepMs = performance.now() - sweepStart;
  const after = await memory();
  if (swept !== SESSIONS || (await sessions.size()) !== 0) throw new Error(`the sweep removed ${swept} of ${SESSIONS}`);
  // V8 hands freed heap pages back to the system only after a few idle seconds, as a
  // server between bursts would be.
  for (let i = 0; i < IDLE_SECONDS; i += 1) await new Promise((resolve) => setTimeout(resolve, 1_000));
  const idle = await memory();

  const perSession = (live.heapUsed - before.heapUsed) / SESSIONS;
  console.log(`\nSession memory benchmark: Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} CPUs`);
  console.log(`\n| ${SESSIONS.toLocaleString('en')} dashboard sessions | resident memory | heap used | × baseline (heap) |`);
  console.log('|---|---|---|---|');
  console.log(`| baseline: the same process before the first session | ${mb(before.rss)} | ${mb(before.heapUsed)} | 1× |`);
  console.log(`| ${SESSIONS.toLocaleString('en')} live sessions (opened in ${openSeconds.toFixed(1)} s, ${Math.round(perSession)} bytes of heap each) | ${mb(live.rss)} | ${mb(live.heapUsed)} | ${(live.heapUsed / before.heapUsed).toFixed(2)}× |`);
  console.log(`| after they expired and the sweep removed them (${sweepMs.toFixed(0)} ms) | ${mb(after.rss)} | ${mb(after.heapUsed)} | ${(after.heapUsed / before.heapUsed).toFixed(2)}× |`);
  console.log(`| the same, ${IDLE_SECONDS} s later | ${mb(idle.rss)} | ${mb(idle.heapUsed)} | ${(idle.heapUsed / before.heapUsed).toFixed(2)}× |`);
  const heapLeft = idle.heapUsed - before.heapUsed;
  const met = heapLeft <= GOAL_HEAP_LEFT_MB * MB;
  console.log(`\nHeap left after the sweep: ${mb(Math.max(0, heapLeft))} (goal ≤ ${GOAL_HEAP_LEFT_MB} MB: ${met ? 'met' : 'NOT met'}); resident memory given back: ${mb(live.rss - idle.rss)} of the ${mb(live.rss - before.rss)} taken.`);

  await records.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(met ? 0 : 1);
}

main().catch((/** @type {unknown} */ err) => {
  console.error(err);
  process.exit(1);
});
