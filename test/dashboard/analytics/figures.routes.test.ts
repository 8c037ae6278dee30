import { describe, expect, it } from 'vitest';
import type { VisitRow } from '../../../src/dashboard/domain';
import { rowCount } from '../../support/records';
import { ALPHA, BETA, dataApp } from '../fixtures';

const HEADER = 'date,museum,channel,district,visitors,revenue';

type DataApp = Awaited<ReturnType<typeof dataApp>>;

const row = (date: string, visitors: number, museum = ALPHA): VisitRow => ({ date, museum, channel: 'Online', district: 'North', visitors, revenue: visitors * 10 });

function postCsv(t: DataApp, cookie: string, body: string) {
  return t.send('post', '/api/dashboard/import', cookie).set('Content-Type', 'text/csv').send(body);
}

/** 31 December 2026 at this UTC time. */
const newYearsEve = (hours: number, minutes = 0) => Date.UTC(2026, 11, 31, hours, minutes);

describe('what the change is measured against', () => {
  it('when two seasons apart are chosen, then the summary measures them against the same seasons a year earlier, never the days before the whole span', async () => {
    const t = await dataApp([row('2025-06-10', 100), row('2025-12-05', 40), row('2026-06-10', 120), row('2026-09-01', 999), row('2026-12-05', 60)]);
    const admin = await t.admin();
    const summer = await t.send('post', '/api/seasons', admin).send({ name: 'Summer', startDate: '2026-06-01', endDate: '2026-08-31' });
    const winter = await t.send('post', '/api/seasons', admin).send({ name: 'Winter', startDate: '2026-12-01', endDate: '2026-12-05' });
    const res = await t.get(`/api/dashboard/summary?season=${summer.body.season.id}&season=${winter.body.season.id}`, admin);
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual({ visitors: 180, revenue: 1800, days: 2 });
    expect(res.body.previous).toEqual({ kind: 'yearEarlier', start: '2025-06-01', end: '2025-12-05', visitors: 140, revenue: 1400, days: 2 });
  });

  it('when years apart are chosen, then they are measured a year earlier; when they follow one another, then against the days just before', async () => {
    const t = await dataApp([row('2023-03-01', 5), row('2024-03-01', 10), row('2025-03-01', 20), row('2026-03-01', 30)]);
    const admin = await t.admin();
    const apart = await t.get('/api/dashboard/summary?year=2024&year=2026', admin);
    // 2026 as the data holds it (to 1 March), a year earlier.
    expect(apart.body.previous).toMatchObject({ kind: 'yearEarlier', start: '2023-01-01', end: '2025-03-01', visitors: 25, days: 2 });
    const together = await t.get('/api/dashboard/summary?year=2025&year=2026', admin);
    expect(together.body.previous).toMatchObject({ kind: 'before', start: '2023-11-03', end: '2024-12-31', visitors: 10 });
    const range = await t.get('/api/dashboard/summary?from=2026-01-01&to=2026-02-28', admin);
    expect(range.body.previous).toMatchObject({ kind: 'before', start: '2025-11-03', end: '2025-12-31' });
  });

  it('when a restricted viewer chooses days apart, then the year-earlier figures hold only what they may see', async () => {
    const t = await dataApp([row('2023-03-01', 10), row('2023-03-01', 700, BETA), row('2024-03-01', 20), row('2025-03-01', 30), row('2025-03-01', 900, BETA), row('2026-03-01', 40)]);
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(`/api/dashboard/summary?year=2024&year=2026&museum=${encodeURIComponent(BETA)}`, viewer);
    expect(res.body.totals.visitors).toBe(60);
    expect(res.body.previous).toMatchObject({ kind: 'yearEarlier', visitors: 40, days: 2 });
    expect(JSON.stringify(res.body)).not.toContain(BETA);
  });
});

