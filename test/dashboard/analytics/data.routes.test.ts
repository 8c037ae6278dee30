import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { AnalyticsService } from '../../../src/dashboard/analytics/service';
import type { VisitRow } from '../../../src/dashboard/domain';
import { ALPHA, BETA, EMPTY_SUMMARY, GAMMA, ROWS, dataApp, expectedTotals, exportedRows } from '../fixtures';

const q = encodeURIComponent;
const ROUTES = [
  '/api/dashboard/filters',
  '/api/dashboard/summary',
  '/api/dashboard/compare?a=2024&b=2025',
  '/api/dashboard/export.csv',
  '/api/dashboard/compare.csv?against=year',
];

/**
 * Query strings a viewer allowed only ALPHA might send, with the rows it may then see.
 * Whatever the query, the answer must be ALPHA's rows under the remaining filters.
 */
const ATTEMPTS: { query: string; keep: (r: VisitRow) => boolean }[] = [
  { query: '', keep: () => true },
  { query: `museum=${q(BETA)}`, keep: () => true },
  { query: `museum=${q(BETA)}&museum=${q(GAMMA)}`, keep: () => true },
  { query: `museum=${q(ALPHA)}&museum=${q(BETA)}`, keep: () => true },
  { query: `museum=${q(BETA)}&museum=${q(ALPHA)}`, keep: () => true },
  { query: `museum=${q(ALPHA)}&museum=${q(ALPHA)}`, keep: () => true },
  { query: `museum=${q(`${BETA},${ALPHA}`)}`, keep: () => true },
  { query: `museum=${q(BETA.toLowerCase())}`, keep: () => true },
  { query: `museum=&museum=${q(BETA)}`, keep: () => true },
  { query: `museum=${q(BETA)}&channel=Online`, keep: (r) => r.channel === 'Online' },
  { query: `museum=${q(BETA)}&year=2024`, keep: (r) => r.date.startsWith('2024') },
  { query: `year=2025&district=South&museum=${q(GAMMA)}`, keep: (r) => r.date.startsWith('2025') && r.district === 'South' },
  { query: 'channel=Partner', keep: (r) => r.channel === 'Partner' },
  { query: 'from=2024-01-15&to=2025-01-01', keep: (r) => r.date >= '2024-01-15' && r.date <= '2025-01-01' },
  { query: `from=2024-01-01&to=2024-01-01&museum=${q(BETA)}`, keep: (r) => r.date === '2024-01-01' },
  { query: 'from=2025-01-01', keep: (r) => r.date >= '2025-01-01' },
  { query: 'to=2024-02-01&channel=Online', keep: (r) => r.date <= '2024-02-01' && r.channel === 'Online' },
  { query: 'from=2024-06-01&year=2025', keep: (r) => r.date.startsWith('2025') },
  { query: 'from=2024-01-02&to=2024-12-31&year=2024&district=South', keep: (r) => r.date >= '2024-01-02' && r.date.startsWith('2024') && r.district === 'South' },
];

/** Query strings that are refused outright, whoever sends them. */
const MALFORMED = [
  `museum[]=${q(BETA)}`,
  `museum[0]=${q(BETA)}`,
  `MUSEUM=${q(BETA)}`,
  `allowedMuseums=${q('[]')}`,
  'year=24',
  'year=twenty',
  'year=1800',
  'season=abc',
  'season=0',
  'season=-1',
  `museum=${'x'.repeat(201)}`,
  'from=2024-02-30',
  'from=24-01-01',
  'to=2024-1-5',
  'from=1899-12-31',
  'to=yesterday',
  'from=2025-01-02&to=2025-01-01',
  'from=2024-01-01&from=2024-02-01',
];

function alpha(keep: (r: VisitRow) => boolean) {
  return (r: VisitRow) => r.museum === ALPHA && keep(r);
}

function mentionsOthers(text: string): boolean {
  return text.includes(BETA) || text.includes(GAMMA);
}

