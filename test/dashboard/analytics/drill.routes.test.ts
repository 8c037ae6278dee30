import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { VisitRow } from '../../../src/dashboard/domain';
import { dataApp, expectedTotals } from '../fixtures';

/** The page's drill-down, as the browser runs it (public/js/dashboard/drill.js), loaded as it is. */
interface DrillModule {
  effective(params: URLSearchParams): URLSearchParams;
  withSteps(base: URLSearchParams, steps: readonly Step[]): URLSearchParams;
  periodStep(point: { start: string; end: string }, shown: { start: string; end: string } | null): Step;
}
type Step = { kind: 'museum' | 'channel' | 'district'; value: string } | { kind: 'range'; from: string; to: string };
const DRILL_JS = '../../../public/js/dashboard/drill.js';

const MUSEUMS = ['National Museum', 'متحف الفن', 'Maritime Museum', 'Heritage Village'];
const CHANNELS = ['Online', 'Box office'];
const DISTRICTS = ['Old Town', 'Bay'];

/** Every day from 1 November 2024 to 31 March 2025, for every museum, channel and district, with figures that differ. */
function rows(): VisitRow[] {
  const out: VisitRow[] = [];
  for (let day = Date.UTC(2024, 10, 1), n = 0; day <= Date.UTC(2025, 2, 31); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    for (const museum of MUSEUMS) {
      for (const channel of CHANNELS) {
        for (const district of DISTRICTS) {
          n += 1;
          out.push({ date, museum, channel, district, visitors: (n * 7919) % 53, revenue: ((n * 104_729) % 9_973) / 100 });
        }
      }
    }
  }
  return out;
}

interface Summary {
  range: { start: string; end: string } | null;
  totals: { visitors: number; revenue: number; days: number };
  series: { start: string; end: string; visitors: number; revenue: number }[];
  byMuseum: { key: string; visitors: number; revenue: number }[];
  byChannel: { key: string; visitors: number; revenue: number }[];
  byDistrict: { key: string; visitors: number; revenue: number }[];
}

const BREAKDOWN = { museum: 'byMuseum', channel: 'byChannel', district: 'byDistrict' } as const;

/** The rows an effective query keeps, by plain comparison: the oracle. */
function keeps(params: URLSearchParams, access: readonly string[] | 'all'): (r: VisitRow) => boolean {
  return (r) => {
    const allowed = (name: string, value: string) => {
      const wanted = params.getAll(name);
      return wanted.length === 0 || wanted.includes(value);
    };
    const museums = params.getAll('museum').filter((m) => access === 'all' || access.includes(m));
    const museumOk = (access === 'all' || access.includes(r.museum)) && (museums.length === 0 || museums.includes(r.museum));
    const years = params.getAll('year');
    return (
      museumOk &&
      allowed('channel', r.channel) &&
      allowed('district', r.district) &&
      (years.length === 0 || years.includes(r.date.slice(0, 4))) &&
      (!params.get('from') || r.date >= params.get('from')!) &&
      (!params.get('to') || r.date <= params.get('to')!)
    );
  };
}

describe('drill-down figures', () => {
  const data = rows();
  let drill: DrillModule;

  beforeAll(async () => {
    drill = (await import(DRILL_JS)) as DrillModule;
  });

  /** An app holding the rows, its administrator and a viewer of two museums. */
  async function app() {
    const t = await dataApp(data);
    return { t, admin: await t.admin(), viewer: await t.viewer(JSON.stringify([MUSEUMS[0], MUSEUMS[1]])) };
  }

  const summaryOf = async (t: Awaited<ReturnType<typeof dataApp>>, params: URLSearchParams, cookie: string): Promise<Summary> => {
    const res = await t.get(`/api/dashboard/summary?${params}`, cookie);
    expect(res.status, `${params} ${JSON.stringify(res.body)}`).toBe(200);
    return res.body as Summary;
  };

  const selection = fc.record({
    museums: fc.subarray(MUSEUMS),
    channels: fc.subarray(CHANNELS, { maxLength: 1 }),
    dates: fc.oneof(
      fc.constant({}),
      fc.constant({ year: '2025' }),
      fc.record({ from: fc.constantFrom('2024-11-01', '2024-11-18', '2025-01-01'), to: fc.constantFrom('2025-01-20', '2025-02-28', '2025-03-31') }),
    ),
    granularity: fc.constantFrom(undefined, 'day', 'week', 'month'),
  });
  const action = fc.oneof(
    fc.record({ kind: fc.constantFrom('museum' as const, 'channel' as const, 'district' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('point' as const), pick: fc.nat() }),
  );

  it('when bars, rows and points are drilled into in any order, then each drilled summary equals the figure clicked and the rows filtered the same way', async () => {
    const { t, admin, viewer } = await app();
    await fc.assert(
      fc.asyncProperty(selection, fc.array(action, { minLength: 1, maxLength: 4 }), fc.boolean(), async (chosen, actions, asViewer) => {
        const cookie = asViewer ? viewer : admin;
        const access = asViewer ? [MUSEUMS[0], MUSEUMS[1]] : ('all' as const);
        const base = new URLSearchParams();
        for (const m of chosen.museums) base.append('museum', m);
        for (const c of chosen.channels) base.append('channel', c);
        for (const [k, v] of Object.entries(chosen.dates)) base.set(k, v);
        if (chosen.granularity) base.set('granularity', chosen.granularity);
        const steps: Step[] = [];
        let parent = await summaryOf(t, drill.effective(base), cookie);
        for (const act of actions) {
          let clicked: { visitors: number; revenue: number };
          if (act.kind === 'point') {
            if (parent.series.length === 0) break;
            const point = parent.series[act.pick % parent.series.length];
            clicked = point;
            steps.push(drill.periodStep(point, parent.range));
          } else {
            const bars = parent[BREAKDOWN[act.kind]];
            if (bars.length === 0) break;
            const bar = bars[act.pick % bars.length];
            clicked = bar;
            steps.push({ kind: act.kind, value: bar.key });
          }
          const query = drill.effective(drill.withSteps(base, steps));
          const child = await summaryOf(t, query, cookie);
          expect(child.totals.visitors, `${query}`).toBe(clicked.visitors);
          expect(child.totals.revenue, `${query}`).toBeCloseTo(clicked.revenue, 2);
          expect(child.totals).toEqual(expectedTotals(keeps(query, access), data));
          parent = child;
        }
      }),
      { numRuns: 40 },
    );
  });

  it('when a viewer drills into a museum they may not see (a step written into the address), then nothing widens: the figures stay theirs', async () => {
    const { t, viewer } = await app();
    const query = drill.effective(drill.withSteps(new URLSearchParams(), [{ kind: 'museum', value: MUSEUMS[2] }]));
    const drilled = await summaryOf(t, query, viewer);
    expect(drilled.totals).toEqual(expectedTotals((r) => r.museum === MUSEUMS[0] || r.museum === MUSEUMS[1], data));
    expect(drilled.byMuseum.map((b) => b.key).sort()).toEqual([MUSEUMS[0], MUSEUMS[1]].sort());
  });
});
