// Any date range at 1M visit rows, by day: the in-memory engine the summary route runs
// (permission filter, dates, per-day series, breakdowns) against a bare typed-array scan of
// the same rows measured in the same run, and against today's year query. Runs on dist/.
import { createRequire } from 'node:module';
import { timeCall } from './lib.mjs';
import os from 'node:os';

const require = createRequire(import.meta.url);
// Typed from the source it is built from, whether or not dist/ is there when the linter runs.
const { ColumnsBuilder } = /** @type {typeof import('../src/dashboard/analytics/builder.js')} */ (require('../dist/dashboard/analytics/builder.js'));
const { selectionOf, summarize } = require('../dist/dashboard/analytics/aggregate.js');
const { parseDay } = require('../dist/dashboard/dates.js');

const ROWS = 1_000_000;
// A server answers these many times a minute, so both sides are measured hot (optimised):
// a few warm-up calls would time the engine's interpreter against the scan's optimised loop.
const RUNS = 300;
const WARMUP = 300;
const MUSEUMS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];
const CHANNELS = ['Online', 'Box office', 'Partner', 'School'];
const DISTRICTS = Array.from({ length: 24 }, (_, i) => `District ${i + 1}`);
const NONE = { museum: [], channel: [], district: [], year: [], season: [] };
const ALL = { museums: 'all', channels: 'all' };

const timed = (fn) => timeCall(fn, { warmup: WARMUP, runs: RUNS });

// Three years of days, every combination every day until ROWS rows are reached.
const builder = new ColumnsBuilder(ROWS);
const first = Date.UTC(2023, 0, 1);
let n = 0;
for (let d = 0; n < ROWS; d += 1) {
  const date = new Date(first + d * 86_400_000).toISOString().slice(0, 10);
  for (const museum of MUSEUMS) {
    for (const channel of CHANNELS) {
      for (const district of DISTRICTS.slice(0, 8)) {
        if (n >= ROWS) break;
        builder.add({ date, museum, channel, district, visitors: (n % 97) + 1, revenue: ((n % 89) + 1) * 12.5 });
        n += 1;
      }
    }
  }
}
const columns = builder.finish();

/** The bare scan reads the rows a range covers, with nothing else to do. */
function bareOver(from, to) {
  const a = columns.dayStart[Math.max(parseDay(from) - columns.firstDay, 0)];
  const b = columns.dayStart[Math.min(parseDay(to) - columns.firstDay + 1, columns.dayStart.length - 1)];
  return () => {
    let v = 0;
    let r = 0;
    for (let i = a; i < b; i += 1) {
      v += columns.visitors[i];
      r += columns.revenueCents[i];
    }
    return v + r;
  };
}

const range = (from, to) => ({ ...NONE, from: parseDay(from), to: parseDay(to) });
const cases = [
  { name: "year 2024 (today's year query, by month)", filters: { ...NONE, year: [2024] }, unit: undefined, from: '2024-01-01', to: '2024-12-31', access: ALL },
  { name: '2023-03-17 to 2024-06-09, by day', filters: range('2023-03-17', '2024-06-09'), unit: 'day', from: '2023-03-17', to: '2024-06-09', access: ALL },
  { name: '2024-02-11 to 2024-05-20, by day', filters: range('2024-02-11', '2024-05-20'), unit: 'day', from: '2024-02-11', to: '2024-05-20', access: ALL },
  { name: '2024-02-11 to 2024-05-20, by week', filters: range('2024-02-11', '2024-05-20'), unit: 'week', from: '2024-02-11', to: '2024-05-20', access: ALL },
  {
    name: '2023-03-17 to 2024-06-09, by day, viewer 2 of 8 museums',
    filters: range('2023-03-17', '2024-06-09'),
    unit: 'day',
    from: '2023-03-17',
    to: '2024-06-09',
    access: { museums: new Set(['B', 'D']), channels: 'all' },
  },
  {
    name: '2023-03-17 to 2024-06-09, by day, viewer 3 museums × 2 channels',
    filters: range('2023-03-17', '2024-06-09'),
    unit: 'day',
    from: '2023-03-17',
    to: '2024-06-09',
    access: { museums: new Set(['A', 'C', 'F']), channels: new Set(['Online', 'School']) },
  },
  {
    // A district filter cuts across museum × channel pairs: the day series sums combinations.
    name: '2023-03-17 to 2024-06-09, by day, 3 districts of 8',
    filters: { ...range('2023-03-17', '2024-06-09'), district: DISTRICTS.slice(0, 3) },
    unit: 'day',
    from: '2023-03-17',
    to: '2024-06-09',
    access: ALL,
  },
];

console.log(`\nDashboard range benchmark: ${columns.rowCount.toLocaleString('en')} rows in memory, Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}`);
console.log(`\n| query (${RUNS} runs, p50) | engine | bare scan of the same days | × bare |`);
console.log('|---|---|---|---|');
for (const { name, filters, unit, from, to, access } of cases) {
  const engine = timed(() => summarize(columns, selectionOf(access, filters, []), { granularity: unit }).totals.visitors);
  const bare = timed(bareOver(from, to));
  console.log(`| ${name} | ${(engine * 1000).toFixed(1)} µs | ${(bare * 1000).toFixed(1)} µs | ${(engine / bare).toFixed(2)}× |`);
}