/** What a page hands its script in `data-context`, as the browser would read the attribute. */
function contextOf(html: string): { filters?: unknown } {
  const attribute = /data-context="([^"]*)"/.exec(html)?.[1] ?? '{}';
  const named: Record<string, string> = { quot: '"', lt: '<', gt: '>', amp: '&' };
  const text = attribute.replace(/&(?:#(\d+)|(\w+));/g, (_, code: string | undefined, name: string) => (code ? String.fromCharCode(Number(code)) : (named[name] ?? '')));
  return JSON.parse(text) as { filters?: unknown };
}

describe('GET /api/dashboard/summary', () => {
  it('when there is no session, then every data route answers 401', async () => {
    const t = await dataApp();
    for (const path of ROUTES) {
      const res = await t.get(path);
      expect(res.status, path).toBe(401);
      expect(typeof res.body.error).toBe('string');
    }
  });

  it('when the session is an administrator, then every row counts and the shape is complete', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/summary', await t.admin());
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(Object.keys(res.body).sort()).toEqual(['byChannel', 'byDistrict', 'byMuseum', 'granularity', 'monthly', 'previous', 'range', 'series', 'totals']);
    expect(res.body.totals).toEqual({ visitors: 69, revenue: 551.75, days: 8 });
    expect(res.body.byMuseum.map((b: { key: string }) => b.key)).toEqual([ALPHA, BETA, GAMMA]);
    expect(res.body.monthly[0]).toEqual({ month: '2024-01', visitors: 35, revenue: 275.75 });
  });

  it('when filters repeat, then values within one filter add up and different filters narrow', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const res = await t.get(`/api/dashboard/summary?museum=${q(ALPHA)}&museum=${q(BETA)}&channel=Online&year=2024`, admin);
    expect(res.body.totals).toEqual(expectedTotals((r) => r.museum !== GAMMA && r.channel === 'Online' && r.date.startsWith('2024')));
  });

  it('when a season is given, then only its days count and the previous period is reported', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const created = await t.send('post', '/api/seasons', admin).send({ name: 'February', startDate: '2024-02-01', endDate: '2024-02-29' });
    const res = await t.get(`/api/dashboard/summary?season=${created.body.season.id}`, admin);
    expect(res.body.totals).toEqual({ visitors: 10, revenue: 100, days: 2 });
    expect(res.body.previous).toEqual({ kind: 'before', start: '2024-01-03', end: '2024-01-31', visitors: 5, revenue: 25.25, days: 1 });
  });

  it.each(MALFORMED)('when the query is malformed (%s), then 400', async (query) => {
    const t = await dataApp();
    const res = await t.get(`/api/dashboard/summary?${query}`, await t.admin());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
  });

  it('when the query carries lang, then it is accepted and ignored', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/summary?lang=ar', await t.admin());
    expect(res.status).toBe(200);
    expect(res.body.totals.visitors).toBe(69);
  });
});

describe('a viewer restricted to one museum', () => {
  it.each(ATTEMPTS)('when the summary is asked with "$query", then only that museum\'s figures come back', async ({ query, keep }) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(`/api/dashboard/summary?${query}`, viewer);
    expect(res.status).toBe(200);
    expect(mentionsOthers(res.text)).toBe(false);
    expect(res.body.totals).toEqual(expectedTotals(alpha(keep)));
    for (const b of res.body.byMuseum) expect(b.key).toBe(ALPHA);
  });

  it.each(ATTEMPTS)('when the comparison is asked with "$query", then only that museum\'s figures come back', async ({ query, keep }) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(`/api/dashboard/compare?a=2024&b=2025&${query}`, viewer);
    expect(res.status).toBe(200);
    expect(mentionsOthers(res.text)).toBe(false);
    expect(res.body.a.totals).toEqual(expectedTotals(alpha((r) => keep(r) && r.date.startsWith('2024'))));
    expect(res.body.b.totals).toEqual(expectedTotals(alpha((r) => keep(r) && r.date.startsWith('2025'))));
  });

  it.each(ATTEMPTS)('when the export is asked with "$query", then only that museum\'s rows are in the file', async ({ query, keep }) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(`/api/dashboard/export.csv?${query}`, viewer);
    expect(res.status).toBe(200);
    expect(mentionsOthers(res.text)).toBe(false);
    const rows = exportedRows(res.text);
    expect(rows).toHaveLength(ROWS.filter(alpha(keep)).length);
    for (const row of rows) expect(row[1]).toBe(ALPHA);
  });

  it.each(['day', 'week', 'month'])('when the summary is drawn by %s, then every point of the series counts that museum\'s rows only', async (granularity) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(`/api/dashboard/summary?from=2024-01-01&to=2025-12-31&granularity=${granularity}&museum=${q(BETA)}`, viewer);
    expect(res.status).toBe(200);
    expect(res.body.granularity).toBe(granularity);
    const sum = res.body.series.reduce((total: number, p: { visitors: number }) => total + p.visitors, 0);
    expect(sum).toBe(expectedTotals(alpha(() => true)).visitors);
  });

  it.each(['previous', 'year', 'yearWeekday'])('when a range is compared against the %s period, then both sides count that museum\'s rows only, on screen and in the file', async (against) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const query = `from=2025-01-01&to=2025-12-31&against=${against}&museum=${q(GAMMA)}`;
    const res = await t.get(`/api/dashboard/compare?${query}`, viewer);
    expect(res.status).toBe(200);
    const inside = (side: { start: string; end: string }) => alpha((r) => r.date >= side.start && r.date <= side.end);
    expect(res.body.a.totals).toEqual(expectedTotals(inside(res.body.a)));
    expect(res.body.b.totals).toEqual(expectedTotals(inside(res.body.b)));
    const file = await t.get(`/api/dashboard/compare.csv?${query}`, viewer);
    expect(file.status).toBe(200);
    expect(mentionsOthers(file.text)).toBe(false);
    expect(file.text).toContain(ALPHA);
  });

  it.each(MALFORMED)('when a route is asked with the malformed "%s", then 400 and no figures', async (query) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    for (const path of ROUTES.filter((r) => !r.endsWith('/filters'))) {
      const res = await t.get(`${path}${path.includes('?') ? '&' : '?'}${query}`, viewer);
      expect(res.status, path).toBe(400);
      expect(mentionsOthers(res.text)).toBe(false);
    }
  });

  it('when any mix of query parameters is sent to any data route, then no other museum ever shows', async () => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const key = fc.constantFrom('museum', 'channel', 'district', 'year', 'season', 'a', 'b', 'from', 'to', 'granularity', 'against', 'museum[]', 'museum[0]', 'lang', 'Museum');
    const value = fc.oneof(
      fc.constantFrom(ALPHA, BETA, GAMMA, 'Online', 'Partner', 'South', '2024', '2025', 'season:1', '1', '', ' ', BETA.toUpperCase(), '2024-01-01', '2025-03-01'),
      fc.constantFrom('day', 'week', 'month', 'previous', 'year', 'yearWeekday'),
      fc.string({ maxLength: 12 }),
    );
    const route = fc.constantFrom(...ROUTES.map((r) => r.split('?')[0]));
    await fc.assert(
      fc.asyncProperty(route, fc.array(fc.tuple(key, value), { maxLength: 6 }), async (path, pairs) => {
        const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const res = await t.get(`${path}?${query}`, viewer);
        expect([200, 400, 404]).toContain(res.status);
        expect(mentionsOthers(res.text)).toBe(false);
        if (res.status === 200 && path.endsWith('summary')) {
          expect(res.body.totals.visitors).toBeLessThanOrEqual(expectedTotals(alpha(() => true)).visitors);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('when the filters are asked for, then only that museum is offered and the page can say "1 of 3 museums"', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/filters', await t.viewer(JSON.stringify([ALPHA])));
    expect(res.status).toBe(200);
    expect(mentionsOthers(res.text)).toBe(false);
    expect(res.body).toMatchObject({
      museums: [ALPHA],
      channels: ['Box office', 'Online'],
      years: [2024, 2025],
      districts: ['North', 'South'],
      access: { museums: { visible: 1, total: 3 }, channels: { visible: 2, total: 3 }, restricted: true },
    });
  });

  it.each(['/dashboard', '/dashboard/comparison'])('when %s is served, then it carries the filters the API offers that viewer, and no other museum', async (page) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(page, viewer);
    expect(res.status).toBe(200);
    expect(mentionsOthers(res.text)).toBe(false);
    expect(contextOf(res.text).filters).toEqual((await t.get('/api/dashboard/filters', viewer)).body);
  });

  // A read that never answers stands for an engine that stopped: without the page's own short
  // wait for the filters, that request would never end.
  it.each([
    ['fails', () => Promise.reject(new Error('the records stopped answering'))],
    ['never answers', () => new Promise<never>(() => undefined)],
  ])('when the filters\' read %s as the page is served, then the page still opens, without them, for its script to ask', async (_, read) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const stub = vi.spyOn(AnalyticsService.prototype, 'filters').mockImplementationOnce(read);
    try {
      const res = await t.get('/dashboard', viewer);
      expect(res.status).toBe(200);
      expect(contextOf(res.text).filters).toBeUndefined();
    } finally {
      stub.mockRestore();
    }
  });

  it('when the administrator widens the viewer\'s access, then the next answer follows at once', async () => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const [record] = await t.users.list();
    await t.users.update(record.id, { allowedMuseums: JSON.stringify([ALPHA, BETA]) });
    await t.sessions.updateUser(record.id, { allowedMuseums: JSON.stringify([ALPHA, BETA]) });
    const res = await t.get('/api/dashboard/summary', viewer);
    expect(res.body.totals).toEqual(expectedTotals((r) => r.museum !== GAMMA));
  });
});

