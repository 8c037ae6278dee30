// Dashboard data at scale: imports a 1,000,000-row CSV through POST /api/dashboard/import
// (time and peak memory), then times GET /api/dashboard/summary and GET /api/dashboard/compare
// for an administrator and for a restricted viewer with filters, against a bare typed-array
// scan of the same rows measured in the same run. Runs on dist/ (built by `npm run bench`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { benchApp, benchEnv } from './app.mjs';
import { request, timeCall, timedServer } from './lib.mjs';

const require = createRequire(import.meta.url);
const { SqlVisitRepository } = require('../dist/dashboard/visits/repository.js');
// Typed from the source it is built from, whether or not dist/ is there when the linter runs.
const { ColumnsBuilder } = /** @type {typeof import('../src/dashboard/analytics/builder.js')} */ (require('../dist/dashboard/analytics/builder.js'));

const ROWS = 1_000_000;
const RUNS = 101;
const WARMUP = 20;
const GOAL_MS = 20;
const GOAL_RATIO = 5;
const GOAL_IMPORT_S = 30;
/** The import into PostgreSQL against the same import into SQLite, measured in the same run. */
const GOAL_PG_IMPORT_RATIO = 1.5;
const ADMIN_PIN = '999999';
const VIEWER_PIN = '424242';

const MUSEUMS = ['National Museum', 'Museum of Islamic Art', 'Natural History Museum', 'Maritime Museum', 'Heritage Village', 'Contemporary Art Gallery', 'Science Centre', 'Photography House'];
const CHANNELS = ['Online', 'Box office', 'Partner', 'School groups'];
const DISTRICTS = Array.from({ length: 30 }, (_, i) => `District ${String(i + 1).padStart(2, '0')}`);

const mb = (bytes) => (bytes / (1024 * 1024)).toFixed(0);
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const median = (values) => percentile(values, 50);

/** 1,000,000 daily rows: 8 museums × 4 channels × 30 districts per day from 2023-01-01. */
async function writeCsv(file) {
  const out = fs.createWriteStream(file);
  let chunk = 'date,museum,channel,district,visitors,revenue\n';
  let seed = 12345;
  const next = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  let written = 0;
  for (let day = Date.UTC(2023, 0, 1) / 86_400_000; written < ROWS; day += 1) {
    const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
    for (const museum of MUSEUMS) {
      for (const channel of CHANNELS) {
        for (const district of DISTRICTS) {
          if (written === ROWS) break;
          const visitors = Math.floor(next() * 120);
          chunk += `${date},${museum},${channel},${district},${visitors},${(visitors * (20 + next() * 30)).toFixed(2)}\n`;
          written += 1;
          if (chunk.length > 1 << 20) {
            if (!out.write(chunk)) await new Promise((r) => out.once('drain', r));
            chunk = '';
          }
        }
      }
    }
  }
  out.end(chunk);
  await new Promise((r) => out.on('finish', r));
  return fs.statSync(file).size;
}

