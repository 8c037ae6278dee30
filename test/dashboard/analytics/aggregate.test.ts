import { describe, expect, it } from 'vitest';
import {
  compareSides,
  filterOptions,
  percentChange,
  selectedRows,
  selectionOf,
  summarize,
  type DataFilters,
} from '../../../src/dashboard/analytics/aggregate';
import { ColumnsBuilder } from '../../../src/dashboard/analytics/builder';
import { parseDay, yearRange } from '../../../src/dashboard/dates';
import { accessOf, NO_ACCESS, type Access } from '../../../src/dashboard/analytics/permissions';
import type { Season } from '../../../src/dashboard/seasons/repository';
import { ALPHA, BETA, EMPTY_SUMMARY, GAMMA, ROWS, columnsOf } from '../fixtures';

const ALL: Access = { museums: 'all', channels: 'all' };
const NONE: DataFilters = { museum: [], channel: [], district: [], year: [], season: [] };
const SEASONS: Season[] = [
  { id: 1, name: 'February 2024', startDate: '2024-02-01', endDate: '2024-02-29' },
  { id: 2, name: 'New year', startDate: '2024-12-25', endDate: '2025-01-05' },
];

function summary(access: Access, filters: Partial<DataFilters> = {}) {
  return summarize(columnsOf(), selectionOf(access, { ...NONE, ...filters }, SEASONS));
}

describe('summarize', () => {
  it('when nothing is filtered, then totals, days and breakdowns cover every row', () => {
    const s = summary(ALL);
    expect(s.totals).toEqual({ visitors: 69, revenue: 551.75, days: 8 });
    expect(s.range).toEqual({ start: '2024-01-01', end: '2025-03-01' });
    expect(s.byMuseum).toEqual([
      { key: ALPHA, visitors: 42, revenue: 355.25 },
      { key: BETA, visitors: 23, revenue: 180.5 },
      { key: GAMMA, visitors: 4, revenue: 16 },
    ]);
    expect(s.byChannel).toEqual([
      { key: 'Online', visitors: 49, revenue: 440.5 },
      { key: 'Box office', visitors: 16, revenue: 95.25 },
      { key: 'Partner', visitors: 4, revenue: 16 },
    ]);
    expect(s.byDistrict).toEqual([
      { key: 'North', visitors: 36, revenue: 336 },
      { key: 'South', visitors: 33, revenue: 215.75 },
    ]);
  });

  it('when nothing is filtered, then the monthly series runs over every month of the range, zeros included', () => {
    const s = summary(ALL);
    expect(s.monthly).toHaveLength(15);
    expect(s.monthly[0]).toEqual({ month: '2024-01', visitors: 35, revenue: 275.75 });
    expect(s.monthly[1]).toEqual({ month: '2024-02', visitors: 10, revenue: 100 });
    expect(s.monthly[5]).toEqual({ month: '2024-06', visitors: 0, revenue: 0 });
    expect(s.monthly.slice(12)).toEqual([
      { month: '2025-01', visitors: 12, revenue: 120 },
      { month: '2025-02', visitors: 8, revenue: 40 },
      { month: '2025-03', visitors: 4, revenue: 16 },
    ]);
  });

  it('when nothing is filtered, then the previous period lies before all data and is empty', () => {
    const s = summary(ALL);
    // 2024-01-01..2025-03-01 is 426 days; the 426 days before it end on 2023-12-31.
    expect(s.previous).toEqual({ kind: 'before', start: '2022-11-01', end: '2023-12-31', visitors: 0, revenue: 0, days: 0 });
  });

  it('when one museum and one channel are chosen, then only their rows count', () => {
    const s = summary(ALL, { museum: [ALPHA], channel: ['Online'] });
    expect(s.totals).toEqual({ visitors: 29, revenue: 290, days: 3 });
    expect(s.byMuseum).toEqual([{ key: ALPHA, visitors: 29, revenue: 290 }]);
    expect(s.byDistrict).toEqual([{ key: 'North', visitors: 29, revenue: 290 }]);
  });

  it('when a museum has a row with zero visitors, then it still appears in the breakdown', () => {
    const s = summary(ALL, { museum: [BETA], year: [2025] });
    expect(s.byMuseum).toEqual([{ key: BETA, visitors: 0, revenue: 0 }]);
    expect(s.totals.days).toBe(1);
  });

  it('when a year is chosen, then the range stops where the data stops and the previous period has the same length', () => {
    const s = summary(ALL, { year: [2025] });
    expect(s.totals).toEqual({ visitors: 24, revenue: 176, days: 4 });
    expect(s.range).toEqual({ start: '2025-01-01', end: '2025-03-01' });
    // 2025-01-01..2025-03-01 is 60 days; the 60 days before, 2024-11-02..2024-12-31, hold no row.
    expect(s.previous).toMatchObject({ start: '2024-11-02', end: '2024-12-31', visitors: 0, days: 0 });
    expect(s.monthly.map((m) => m.month)).toEqual(['2025-01', '2025-02', '2025-03']);
  });

  it('when a season is chosen, then its days count and the previous period is the same number of days before it', () => {
    const s = summary(ALL, { season: [1] });
    expect(s.totals).toEqual({ visitors: 10, revenue: 100, days: 2 });
    expect(s.range).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    expect(s.previous).toEqual({ kind: 'before', start: '2024-01-03', end: '2024-01-31', visitors: 5, revenue: 25.25, days: 1 });
  });

  it('when two seasons are chosen, then rows of either count', () => {
    expect(summary(ALL, { season: [1, 2] }).totals).toEqual({ visitors: 10 + 12 + 0, revenue: 220, days: 4 });
  });

  it('when a year and a season are chosen, then only days in both count', () => {
    expect(summary(ALL, { season: [2], year: [2024] }).totals).toEqual({ visitors: 0, revenue: 0, days: 0 });
    expect(summary(ALL, { season: [2], year: [2025] }).totals).toEqual({ visitors: 12, revenue: 120, days: 2 });
  });

  it('when the season id is unknown, then no day is selected', () => {
    const s = summary(ALL, { season: [99] });
    expect(s.totals).toEqual({ visitors: 0, revenue: 0, days: 0 });
    expect(s.range).toBeNull();
    expect(s.monthly).toEqual([]);
  });

  it('when a district is chosen, then only that district counts', () => {
    expect(summary(ALL, { district: ['South'] }).totals).toEqual({ visitors: 33, revenue: 215.75, days: 4 });
  });

  it('when the store is empty, then everything is zero and empty', () => {
    const s = summarize(new ColumnsBuilder().finish(), selectionOf(ALL, NONE, SEASONS));
    expect(s).toEqual(EMPTY_SUMMARY);
  });

  it('when rows arrive out of date order, then the copy sorts them and the sums are the same', () => {
    const builder = new ColumnsBuilder(2);
    for (const row of [...ROWS].reverse()) builder.add(row);
    const s = summarize(builder.finish(), selectionOf(ALL, NONE, SEASONS));
    expect(s.totals).toEqual({ visitors: 69, revenue: 551.75, days: 8 });
    expect(s.monthly[0]).toEqual({ month: '2024-01', visitors: 35, revenue: 275.75 });
  });
});