describe('lines dated in the future', () => {
  it('when an import holds a line dated after today, then 400 IMPORT_INVALID names its line and the date, and nothing is stored', async () => {
    const t = await dataApp([]);
    t.clock.set(Date.UTC(2026, 10, 26, 9));
    const admin = await t.admin();
    const res = await postCsv(t, admin, `${HEADER}\n2026-11-25,${ALPHA},Online,North,1,1\n2026-12-15,${ALPHA},Online,North,5,5\n`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('IMPORT_INVALID');
    expect(res.body.details.errors).toEqual([{ line: 3, field: 'date', code: 'FUTURE_DATE', message: expect.stringContaining('in the future') }]);
    expect(await rowCount(t.stores.records.dashboard, 'visits')).toBe(0);
  });

  it("when an import holds today's lines, then they are taken", async () => {
    const t = await dataApp([]);
    t.clock.set(Date.UTC(2026, 10, 26, 9));
    const res = await postCsv(t, await t.admin(), `${HEADER}\n2026-11-26,${ALPHA},Online,North,1,1\n`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 1 });
  });
});

describe('the dashboard\'s "today" in DASHBOARD_TIMEZONE', () => {
  it.each([
    [21, 0],
    [22, 30],
  ])('when it is %i:%i UTC on 31 December, then in Doha it is already 1 January: presets end on the 31st and the year just ended is "last year"', async (hours, minutes) => {
    const t = await dataApp([row('2026-12-30', 1)]);
    t.clock.set(newYearsEve(hours, minutes));
    const filters = (await t.get('/api/dashboard/filters', await t.admin())).body;
    expect(filters.today).toBe('2027-01-01');
    expect(filters.presets.last7).toEqual({ from: '2026-12-25', to: '2026-12-31' });
    expect(filters.presets.monthToDate).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(filters.presets.yearToDate).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(filters.presets.lastYear).toEqual({ from: '2026-01-01', to: '2026-12-31' });
  });

  it('when it is 20:59 UTC on 31 December, then in Doha it is still the 31st: figures run to the 30th', async () => {
    const t = await dataApp([row('2026-12-30', 1)]);
    t.clock.set(newYearsEve(20, 59));
    const filters = (await t.get('/api/dashboard/filters', await t.admin())).body;
    expect(filters.today).toBe('2026-12-31');
    expect(filters.presets.yearToDate).toEqual({ from: '2026-01-01', to: '2026-12-30' });
    expect(filters.presets.lastYear).toEqual({ from: '2025-01-01', to: '2025-12-31' });
  });

  it('when DASHBOARD_TIMEZONE is UTC, then at 22:30 UTC on 31 December it is still the 31st', async () => {
    const t = await dataApp([row('2026-12-30', 1)], { DASHBOARD_TIMEZONE: 'UTC' });
    t.clock.set(newYearsEve(22, 30));
    const filters = (await t.get('/api/dashboard/filters', await t.admin())).body;
    expect(filters.today).toBe('2026-12-31');
    expect(filters.presets.last7).toEqual({ from: '2026-12-24', to: '2026-12-30' });
  });

  it.each([
    [newYearsEve(20, 59), 'Asia/Qatar', true],
    [newYearsEve(21, 0), 'Asia/Qatar', false],
    [newYearsEve(22, 30), 'Asia/Qatar', false],
    [newYearsEve(22, 30), 'UTC', true],
  ])('when December holds every day to the 31st, then at %i in %s its bucket is partial: %s (only while the 31st is still running)', async (at, zone, partial) => {
    const rows = Array.from({ length: 31 }, (_, i) => row(`2026-12-${String(i + 1).padStart(2, '0')}`, 1));
    const t = await dataApp(rows, { DASHBOARD_TIMEZONE: zone });
    t.clock.set(at);
    const res = await t.get('/api/dashboard/summary?from=2026-12-01&to=2026-12-31&granularity=month', await t.admin());
    expect(res.body.series).toEqual([{ start: '2026-12-01', end: '2026-12-31', label: '2026-12', visitors: 31, revenue: 310, partial }]);
  });

  it.each([
    [newYearsEve(21, 0), 200],
    [newYearsEve(22, 30), 200],
    [newYearsEve(20, 59), 400],
  ])('when a line of 1 January is imported at %i, then Doha\'s today decides: %i', async (at, status) => {
    const t = await dataApp([]);
    t.clock.set(at);
    const res = await postCsv(t, await t.admin(), `${HEADER}\n2027-01-01,${ALPHA},Online,North,1,1\n`);
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.details.errors[0]).toMatchObject({ field: 'date', code: 'FUTURE_DATE' });
  });

  it('when the comparison is asked without dates at 22:30 UTC on 31 December, then "year to date" is the whole year just ended in Doha', async () => {
    const t = await dataApp([row('2025-12-31', 3), row('2026-12-31', 4)]);
    t.clock.set(newYearsEve(22, 30));
    const res = await t.get('/api/dashboard/compare?against=year', await t.admin());
    expect(res.body.b).toMatchObject({ start: '2026-01-01', end: '2026-12-31', totals: { visitors: 4 } });
    expect(res.body.a).toMatchObject({ start: '2025-01-01', end: '2025-12-31', totals: { visitors: 3 } });
  });
});