/** The whole run on one engine: `env` adds DATABASE_URL for PostgreSQL. Answers its figures. */
async function runOn(label, env = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-bench-'));
  const { app, stores } = await benchApp(benchEnv(dir, { ADMIN_PIN, ...env }));
  const records = stores.records.dashboard;
  await stores.dashboardUsers.create({
    name: 'Restricted viewer',
    pin: VIEWER_PIN,
    role: 'viewer',
    allowedMuseums: JSON.stringify([MUSEUMS[1], MUSEUMS[3]]),
    allowedChannels: '[]',
  });

  // Server time: from the request reaching the server to the last byte of the answer.
  const server = await timedServer(app);
  const { base, agent, serverTimes } = server;

  const signIn = async (pin) => {
    const res = await request(`${base}/auth/login`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ pin }) });
    if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
    return res.headers['set-cookie'][0].split(';')[0];
  };
  const admin = await signIn(ADMIN_PIN);
  const viewer = await signIn(VIEWER_PIN);

  // ## Import
  const csv = path.join(dir, 'visits.csv');
  const size = await writeCsv(csv);
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssSampled = rssBefore;
  const sampler = setInterval(() => {
    rssSampled = Math.max(rssSampled, process.memoryUsage().rss);
  }, 20);
  const importStart = performance.now();
  const imported = await request(`${base}/api/dashboard/import`, {
    method: 'POST',
    agent,
    headers: { Cookie: admin, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'text/csv', 'Content-Length': String(size) },
    body: fs.createReadStream(csv),
  });
  const importSeconds = (performance.now() - importStart) / 1000;
  clearInterval(sampler);
  const peakRss = Math.max(rssSampled, process.resourceUsage().maxRSS * 1024);
  if (imported.status !== 200) throw new Error(`import answered ${imported.status}: ${imported.text.slice(0, 500)}`);
  const count = JSON.parse(imported.text).imported;
  if (count !== ROWS) throw new Error(`imported ${count} rows, expected ${ROWS}`);

  // ## Summary
  const timeRoute = async (url, cookie) => {
    for (let i = 0; i < WARMUP; i += 1) await request(`${base}${url}`, { agent, headers: { Cookie: cookie } });
    serverTimes.length = 0;
    const roundTrips = [];
    let last;
    for (let i = 0; i < RUNS; i += 1) {
      const start = performance.now();
      last = await request(`${base}${url}`, { agent, headers: { Cookie: cookie } });
      roundTrips.push(performance.now() - start);
    }
    if (last.status !== 200) throw new Error(`${url} answered ${last.status}`);
    return {
      server: median(serverTimes),
      serverP99: percentile(serverTimes, 99),
      roundTrip: median(roundTrips),
      perSecond: RUNS / (roundTrips.reduce((a, b) => a + b, 0) / 1000),
      body: JSON.parse(last.text),
    };
  };
  const adminRun = await timeRoute('/api/dashboard/summary', admin);
  const viewerUrl = `/api/dashboard/summary?museum=${encodeURIComponent(MUSEUMS[3])}&channel=Online`;
  const viewerRun = await timeRoute(viewerUrl, viewer);
  if (adminRun.body.totals.days === 0 || viewerRun.body.byMuseum.length !== 1) throw new Error('unexpected summary content');
  // Two whole years against each other: two thirds of the rows on the two sides.
  const adminCompare = await timeRoute('/api/dashboard/compare?a=2023&b=2024', admin);
  const viewerCompare = await timeRoute(`/api/dashboard/compare?a=2023&b=2024&channel=Online`, viewer);
  if (adminCompare.body.byMuseum.length !== MUSEUMS.length || viewerCompare.body.byMuseum.length !== 2) throw new Error('unexpected comparison content');

  // ## Bare scan: the visitor and revenue columns of the same rows, summed with nothing else
  // to do. The same columns, built the way the server builds them, also give the engine
  // alone with its monthly rollup turned off, to show what summing every row costs.
  // It is also the cold load: every row from the store into the in-memory columns, as a start or an import does.
  const loadStart = performance.now();
  const builder = new ColumnsBuilder(ROWS);
  await new SqlVisitRepository(records).scan((batch) => {
    for (const row of batch) builder.add(row);
  });
  const columns = builder.finish();
  const coldLoadSeconds = (performance.now() - loadStart) / 1000;
  const { visitors, revenueCents } = columns;
  const bare = () => {
    let v = 0;
    let r = 0;
    for (let k = 0; k < visitors.length; k += 1) {
      v += visitors[k];
      r += revenueCents[k];
    }
    return v + r;
  };
  const timed = (fn) => timeCall(fn, { warmup: WARMUP, runs: RUNS });
  const bareMs = timed(bare);
  const everyRow = columns.keepMask('all', 'all', 'all');
  const span = [{ from: columns.firstDay, to: columns.lastDay }];
  const rowsOnlyMs = timed(() => columns.aggregate(everyRow, span, 'rows').days);

  // ## Report
  /** @type {[string, { server: number, serverP99: number, roundTrip: number, perSecond: number }][]} */
  const rows = [
    ['summary, administrator, no filter', adminRun],
    ['summary, viewer (2 of 8 museums), museum + channel filter', viewerRun],
    ['comparison 2023 against 2024, administrator', adminCompare],
    ['comparison 2023 against 2024, viewer (2 of 8 museums), channel filter', viewerCompare],
  ];
  const ok = (pass) => (pass ? 'yes' : 'NO');
  console.log(`\nDashboard data benchmark on ${label}: ${ROWS.toLocaleString('en')} visit rows, Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}`);
  console.log(`\n| measurement (${RUNS} runs, one connection) | server p50 | server p99 | round trip p50 | requests/s | × bare scan (p50) | goal met (≤ ${GOAL_MS} ms, ≤ ${GOAL_RATIO}×) |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const [name, run] of rows) {
    const ratio = run.server / bareMs;
    console.log(`| ${name} | ${run.server.toFixed(2)} ms | ${run.serverP99.toFixed(2)} ms | ${run.roundTrip.toFixed(2)} ms | ${Math.round(run.perSecond).toLocaleString('en')} | ${ratio.toFixed(2)}× | ${ok(run.server <= GOAL_MS && ratio <= GOAL_RATIO)} |`);
  }
  console.log(`| bare typed-array scan of the same rows | ${bareMs.toFixed(2)} ms | — | — | — | 1× | — |`);
  console.log(`| for reference: the engine alone summing every row (rollup off), administrator | ${rowsOnlyMs.toFixed(2)} ms | — | — | — | ${(rowsOnlyMs / bareMs).toFixed(2)}× | — |`);
  console.log(`\n| import | figure |`);
  console.log('|---|---|');
  console.log(`| CSV of ${ROWS.toLocaleString('en')} rows (${mb(size)} MB), POST text/csv | ${importSeconds.toFixed(1)} s (goal < ${GOAL_IMPORT_S} s: ${ok(importSeconds < GOAL_IMPORT_S)}) |`);
  console.log(`| cold load of every row into the in-memory columns | ${coldLoadSeconds.toFixed(1)} s |`);
  console.log(`| resident memory before the import | ${mb(rssBefore)} MB |`);
  console.log(`| peak resident memory (whole process: server, client and the new in-memory copy) | ${mb(peakRss)} MB |`);

  server.close();
  await stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
  const failed = rows.some(([, run]) => run.server > GOAL_MS || run.server / bareMs > GOAL_RATIO) || importSeconds >= GOAL_IMPORT_S;
  return { failed, importSeconds, coldLoadSeconds, summaryRatio: adminRun.server / bareMs };
}

async function main() {
  const sqlite = await runOn('SQLite');
  const { tsImport } = await import('tsx/esm/api');
  const { postgresBinaries, startPostgres } = await tsImport('../test/support/postgres-server.ts', import.meta.url);
  const bin = postgresBinaries();
  if (!bin) throw new Error("PostgreSQL is not installed: apt-get install postgresql");
  const cluster = await startPostgres(bin);
  let postgres;
  try {
    postgres = await runOn('PostgreSQL', { DATABASE_URL: cluster.url });
  } finally {
    cluster.stop();
  }
  const importRatio = postgres.importSeconds / sqlite.importSeconds;
  console.log('\n| the two engines in this run | SQLite | PostgreSQL | PostgreSQL ÷ SQLite |');
  console.log('|---|---|---|---|');
  console.log(`| import of ${ROWS.toLocaleString('en')} rows | ${sqlite.importSeconds.toFixed(1)} s | ${postgres.importSeconds.toFixed(1)} s | ${importRatio.toFixed(2)}× (goal ≤ ${GOAL_PG_IMPORT_RATIO}×: ${importRatio <= GOAL_PG_IMPORT_RATIO ? 'met' : 'NOT met'}) |`);
  console.log(`| cold load of every row into memory | ${sqlite.coldLoadSeconds.toFixed(1)} s | ${postgres.coldLoadSeconds.toFixed(1)} s | ${(postgres.coldLoadSeconds / sqlite.coldLoadSeconds).toFixed(2)}× |`);
  console.log(`| summary, administrator, × bare scan | ${sqlite.summaryRatio.toFixed(2)}× | ${postgres.summaryRatio.toFixed(2)}× | — |`);
  process.exit(sqlite.failed || postgres.failed || importRatio > GOAL_PG_IMPORT_RATIO ? 1 : 0);
}

main().catch((/** @type {unknown} */ err) => {
  console.error(err);
  process.exit(1);
});