describe('a viewer restricted to one channel', () => {
  it('when the summary is asked for another channel, then only the allowed channel counts', async () => {
    const t = await dataApp();
    const viewer = await t.viewer('[]', '["Partner"]');
    const res = await t.get('/api/dashboard/summary?channel=Online', viewer);
    expect(res.body.totals).toEqual(expectedTotals((r) => r.channel === 'Partner'));
    expect(res.body.byChannel.map((b: { key: string }) => b.key)).toEqual(['Partner']);
    expect(res.body.byMuseum.map((b: { key: string }) => b.key)).toEqual([GAMMA]);
  });
});

describe.each([
  ['an unreadable museum list', 'not json', '[]'],
  ['an empty museum list text', '', '[]'],
  ['an unreadable channel list', '[]', '{"a":1}'],
])('a viewer with %s (null access)', (_label, museums, channels) => {
  it('when any data route is asked, then the answers are empty', async () => {
    const t = await dataApp();
    const viewer = await t.viewer(museums, channels);
    const filters = await t.get('/api/dashboard/filters', viewer);
    expect(filters.body).toMatchObject({
      museums: [],
      channels: [],
      years: [],
      districts: [],
      access: { museums: { visible: 0, total: 3 }, channels: { visible: 0, total: 3 }, restricted: true },
    });
    const summary = await t.get(`/api/dashboard/summary?museum=${q(ALPHA)}`, viewer);
    expect(summary.body).toEqual(EMPTY_SUMMARY);
    const compare = await t.get('/api/dashboard/compare?a=2024&b=2025', viewer);
    expect(compare.body).toEqual({
      a: { label: '2024', start: '2024-01-01', end: '2024-12-31', totals: { visitors: 0, revenue: 0, days: 0 } },
      b: { label: '2025', start: '2025-01-01', end: '2025-12-31', totals: { visitors: 0, revenue: 0, days: 0 } },
      metrics: {
        visitors: { a: 0, b: 0, change: 0, changePct: null },
        revenue: { a: 0, b: 0, change: 0, changePct: null },
        revenuePerVisitor: { a: 0, b: 0, change: 0, changePct: null },
      },
      byMuseum: [],
      byChannel: [],
    });
    const exported = await t.get('/api/dashboard/export.csv', viewer);
    expect(exported.text).toBe('\uFEFFdate,museum,channel,district,visitors,revenue\r\n');
  });
});

