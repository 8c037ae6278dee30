import { Readable } from 'node:stream';
import { expect, it } from 'vitest';
import { prepareDashboard } from '../../../src/dashboard/bootstrap';
import { todayIn } from '../../../src/dashboard/dates';
import { demoPeriod } from '../../../src/dashboard/visits/demo';
import { AnalyticsService } from '../../../src/dashboard/analytics/service';
import { AuditTrail } from '../../../src/dashboard/audit/service';
import { KyselyAuditRepository } from '../../../src/dashboard/audit/repository';
import { SqlSeasonRepository } from '../../../src/dashboard/seasons/repository';
import { SeasonsService } from '../../../src/dashboard/seasons/service';
import { SqlVisitRepository } from '../../../src/dashboard/visits/repository';
import { VisitsService } from '../../../src/dashboard/visits/service';
import { SqlUserRecordStore } from '../../../src/dashboard/users/repository';
import { ManualClock } from '../../../src/platform/clock';
import type { EngineKind } from '../../../src/platform/db/engine';
import { Conflict } from '../../../src/platform/errors';
import { LeaseLost, type Locks } from '../../../src/platform/locks';
import { createLogger } from '../../../src/platform/logger';
import { describeEngines, testRecords } from '../../support/records';
import { ROWS, csvOf } from '../fixtures';

const ADMIN = { role: 'admin', allowedMuseums: '[]', allowedChannels: '[]' };
const NONE = { museum: [], channel: [], district: [], year: [], season: [] };

async function store(kind: EngineKind, locks?: Locks) {
  const db = (await testRecords(kind)).dashboard;
  const visits = new SqlVisitRepository(db);
  const clock = new ManualClock();
  const logger = createLogger('silent');
  const trail = new AuditTrail({ audit: new KyselyAuditRepository(db), clock, logger });
  const seasons = new SeasonsService({ seasons: new SqlSeasonRepository(db), trail });
  const figures = new AnalyticsService({ visits, seasons, logger, clock, timeZone: 'Asia/Qatar' });
  const imports = new VisitsService({ visits, figures, trail, currency: 'QAR', locks });
  return { db, visits, seasons, figures, imports };
}

/** Locks whose every lease is lost once `lose` is called, as when the shared store stops answering for longer than a lease. */
function losableLocks() {
  const lost = new AbortController();
  const locks: Locks = { acquire: async () => ({ lost: lost.signal, release: async () => undefined }) };
  return { locks, lose: () => lost.abort(new LeaseLost()) };
}