describe('summarize under the permission filter', () => {
  const alphaOnly = accessOf({ role: 'viewer', allowedMuseums: JSON.stringify([ALPHA]), allowedChannels: '[]' });

  it('when a viewer may see one museum, then only its rows count', () => {
    const s = summary(alphaOnly);
    expect(s.totals).toEqual({ visitors: 42, revenue: 355.25, days: 5 });
    expect(s.byMuseum.map((b) => b.key)).toEqual([ALPHA]);
  });

  it('when a viewer asks for a museum outside the permission, then the request is dropped and the permission still applies', () => {
    expect(summary(alphaOnly, { museum: [BETA] }).totals).toEqual(summary(alphaOnly).totals);
    expect(summary(alphaOnly, { museum: [BETA, ALPHA] }).byMuseum.map((b) => b.key)).toEqual([ALPHA]);
  });

  it('when a viewer may see a museum and a channel, then the range covers only their rows', () => {
    const access = accessOf({ role: 'viewer', allowedMuseums: JSON.stringify([GAMMA]), allowedChannels: '["Partner"]' });
    const s = summary(access);
    expect(s.range).toEqual({ start: '2025-03-01', end: '2025-03-01' });
    expect(s.totals).toEqual({ visitors: 4, revenue: 16, days: 1 });
  });

  it('when there is no access, then nothing is counted and no date is revealed', () => {
    const s = summary(NO_ACCESS, { museum: [ALPHA] });
    expect(s.totals).toEqual({ visitors: 0, revenue: 0, days: 0 });
    expect(s.range).toBeNull();
    expect(s.previous).toEqual({ kind: 'before', start: null, end: null, visitors: 0, revenue: 0, days: 0 });
    expect(s.monthly).toEqual([]);
    expect(s.byMuseum).toEqual([]);
  });
});