describe('an administrator whose record lists one museum', () => {
  it('when the role is admin, then everything is visible regardless of the lists', async () => {
    const t = await dataApp();
    const admin = await t.viewer(JSON.stringify([ALPHA]), '[]', 'admin');
    const res = await t.get('/api/dashboard/filters', admin);
    expect(res.body.museums).toEqual([ALPHA, BETA, GAMMA]);
    expect(res.body.access).toEqual({ museums: { visible: 3, total: 3 }, channels: { visible: 3, total: 3 }, restricted: false });
  });
});

describe('GET /api/dashboard/filters', () => {
  it('when an administrator asks, then every value and every season is offered', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    await t.send('post', '/api/seasons', admin).send({ name: 'Winter', startDate: '2024-12-01', endDate: '2025-02-28' });
    const res = await t.get('/api/dashboard/filters', admin);
    expect(res.body).toEqual({
      museums: [ALPHA, BETA, GAMMA],
      channels: ['Box office', 'Online', 'Partner'],
      years: [2024, 2025],
      districts: ['North', 'South'],
      seasons: [{ id: 1, name: 'Winter', startDate: '2024-12-01', endDate: '2025-02-28' }],
      today: '2026-01-15',
      presets: {
        last7: { from: '2026-01-08', to: '2026-01-14' },
        last30: { from: '2025-12-16', to: '2026-01-14' },
        last90: { from: '2025-10-17', to: '2026-01-14' },
        monthToDate: { from: '2026-01-01', to: '2026-01-14' },
        quarterToDate: { from: '2026-01-01', to: '2026-01-14' },
        yearToDate: { from: '2026-01-01', to: '2026-01-14' },
        lastYear: { from: '2025-01-01', to: '2025-12-31' },
      },
      access: { museums: { visible: 3, total: 3 }, channels: { visible: 3, total: 3 }, restricted: false },
    });
  });

  it('when today is the first of a month, then the "to date" presets end yesterday in the month before', async () => {
    const t = await dataApp();
    t.clock.set(Date.UTC(2026, 6, 1, 9));
    const { body } = await t.get('/api/dashboard/filters', await t.admin());
    expect(body.today).toBe('2026-07-01');
    expect(body.presets.monthToDate).toEqual({ from: '2026-06-01', to: '2026-06-30' });
    expect(body.presets.quarterToDate).toEqual({ from: '2026-04-01', to: '2026-06-30' });
    expect(body.presets.yearToDate).toEqual({ from: '2026-01-01', to: '2026-06-30' });
  });

  it('when a range is given, then only the years it touches are offered', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/filters?from=2024-12-01&to=2024-12-31', await t.admin());
    expect(res.status).toBe(200);
    expect(res.body.years).toEqual([2024]);
  });

  it.each(['from=2025-01-02&to=2025-01-01', 'from=2025-13-01', 'to=x'])('when the range is malformed (%s), then 400 naming the field', async (query) => {
    const t = await dataApp();
    const res = await t.get(`/api/dashboard/filters?${query}`, await t.admin());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    expect(res.body.details.issues[0].path).toMatch(/^query\.(from|to)$/);
  });

  it('when an unknown query parameter is sent, then 400', async () => {
    const t = await dataApp();
    expect((await t.get('/api/dashboard/filters?museum=x', await t.admin())).status).toBe(400);
  });
});

describe('date ranges', () => {
  it('when from and to are given, then both ends count and the days outside do not', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/summary?from=2024-01-15&to=2025-01-01', await t.admin());
    expect(res.status).toBe(200);
    expect(res.body.range).toEqual({ start: '2024-01-15', end: '2025-01-01' });
    expect(res.body.totals).toEqual(expectedTotals((r) => r.date >= '2024-01-15' && r.date <= '2025-01-01'));
  });

  it('when to comes before from, then 400 with a message on to', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/summary?from=2025-01-02&to=2025-01-01', await t.admin());
    expect(res.status).toBe(400);
    expect(res.body.details.issues).toEqual([{ path: 'query.to', message: 'must not be before from' }]);
  });

  it('when the range lies outside the data, then the summary is empty', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/summary?from=2030-01-01&to=2030-12-31', await t.admin());
    expect(res.body.totals).toEqual({ visitors: 0, revenue: 0, days: 0 });
  });

  it('when a range narrows a comparison, then both sides are cut to it', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/compare?a=2024&b=2025&from=2024-01-02&to=2025-01-01', await t.admin());
    expect(res.body.a.totals).toEqual(expectedTotals((r) => r.date >= '2024-01-02' && r.date.startsWith('2024')));
    expect(res.body.b.totals).toEqual(expectedTotals((r) => r.date === '2025-01-01'));
  });

  it('when a range is exported, then only its rows are in the file', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/export.csv?from=2024-02-01&to=2024-02-03', await t.admin());
    expect(exportedRows(res.text).map((r) => r[0])).toEqual(['2024-02-01', '2024-02-03']);
  });
});