describe('weeks of the trend', () => {
  const rows = [row('2025-01-04', 1), row('2025-01-05', 2), row('2025-01-06', 4), row('2025-01-12', 8)];

  it('when weeks are asked, then they are ISO weeks from Monday unless weekStart=sunday', async () => {
    const t = await dataApp(rows);
    const admin = await t.admin();
    const iso = await t.get('/api/dashboard/summary?from=2024-12-30&to=2025-01-12&granularity=week', admin);
    expect(iso.body.series.map((p: { label: string; visitors: number }) => [p.label, p.visitors])).toEqual([
      ['2025-W01', 3],
      ['2025-W02', 12],
    ]);
    const sunday = await t.get('/api/dashboard/summary?from=2024-12-29&to=2025-01-11&granularity=week&weekStart=sunday', admin);
    expect(sunday.body.series.map((p: { label: string; start: string; end: string; visitors: number }) => [p.label, p.start, p.end, p.visitors])).toEqual([
      ['2024-12-29', '2024-12-29', '2025-01-04', 1],
      ['2025-01-05', '2025-01-05', '2025-01-11', 6],
    ]);
  });

  it.each(['saturday', 'Sunday', ''])('when weekStart is %j, then 400', async (value) => {
    const t = await dataApp(rows);
    const res = await t.get(`/api/dashboard/summary?weekStart=${value}&weekStart=sunday`, await t.admin());
    expect(res.status).toBe(400);
  });
});

describe('the trend a year earlier', () => {
  it('when earlier=year is asked, then each point comes with the same days a year before, under the same filters and permission', async () => {
    const t = await dataApp([row('2024-03-01', 3), row('2024-03-01', 500, BETA), row('2024-04-10', 4), row('2025-03-01', 30), row('2025-04-10', 40), row('2025-04-10', 900, BETA)]);
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get('/api/dashboard/summary?from=2025-03-01&to=2025-04-10&granularity=month&earlier=year', viewer);
    expect(res.status).toBe(200);
    expect(res.body.series.map((p: { visitors: number }) => p.visitors)).toEqual([30, 40]);
    expect(res.body.earlier).toEqual([
      { start: '2024-03-01', end: '2024-03-31', visitors: 3, revenue: 30 },
      { start: '2024-04-01', end: '2024-04-10', visitors: 4, revenue: 40 },
    ]);
    const without = await t.get('/api/dashboard/summary?from=2025-03-01&to=2025-04-10', viewer);
    expect(without.body).not.toHaveProperty('earlier');
    expect((await t.get('/api/dashboard/summary?earlier=month', viewer)).status).toBe(400);
  });
});