async function countOf(db: Awaited<ReturnType<typeof store>>['db'], table: 'visits' | 'visits_import'): Promise<number> {
  // Postgres answers count(*), a bigint, as a string; SQLite as a number.
  const row = await db.db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

describeEngines('the figures and the imports', (kind) => {
  it('when another writer changes the visits, then the next read rebuilds the in-memory copy', async () => {
    const { visits, figures } = await store(kind);
    await visits.upsert(ROWS.slice(0, 2));
    expect((await figures.summary(ADMIN, NONE)).totals.visitors).toBe(30);
    await visits.upsert(ROWS.slice(2));
    expect((await figures.summary(ADMIN, NONE)).totals.visitors).toBe(69);
  });

  it('when an import is running, then a second one is refused with 409 until the first ends', async () => {
    const { figures, imports } = await store(kind);
    const first = await imports.startImport();
    await expect(imports.startImport()).rejects.toThrow(Conflict);
    await first.discard();
    const second = await imports.startImport();
    await second.stage(Readable.from([csvOf(ROWS)]));
    expect(await second.commit()).toEqual({ imported: ROWS.length });
    expect((await figures.summary(ADMIN, NONE)).totals.visitors).toBe(69);
  });

  it('when an import lost its lock before its commit, then it is refused with 503 and the visits stay as they were', async () => {
    const { locks, lose } = losableLocks();
    const { db, imports } = await store(kind, locks);
    const job = await imports.startImport();
    await job.stage(Readable.from([csvOf(ROWS)]));
    lose();
    await expect(job.commit()).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(await countOf(db, 'visits')).toBe(0);
  });

  it('when an import lost its lock while staging, then it stops with 503 before staging more', async () => {
    const { locks, lose } = losableLocks();
    const { imports } = await store(kind, locks);
    const job = await imports.startImport();
    lose();
    await expect(job.stage(Readable.from([csvOf(ROWS)]))).rejects.toBeInstanceOf(LeaseLost);
  });

  it('when a staged import is discarded, then visits stay as they were and the staging area is empty', async () => {
    const { db, imports } = await store(kind);
    const job = await imports.startImport();
    await job.stage(Readable.from([csvOf(ROWS)]));
    await job.discard();
    expect(await countOf(db, 'visits')).toBe(0);
    expect(await countOf(db, 'visits_import')).toBe(0);
    await expect(job.commit()).rejects.toBeInstanceOf(Conflict);
  });
});

// The demo data is nearly four years of visits, written twice by one test: on PostgreSQL beside other files that takes a while.
const DEMO_DATA_MS = 90_000;

describeEngines('prepareDashboard', (kind) => {
  // Late in the evening in UTC, when it is already the 22nd in Doha.
  const now = Date.parse('2026-11-21T22:30:00Z');
  const prepare = (db: Parameters<typeof prepareDashboard>[0]) => prepareDashboard(db, createLogger('silent'), 'Asia/Qatar', now);

  it("when the store is empty, then three full years and the current year to yesterday in the Dashboard's time zone are generated, with seasons", async () => {
    const { db, figures } = await store(kind);
    await prepare(db);
    const filters = await figures.filters(ADMIN);
    expect(filters.museums).toHaveLength(6);
    expect(filters.channels).toEqual(['Box office', 'Online', 'Partner', 'School groups']);
    expect(filters.years).toEqual([2023, 2024, 2025, 2026]);
    expect(filters.districts.length).toBeGreaterThanOrEqual(5);
    expect(filters.seasons.map((s) => s.name)).toEqual(expect.arrayContaining(['Summer 2025', 'Ramadan 2026']));
    const summary = await figures.summary(ADMIN, NONE);
    expect(summary.range).toEqual({ start: '2023-01-01', end: '2026-11-21' });
    expect(demoPeriod(todayIn('Asia/Qatar', now))).toEqual({ from: Date.UTC(2023, 0, 1) / 86_400_000, to: Date.UTC(2026, 10, 21) / 86_400_000 });
  });

  it('when the demo data is generated, then weekends are busier than weekdays and summer is quieter than winter', async () => {
    const { db, figures } = await store(kind);
    await prepare(db);
    const totals = new Map<number, number>();
    for (const r of await db.db.selectFrom('visits').select(['date', 'visitors']).execute()) {
      const weekday = new Date(`${r.date}T00:00:00Z`).getUTCDay();
      totals.set(weekday, (totals.get(weekday) ?? 0) + r.visitors);
    }
    const friday = totals.get(5)!;
    const monday = totals.get(1)!;
    expect(friday).toBeGreaterThan(monday * 1.3);
    const monthly = (await figures.summary(ADMIN, { ...NONE, year: [2025] })).monthly;
    expect(monthly[0].visitors).toBeGreaterThan(monthly[6].visitors * 1.5);
  });

  it('when it runs twice on the same dates, then the data is the same (deterministic) and not doubled', async () => {
    const a = await store(kind);
    const b = await store(kind);
    await prepare(a.db);
    await prepare(b.db);
    await prepare(b.db);
    // Revenue is summed in cents: a floating-point sum may differ in its last bits with the order the engine reads rows in.
    const sum = async (db: typeof a.db) => {
      const { n, v, r } = await db.db
        .selectFrom('visits')
        .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.sum<number | string>('visitors').as('v'), eb.fn.sum<number | string>('revenue').as('r')])
        .executeTakeFirstOrThrow();
      return { n, v, cents: Math.round(Number(r) * 100) };
    };
    expect(await sum(b.db)).toEqual(await sum(a.db));
    expect((await b.seasons.list()).length).toBe((await a.seasons.list()).length);
  });

  it('when the store already holds visits, then nothing is added and users are left alone', async () => {
    const { db, visits } = await store(kind);
    await visits.upsert(ROWS);
    await prepare(db);
    expect(await visits.count()).toBe(ROWS.length);
    expect(await new SqlUserRecordStore(db).list()).toEqual([]);
  });
}, { timeout: DEMO_DATA_MS });

describeEngines('SqlVisitRepository.scan', (kind) => {
  const rowsOf = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      date: `2025-01-${String((i % 28) + 1).padStart(2, '0')}`,
      museum: `Museum ${i % 3}`,
      channel: `Channel ${i % 5}`,
      district: `District ${i}`,
      visitors: i,
      revenue: i * 2,
    }));

  it('when the rows span many batches, then each row comes once, in key order, and other work runs between batches', async () => {
    const { visits } = await store(kind);
    const rows = rowsOf(1_000);
    await visits.upsert(rows);
    const seen: string[] = [];
    let turnsBetween = 0;
    let scanning = true;
    const tick = () => {
      if (!scanning) return;
      turnsBetween += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    await visits.scan((batch) => {
      for (const r of batch) seen.push([r.date, r.museum, r.channel, r.district].join('|'));
    }, 64);
    scanning = false;
    const expected = rows.map((r) => [r.date, r.museum, r.channel, r.district].join('|')).sort();
    expect(seen).toEqual(expected);
    expect(turnsBetween).toBeGreaterThanOrEqual(10);
  });

  it('when a batch is exactly full at the end, then the scan stops after one empty look', async () => {
    const { visits } = await store(kind);
    await visits.upsert(rowsOf(128));
    const sizes: number[] = [];
    await visits.scan((batch) => sizes.push(batch.length), 64);
    expect(sizes).toEqual([64, 64]);
  });

  it('when the store is written between batches, then the write goes through mid-scan and the version moves', async () => {
    const { visits } = await store(kind);
    await visits.upsert(rowsOf(256));
    const before = await visits.version();
    let scanning = true;
    let writtenDuringScan = false;
    let write: Promise<number> | undefined;
    await visits.scan(() => {
      if (write) return;
      write = new Promise((resolve, reject) => {
        setImmediate(() => {
          visits.upsert(rowsOf(1)).then((n) => {
            writtenDuringScan = scanning;
            resolve(n);
          }, reject);
        });
      });
    }, 64);
    scanning = false;
    expect(await write).toBe(1);
    // SQLite's one connection must come free between batches. PostgreSQL's scan is one COPY
    // of a snapshot on a connection of its own, which no write waits for: whether the write
    // lands before the last batch is down to timing there.
    if (kind === 'sqlite') expect(writtenDuringScan).toBe(true);
    expect(await visits.version()).not.toBe(before);
  });
}, { timeout: DEMO_DATA_MS });