describe('granularity', () => {
  it('when a month is asked without a granularity, then it is drawn by day with every day present', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/summary?from=2024-01-01&to=2024-01-31', await t.admin());
    expect(res.body.granularity).toBe('day');
    expect(res.body.series).toHaveLength(31);
    expect(res.body.series[0]).toEqual({ start: '2024-01-01', end: '2024-01-01', label: '2024-01-01', visitors: 30, revenue: 250.5, partial: false });
    expect(res.body.series[14].visitors).toBe(5);
    expect(res.body.series.every((p: { partial: boolean }) => !p.partial)).toBe(true);
  });

  it('when the range runs a quarter, then weeks are chosen; beyond half a year, months', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    expect((await t.get('/api/dashboard/summary?from=2024-01-01&to=2024-03-31', admin)).body.granularity).toBe('week');
    expect((await t.get('/api/dashboard/summary?from=2024-01-01&to=2024-12-31', admin)).body.granularity).toBe('month');
  });

  it('when weeks cut by the range are asked for, then they are whole ISO weeks flagged partial', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/summary?from=2024-01-10&to=2024-02-03&granularity=week', await t.admin());
    expect(res.status).toBe(200);
    const weeks = res.body.series;
    expect(weeks.map((w: { label: string }) => w.label)).toEqual(['2024-W02', '2024-W03', '2024-W04', '2024-W05']);
    expect(weeks[0]).toMatchObject({ start: '2024-01-08', end: '2024-01-14', partial: true, visitors: 0 });
    expect(weeks[1]).toMatchObject({ start: '2024-01-15', partial: false, visitors: 5 });
    expect(weeks[3]).toMatchObject({ start: '2024-01-29', end: '2024-02-04', partial: true, visitors: 10, revenue: 100 });
  });

  it('when the data ends inside the last month, then that month is partial, not a fall', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/summary?year=2025&granularity=month', await t.admin());
    expect(res.body.series.map((m: { label: string; partial: boolean }) => [m.label, m.partial])).toEqual([
      ['2025-01', false],
      ['2025-02', false],
      ['2025-03', true],
    ]);
  });

  it('when the series is by day, week or month, then its sums equal the totals', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    for (const unit of ['day', 'week', 'month']) {
      const { body } = await t.get(`/api/dashboard/summary?from=2024-01-02&to=2025-02-20&granularity=${unit}`, admin);
      const sum = body.series.reduce((n: number, p: { visitors: number }) => n + p.visitors, 0);
      expect(sum, unit).toBe(body.totals.visitors);
    }
  });

  it.each(['granularity=year', 'granularity=', 'granularity=day&granularity=week'])('when the granularity is malformed (%s), then 400', async (query) => {
    const t = await dataApp();
    expect((await t.get(`/api/dashboard/summary?${query}`, await t.admin())).status).toBe(400);
  });

  it.each(['day', 'week', 'month'])('when a viewer restricted to one museum asks by %s, then the series holds only its rows', async (unit) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(`/api/dashboard/summary?granularity=${unit}&from=2024-01-01&to=2025-03-01&museum=${q(BETA)}`, viewer);
    expect(mentionsOthers(res.text)).toBe(false);
    const sum = res.body.series.reduce((n: number, p: { visitors: number }) => n + p.visitors, 0);
    expect(sum).toBe(expectedTotals(alpha(() => true)).visitors);
    expect(res.body.range).toEqual({ start: '2024-01-01', end: '2025-02-10' });
  });
});