describe('compareSides', () => {
  const year = (y: number) => ({ label: String(y), dates: [yearRange(y)] });

  it('when two years are compared, then totals, per-museum and per-channel changes are worked out', () => {
    const c = compareSides(columnsOf(), selectionOf(ALL, NONE, SEASONS), year(2024), year(2025));
    expect(c.a).toEqual({ label: '2024', start: '2024-01-01', end: '2024-12-31', totals: { visitors: 45, revenue: 375.75, days: 4 } });
    expect(c.b).toEqual({ label: '2025', start: '2025-01-01', end: '2025-12-31', totals: { visitors: 24, revenue: 176, days: 4 } });
    expect(c.byMuseum).toEqual([
      { key: ALPHA, a: 22, b: 20, change: -2, changePct: expect.closeTo(-9.0909, 3), revenue: { a: 195.25, b: 160, change: -35.25, changePct: expect.closeTo(-18.0538, 3) } },
      { key: BETA, a: 23, b: 0, change: -23, changePct: -100, revenue: { a: 180.5, b: 0, change: -180.5, changePct: -100 } },
      { key: GAMMA, a: 0, b: 4, change: 4, changePct: null, revenue: { a: 0, b: 16, change: 16, changePct: null } },
    ]);
    expect(c.byChannel).toEqual([
      { key: 'Box office', a: 8, b: 8, change: 0, changePct: 0, revenue: { a: 55.25, b: 40, change: -15.25, changePct: expect.closeTo(-27.6018, 3) } },
      { key: 'Online', a: 37, b: 12, change: -25, changePct: expect.closeTo(-67.5676, 3), revenue: { a: 320.5, b: 120, change: -200.5, changePct: expect.closeTo(-62.5585, 3) } },
      { key: 'Partner', a: 0, b: 4, change: 4, changePct: null, revenue: { a: 0, b: 16, change: 16, changePct: null } },
    ]);
  });

  it('when the filters name a museum, then both sides count only it', () => {
    const c = compareSides(columnsOf(), selectionOf(ALL, { ...NONE, museum: [ALPHA] }, SEASONS), year(2024), year(2025));
    expect(c.byMuseum).toEqual([{ key: ALPHA, a: 22, b: 20, change: -2, changePct: expect.closeTo(-9.0909, 3), revenue: expect.objectContaining({ a: 195.25, b: 160 }) }]);
    expect(c.a.totals.visitors).toBe(22);
  });

  it('when a season filter is given, then it narrows both sides', () => {
    const season = { label: 'New year', dates: [{ from: parseDay('2024-12-25')!, to: parseDay('2025-01-05')! }] };
    const c = compareSides(columnsOf(), selectionOf(ALL, { ...NONE, year: [2025] }, SEASONS), season, year(2025));
    expect(c.a.totals).toEqual({ visitors: 12, revenue: 120, days: 2 });
    expect(c.b.totals).toEqual({ visitors: 24, revenue: 176, days: 4 });
  });

  it('when the viewer has no access, then both sides are empty', () => {
    const c = compareSides(columnsOf(), selectionOf(NO_ACCESS, NONE, SEASONS), year(2024), year(2025));
    expect(c.a.totals).toEqual({ visitors: 0, revenue: 0, days: 0 });
    expect(c.byMuseum).toEqual([]);
    expect(c.byChannel).toEqual([]);
  });

  it('when a is 0, then the percent change is null; otherwise it is the change in percent', () => {
    expect(percentChange(0, 5)).toBeNull();
    expect(percentChange(0, 0)).toBeNull();
    expect(percentChange(80, 90)).toBe(12.5);
    expect(percentChange(10, 5)).toBe(-50);
  });
});

describe('filterOptions', () => {
  it('when the session sees everything, then every value is offered, sorted', () => {
    expect(filterOptions(columnsOf(), ALL)).toEqual({
      museums: [ALPHA, BETA, GAMMA],
      channels: ['Box office', 'Online', 'Partner'],
      districts: ['North', 'South'],
      years: [2024, 2025],
    });
  });

  it('when the permission allows a museum that has no row in an allowed channel, then that museum is not offered', () => {
    const access = accessOf({ role: 'viewer', allowedMuseums: JSON.stringify([ALPHA, GAMMA]), allowedChannels: '["Online"]' });
    expect(filterOptions(columnsOf(), access)).toEqual({ museums: [ALPHA], channels: ['Online'], districts: ['North'], years: [2024, 2025] });
  });

  it('when the permitted rows lie in one year, then only that year is offered', () => {
    const access = accessOf({ role: 'viewer', allowedMuseums: JSON.stringify([GAMMA]), allowedChannels: '[]' });
    expect(filterOptions(columnsOf(), access).years).toEqual([2025]);
  });

  it('when there is no access, then nothing is offered', () => {
    expect(filterOptions(columnsOf(), NO_ACCESS)).toEqual({ museums: [], channels: [], districts: [], years: [] });
  });
});