describe('export file names and the comparison table', () => {
  it('when a range is exported, then the file is named from its dates', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/export.csv?from=2025-01-01&to=2025-03-31', await t.admin());
    expect(res.headers['content-disposition']).toBe('attachment; filename=visits_2025-01-01_2025-03-31.csv');
  });

  it('when a year is exported, then the name holds the year\'s first and last day; with no dates, the data\'s', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    expect((await t.get('/api/dashboard/export.csv?year=2024', admin)).headers['content-disposition']).toContain('visits_2024-01-01_2024-12-31.csv');
    expect((await t.get('/api/dashboard/export.csv', admin)).headers['content-disposition']).toContain('visits_2024-01-01_2025-03-01.csv');
  });

  it('when museums, channels or districts are chosen, then the name carries them (more than two by count), and never one the viewer may not see', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const nameOf = async (query: string, session = admin) => (await t.get(`/api/dashboard/export.csv?year=2024&${query}`, session)).headers['content-disposition'];
    expect(await nameOf(`museum=${q(ALPHA)}&channel=Online`)).toContain(`visits_2024-01-01_2024-12-31_${ALPHA.replace(/ /g, '-')}_Online.csv`);
    expect(await nameOf(`museum=${q(ALPHA)}&museum=${q(BETA)}&museum=${q(GAMMA)}&district=South`)).toContain('visits_2024-01-01_2024-12-31_3-museums_South.csv');
    // Separators and punctuation never reach the name: only letters and digits, any script.
    expect(await nameOf(`museum=${q('/../etc')}&channel=${q('***')}`)).toContain('visits_2024-01-01_2024-12-31_etc.csv');
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const asViewer = await nameOf(`museum=${q(BETA)}`, viewer);
    expect(asViewer).toContain('visits_2024-01-01_2024-12-31.csv');
    expect(mentionsOthers(asViewer)).toBe(false);
  });

  it('when the comparison is exported, then totals, museums and channels come under both ranges', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/compare.csv?a=2024&b=2025', await t.admin());
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename=comparison_2024-01-01_2024-12-31_vs_2025-01-01_2025-12-31.csv');
    const lines = res.text.split('\r\n');
    expect(lines[0]).toBe('\uFEFFsection,key,unit,2024-01-01..2024-12-31,2025-01-01..2025-12-31,change,change_pct');
    expect(lines[1]).toBe('total,visitors,visitors,45,24,-21,-46.7');
    expect(lines[2]).toMatch(/^total,revenue,QAR,/);
    expect(lines[3]).toMatch(/^total,revenuePerVisitor,QAR,/);
    expect(lines).toContain(`museum,${GAMMA},visitors,0,4,4,`);
    expect(lines).toContain(`museum,${GAMMA},QAR,0,16,16,`);
    expect(lines).toContain(`museum,${ALPHA},QAR,195.25,160,-35.25,-18.1`);
    expect(lines).toContain('channel,Online,QAR,320.5,120,-200.5,-62.6');
  });

  it('when museums, channels or districts are chosen for the comparison export, then its name carries them after both ranges (more than two by count)', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const nameOf = async (query: string) => (await t.get(`/api/dashboard/compare.csv?against=year&from=2025-01-01&to=2025-03-31&${query}`, admin)).headers['content-disposition'];
    const ranges = 'comparison_2024-01-01_2024-03-31_vs_2025-01-01_2025-03-31';
    expect(await nameOf(`museum=${q(ALPHA)}&channel=Online`)).toBe(`attachment; filename=${ranges}_${ALPHA.replace(/ /g, '-')}_Online.csv`);
    expect(await nameOf(`museum=${q(ALPHA)}&museum=${q(BETA)}&museum=${q(GAMMA)}&district=South`)).toBe(`attachment; filename=${ranges}_3-museums_South.csv`);
    expect(await nameOf('')).toBe(`attachment; filename=${ranges}.csv`);
  });

  it('when a viewer restricted to one museum names another in the comparison export, then that museum is not in the file name', async () => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(`/api/dashboard/compare.csv?a=2024&b=2025&museum=${q(BETA)}&channel=Online`, viewer);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename=comparison_2024-01-01_2024-12-31_vs_2025-01-01_2025-12-31_Online.csv');
    expect(mentionsOthers(res.headers['content-disposition'])).toBe(false);
  });

  it('when a year still running is exported against the last, then the file names its days to yesterday, as the page does, while the answer keeps the whole year', async () => {
    const t = await dataApp([
      { date: '2025-06-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 10, revenue: 100 },
      { date: '2026-06-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 12, revenue: 120 },
    ]);
    t.clock.set(Date.UTC(2026, 10, 25, 12));
    const admin = await t.admin();
    const file = await t.get('/api/dashboard/compare.csv?a=2025&b=2026', admin);
    expect(file.headers['content-disposition']).toBe('attachment; filename=comparison_2025-01-01_2025-12-31_vs_2026-01-01_2026-11-24.csv');
    expect(file.text.split('\r\n')[0]).toBe('\uFEFFsection,key,unit,2025-01-01..2025-12-31,2026-01-01..2026-11-24,change,change_pct');
    const answer = await t.get('/api/dashboard/compare?a=2025&b=2026', admin);
    expect(answer.body.b).toMatchObject({ start: '2026-01-01', end: '2026-12-31' });
  });

  it('when a side lies wholly after yesterday, then the file keeps its dates whole', async () => {
    const t = await dataApp([{ date: '2025-06-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 10, revenue: 100 }]);
    t.clock.set(Date.UTC(2026, 10, 25, 12));
    const file = await t.get('/api/dashboard/compare.csv?a=2025&b=2027', await t.admin());
    expect(file.text.split('\r\n')[0]).toBe('\uFEFFsection,key,unit,2025-01-01..2025-12-31,2027-01-01..2027-12-31,change,change_pct');
  });

  it.each(['previous', 'year', 'yearWeekday'])('when a viewer restricted to one museum exports the comparison against %s, then no other museum is in it', async (against) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(`/api/dashboard/compare.csv?against=${against}&from=2025-01-01&to=2025-03-01&museum=${q(GAMMA)}`, viewer);
    expect(res.status).toBe(200);
    expect(mentionsOthers(res.text)).toBe(false);
    expect(res.text).toContain(`museum,${ALPHA},visitors,`);
  });

  it('when the dashboard counts in euros (DASHBOARD_CURRENCY=EUR), then the exported comparison says so on its money lines', async () => {
    const t = await dataApp(ROWS, { DASHBOARD_CURRENCY: 'EUR' });
    const lines = (await t.get('/api/dashboard/compare.csv?a=2024&b=2025', await t.admin())).text.split('\r\n');
    expect(lines.filter((l) => l.startsWith('total,')).map((l) => l.split(',')[2])).toEqual(['visitors', 'EUR', 'EUR']);
  });

  it('when amounts in units would leave binary noise, then the file writes money to the cent and percentages to one decimal', async () => {
    const t = await dataApp([
      { date: '2025-03-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 1_648_461, revenue: 60_992_416 },
      { date: '2026-03-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 1_730_106, revenue: 64_072_813.01 },
    ]);
    const lines = (await t.get('/api/dashboard/compare.csv?a=2025&b=2026', await t.admin())).text.split('\r\n');
    expect(lines.slice(1, 5)).toEqual([
      'total,visitors,visitors,1648461,1730106,81645,5',
      'total,revenue,QAR,60992416,64072813.01,3080397.01,5.1',
      'total,revenuePerVisitor,QAR,37,37.03,0.03,0.1',
      `museum,${ALPHA},visitors,1648461,1730106,81645,5`,
    ]);
    expect(lines[5]).toBe(`museum,${ALPHA},QAR,60992416,64072813.01,3080397.01,5.1`);
  });

  it('when a change is a fall under a twentieth of a percent, then its percentage is written 0, not -0', async () => {
    const t = await dataApp([
      { date: '2025-03-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 10_001, revenue: 10 },
      { date: '2026-03-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 10_000, revenue: 10 },
    ]);
    const lines = (await t.get('/api/dashboard/compare.csv?a=2025&b=2026', await t.admin())).text.split('\r\n');
    expect(lines[1]).toBe('total,visitors,visitors,10001,10000,-1,0');
  });

  it('when the comparison export is malformed, then 400', async () => {
    const t = await dataApp();
    expect((await t.get('/api/dashboard/compare.csv?a=2024', await t.admin())).status).toBe(400);
  });
});

describe('GET /api/dashboard/compare', () => {
  it('when two years are compared, then both sides and the changes come back', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/compare?a=2024&b=2025', await t.admin());
    expect(res.status).toBe(200);
    expect(res.body.a).toEqual({ label: '2024', start: '2024-01-01', end: '2024-12-31', totals: { visitors: 45, revenue: 375.75, days: 4 } });
    expect(res.body.b).toEqual({ label: '2025', start: '2025-01-01', end: '2025-12-31', totals: { visitors: 24, revenue: 176, days: 4 } });
    expect(res.body.metrics.visitors).toEqual({ a: 45, b: 24, change: -21, changePct: ((24 - 45) / 45) * 100 });
    expect(res.body.metrics.revenue).toEqual({ a: 375.75, b: 176, change: 176 - 375.75, changePct: ((176 - 375.75) / 375.75) * 100 });
    expect(res.body.metrics.revenuePerVisitor).toMatchObject({ a: 8.35, b: 7.33 });
    expect(res.body.byMuseum[2]).toEqual({ key: GAMMA, a: 0, b: 4, change: 4, changePct: null, revenue: { a: 0, b: 16, change: 16, changePct: null } });
    expect(res.body.byChannel[0]).toEqual({ key: 'Box office', a: 8, b: 8, change: 0, changePct: 0, revenue: { a: 55.25, b: 40, change: -15.25, changePct: ((40 - 55.25) / 55.25) * 100 } });
  });

  it('when amounts in units would leave binary noise, then the money changes come back to the cent', async () => {
    const t = await dataApp([
      { date: '2025-03-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 1_648_461, revenue: 60_992_416 },
      { date: '2026-03-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 1_730_106, revenue: 64_072_813.01 },
    ]);
    const res = await t.get('/api/dashboard/compare?a=2025&b=2026', await t.admin());
    expect(res.body.metrics.revenue).toMatchObject({ a: 60_992_416, b: 64_072_813.01, change: 3_080_397.01 });
    expect(res.body.metrics.revenuePerVisitor).toMatchObject({ a: 37, b: 37.03, change: 0.03 });
  });

  it('when a side is a season, then it is labelled with the season name', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const { body } = await t.send('post', '/api/seasons', admin).send({ name: 'February 2024', startDate: '2024-02-01', endDate: '2024-02-29' });
    const res = await t.get(`/api/dashboard/compare?a=season:${body.season.id}&b=2025`, admin);
    expect(res.body.a).toEqual({ label: 'February 2024', start: '2024-02-01', end: '2024-02-29', totals: { visitors: 10, revenue: 100, days: 2 } });
  });

  it('when a side names an unknown season, then 404', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/compare?a=season:42&b=2025', await t.admin());
    expect(res.status).toBe(404);
  });

  it('when a range is compared with the same dates a year earlier, then both ranges and all three figures come back', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/compare?from=2025-01-01&to=2025-03-01&against=year', await t.admin());
    expect(res.status).toBe(200);
    expect(res.body.a).toMatchObject({ start: '2024-01-01', end: '2024-03-01', totals: expectedTotals((r) => r.date <= '2024-03-01') });
    expect(res.body.b).toMatchObject({ start: '2025-01-01', end: '2025-03-01', totals: expectedTotals((r) => r.date >= '2025-01-01') });
    expect(Object.keys(res.body.metrics)).toEqual(['visitors', 'revenue', 'revenuePerVisitor']);
  });

  it('when the previous period is asked, then it has the same length and ends the day before', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/compare?from=2024-02-01&to=2024-02-29&against=previous', await t.admin());
    expect(res.body.a).toMatchObject({ start: '2024-01-03', end: '2024-01-31', totals: expectedTotals((r) => r.date === '2024-01-15') });
  });

  it('when the weekday-aligned year is asked, then the earlier side starts 52 weeks before, on the same weekday', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/compare?from=2025-01-02&to=2025-01-02&against=yearWeekday', await t.admin());
    expect(res.body.a).toMatchObject({ start: '2024-01-04', end: '2024-01-04' });
  });

  it('when a leap day is compared with a year earlier, then it meets the 28th of February', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/compare?from=2024-02-29&to=2024-02-29&against=year', await t.admin());
    expect(res.body.a).toMatchObject({ start: '2023-02-28', end: '2023-02-28' });
  });

  it('when only "against" is given, then year to date meets the same days of last year (the clock says 2026-01-15)', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/compare?against=year', await t.admin());
    expect(res.body.a).toMatchObject({ start: '2025-01-01', end: '2025-01-14', totals: expectedTotals((r) => r.date >= '2025-01-01' && r.date <= '2025-01-14') });
    expect(res.body.b).toMatchObject({ start: '2026-01-01', end: '2026-01-14' });
  });

  it.each(['previous', 'year', 'yearWeekday'])('when a viewer restricted to one museum compares against %s, then only that museum counts', async (against) => {
    const t = await dataApp();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const res = await t.get(`/api/dashboard/compare?from=2025-01-01&to=2025-03-01&against=${against}&museum=${q(BETA)}`, viewer);
    expect(res.status).toBe(200);
    expect(mentionsOthers(res.text)).toBe(false);
    expect(res.body.b.totals).toEqual(expectedTotals(alpha((r) => r.date >= '2025-01-01')));
  });

  it.each(['', 'a=2024', 'b=2024', 'a=2024&b=x', 'a=2024&b=2025&against=year', 'against=month', 'a=2024&against=previous', 'against=year&from=2025-02-01&to=2025-01-01', 'a=season:x&b=2024', 'a=2024&a=2025&b=2024', 'a=season:&b=2024'])(
    'when the sides are missing or malformed (%s), then 400',
    async (query) => {
      const t = await dataApp();
      expect((await t.get(`/api/dashboard/compare?${query}`, await t.admin())).status).toBe(400);
    },
  );
});

describe('GET /api/dashboard/export.csv', () => {
  it('when an administrator exports, then every row comes as an attachment with the fixed header', async () => {
    const t = await dataApp();
    const res = await t.get('/api/dashboard/export.csv', await t.admin());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/^attachment/);
    expect(res.text.split('\r\n')[0]).toBe('\uFEFFdate,museum,channel,district,visitors,revenue');
    expect(exportedRows(res.text)).toHaveLength(ROWS.length);
    expect(exportedRows(res.text)[0]).toEqual(['2024-01-01', ALPHA, 'Online', 'North', '10', '100']);
  });

  it('when a stored cell begins like a formula, then the exported cell is neutralised', async () => {
    const t = await dataApp([
      { date: '2024-01-01', museum: '=cmd|"/c calc"!A1', channel: '+Online', district: '@North', visitors: 1, revenue: 2 },
      { date: '2024-01-02', museum: '-Museum', channel: '\tTab', district: 'Plain', visitors: 3, revenue: 4.5 },
    ]);
    const res = await t.get('/api/dashboard/export.csv', await t.admin());
    const lines = res.text.split('\r\n');
    expect(lines[1]).toBe(`2024-01-01,"'=cmd|""/c calc""!A1",'+Online,'@North,1,2`);
    expect(lines[2]).toBe("2024-01-02,'-Museum,'\tTab,Plain,3,4.5");
  });

  it('when a stored cell has spaces or tabs before a formula sign, then the visits and comparison exports neutralise it too', async () => {
    const t = await dataApp([
      { date: '2024-01-01', museum: '  =cmd|"/c calc"!A1', channel: '\t+Online', district: ' \t@North', visitors: 1, revenue: 2 },
      { date: '2025-01-01', museum: '  =cmd|"/c calc"!A1', channel: '\t+Online', district: ' \t@North', visitors: 3, revenue: 4 },
    ]);
    const admin = await t.admin();
    const visits = (await t.get('/api/dashboard/export.csv', admin)).text.split('\r\n');
    expect(visits[1]).toBe(`2024-01-01,"'  =cmd|""/c calc""!A1",'\t+Online,' \t@North,1,2`);
    const comparison = (await t.get('/api/dashboard/compare.csv?a=2024&b=2025', admin)).text.split('\r\n');
    expect(comparison).toContain(`museum,"'  =cmd|""/c calc""!A1",visitors,1,3,2,200`);
    expect(comparison).toContain("channel,'\t+Online,visitors,1,3,2,200");
  });
});