describe('selectedRows', () => {
  it('when filters are given, then exactly the rows the summary counts come out, in date order', () => {
    const rows = [...selectedRows(columnsOf(), selectionOf(ALL, { ...NONE, district: ['South'] }, SEASONS))];
    expect(rows).toEqual(ROWS.filter((r) => r.district === 'South'));
  });

  it('when there is no access, then no row comes out', () => {
    expect([...selectedRows(columnsOf(), selectionOf(NO_ACCESS, NONE, SEASONS))]).toEqual([]);
  });
});

describe('the period a summary is measured against', () => {
  it('when two seasons apart are chosen, then the change is against the same seasons a year earlier, not the days before the whole span', () => {
    const rows = [
      { date: '2023-02-10', museum: ALPHA, channel: 'Online', district: 'North', visitors: 100, revenue: 1000 },
      { date: '2023-12-30', museum: ALPHA, channel: 'Online', district: 'North', visitors: 7, revenue: 70 },
      { date: '2024-02-10', museum: ALPHA, channel: 'Online', district: 'North', visitors: 110, revenue: 1100 },
      { date: '2024-06-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 999, revenue: 9990 },
      { date: '2024-12-30', museum: ALPHA, channel: 'Online', district: 'North', visitors: 8, revenue: 80 },
    ];
    const seasons: Season[] = [
      { id: 2, name: 'February', startDate: '2024-02-01', endDate: '2024-02-29' },
      { id: 5, name: 'Year end', startDate: '2024-12-20', endDate: '2024-12-31' },
    ];
    const s = summarize(columnsOf(rows), selectionOf(ALL, { ...NONE, season: [2, 5] }, seasons));
    expect(s.totals).toEqual({ visitors: 118, revenue: 1180, days: 2 });
    // The seasons as the data covers them (to 30 December), each a year earlier.
    expect(s.previous).toEqual({ kind: 'yearEarlier', start: '2023-02-01', end: '2023-12-30', visitors: 107, revenue: 1070, days: 2 });
  });

  it('when years apart are chosen, then each is measured against the year before it; consecutive years stay one run measured before', () => {
    const apart = summary(ALL, { year: [2024, 2026] });
    expect(apart.previous.kind).toBe('before');
    const rows = [...ROWS, { date: '2023-01-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 3, revenue: 3 }];
    const twoApart = summarize(columnsOf(rows), selectionOf(ALL, { ...NONE, year: [2023, 2025] }, SEASONS));
    expect(twoApart.previous).toMatchObject({ kind: 'yearEarlier', start: '2022-01-01', end: '2024-03-01', visitors: 45, days: 4 });
    const together = summarize(columnsOf(rows), selectionOf(ALL, { ...NONE, year: [2023, 2024] }, SEASONS));
    expect(together.previous).toMatchObject({ kind: 'before', start: '2020-12-31', end: '2022-12-31' });
  });

  it('when the filters narrow the rows, then the year-earlier figures are narrowed the same way', () => {
    const s = summarize(columnsOf(), selectionOf(ALL, { ...NONE, museum: [BETA], season: [1, 2] }, SEASONS));
    expect(s.previous.kind).toBe('yearEarlier');
    expect(s.previous).toMatchObject({ start: '2023-02-01', end: '2024-01-05', visitors: 20, days: 1 });
  });
});

describe('weeks and the day still running', () => {
  const days = [
    { date: '2024-12-23', museum: ALPHA, channel: 'Online', district: 'North', visitors: 0, revenue: 0 },
    { date: '2025-01-04', museum: ALPHA, channel: 'Online', district: 'North', visitors: 1, revenue: 1 },
    { date: '2025-01-05', museum: ALPHA, channel: 'Online', district: 'North', visitors: 2, revenue: 2 },
    { date: '2025-01-06', museum: ALPHA, channel: 'Online', district: 'North', visitors: 4, revenue: 4 },
    { date: '2025-01-12', museum: ALPHA, channel: 'Online', district: 'North', visitors: 8, revenue: 8 },
    { date: '2025-01-19', museum: ALPHA, channel: 'Online', district: 'North', visitors: 0, revenue: 0 },
  ];
  const selection = selectionOf(ALL, { ...NONE, from: parseDay('2024-12-29'), to: parseDay('2025-01-18') }, []);

  it('when weeks are asked without a first day, then they are ISO weeks from Monday', () => {
    const s = summarize(columnsOf(days), selection, { granularity: 'week' });
    expect(s.series.map((p) => [p.label, p.start, p.end, p.visitors])).toEqual([
      ['2024-W52', '2024-12-23', '2024-12-29', 0],
      ['2025-W01', '2024-12-30', '2025-01-05', 3],
      ['2025-W02', '2025-01-06', '2025-01-12', 12],
      ['2025-W03', '2025-01-13', '2025-01-19', 0],
    ]);
  });

  it('when weeks start on Sunday, then each runs Sunday to Saturday and is named by its Sunday', () => {
    const s = summarize(columnsOf(days), selection, { granularity: 'week', weekStart: 'sunday' });
    expect(s.series.map((p) => [p.label, p.start, p.end, p.visitors, p.partial])).toEqual([
      ['2024-12-29', '2024-12-29', '2025-01-04', 1, false],
      ['2025-01-05', '2025-01-05', '2025-01-11', 6, false],
      ['2025-01-12', '2025-01-12', '2025-01-18', 8, false],
    ]);
    expect(s.totals.visitors).toBe(15);
  });

  it('when a bucket reaches today, then it is partial though the rows cover it, as today is not over', () => {
    const s = summarize(columnsOf(days), selection, { granularity: 'week', weekStart: 'sunday', today: parseDay('2025-01-18') });
    expect(s.series.map((p) => p.partial)).toEqual([false, false, true]);
    const after = summarize(columnsOf(days), selection, { granularity: 'week', weekStart: 'sunday', today: parseDay('2025-01-19') });
    expect(after.series.map((p) => p.partial)).toEqual([false, false, false]);
  });
});

describe('the trend a year earlier', () => {
  const rows = [
    { date: '2024-02-28', museum: ALPHA, channel: 'Online', district: 'North', visitors: 1, revenue: 1 },
    { date: '2024-02-29', museum: ALPHA, channel: 'Online', district: 'North', visitors: 2, revenue: 2 },
    { date: '2024-03-04', museum: ALPHA, channel: 'Online', district: 'North', visitors: 4, revenue: 4 },
    { date: '2024-03-05', museum: BETA, channel: 'Online', district: 'North', visitors: 8, revenue: 8 },
    { date: '2025-02-28', museum: ALPHA, channel: 'Online', district: 'North', visitors: 16, revenue: 16 },
    { date: '2025-03-03', museum: ALPHA, channel: 'Online', district: 'North', visitors: 32, revenue: 32 },
    { date: '2025-03-05', museum: ALPHA, channel: 'Online', district: 'North', visitors: 64, revenue: 64.5 },
  ];
  const range = (from: string, to: string, filters: Partial<DataFilters> = {}) => selectionOf(ALL, { ...NONE, ...filters, from: parseDay(from), to: parseDay(to) }, []);

  it('when months are drawn, then each point a year earlier holds the same month, cut to the same days', () => {
    const s = summarize(columnsOf(rows), range('2025-02-28', '2025-03-05'), { granularity: 'month', earlier: true });
    expect(s.earlier).toEqual([
      { start: '2024-02-28', end: '2024-02-28', visitors: 1, revenue: 1 },
      { start: '2024-03-01', end: '2024-03-05', visitors: 12, revenue: 12 },
    ]);
  });

  it('when weeks are drawn, then each point a year earlier is the same week 52 weeks before, weekday for weekday', () => {
    const s = summarize(columnsOf(rows), range('2025-03-03', '2025-03-09', { museum: [ALPHA] }), { granularity: 'week', earlier: true });
    expect(s.series.map((p) => p.visitors)).toEqual([96]);
    // The data runs to 5 March, so the week is covered Monday to Wednesday, and so is its match.
    expect(s.earlier).toEqual([{ start: '2024-03-04', end: '2024-03-06', visitors: 4, revenue: 4 }]);
  });

  it('when days are drawn, then each day meets the same date a year earlier', () => {
    const s = summarize(columnsOf(rows), range('2025-02-28', '2025-03-01'), { granularity: 'day', earlier: true });
    expect(s.earlier?.map((p) => [p.start, p.visitors])).toEqual([
      ['2024-02-28', 1],
      ['2024-03-01', 0],
    ]);
  });

  it('when it is not asked for, then the summary has no earlier series', () => {
    expect(summarize(columnsOf(rows), range('2025-02-28', '2025-03-05')).earlier).toBeUndefined();
  });
});
