import { request } from '../support/http';
import type { VisitRow } from '../../src/dashboard/domain';
import { ColumnsBuilder } from '../../src/dashboard/analytics/builder';
import type { VisitColumns } from '../../src/dashboard/analytics/store';
import { SqlVisitRepository } from '../../src/dashboard/visits/repository';
import { buildApp, cookieFrom } from '../support/app';

export const ALPHA = 'Alpha Museum';
export const BETA = 'Beta Museum';
export const GAMMA = 'Gamma Museum';

/**
 * A small data set whose figures are worked out by hand in the tests:
 * all rows 69 visitors, 551.75 revenue, 8 distinct dates, 2024-01-01 to 2025-03-01.
 */
export const ROWS: VisitRow[] = [
  { date: '2024-01-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 10, revenue: 100 },
  { date: '2024-01-01', museum: BETA, channel: 'Online', district: 'South', visitors: 20, revenue: 150.5 },
  { date: '2024-01-15', museum: ALPHA, channel: 'Box office', district: 'South', visitors: 5, revenue: 25.25 },
  { date: '2024-02-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 7, revenue: 70 },
  { date: '2024-02-03', museum: BETA, channel: 'Box office', district: 'North', visitors: 3, revenue: 30 },
  { date: '2025-01-01', museum: ALPHA, channel: 'Online', district: 'North', visitors: 12, revenue: 120 },
  { date: '2025-01-02', museum: BETA, channel: 'Online', district: 'South', visitors: 0, revenue: 0 },
  { date: '2025-02-10', museum: ALPHA, channel: 'Box office', district: 'South', visitors: 8, revenue: 40 },
  { date: '2025-03-01', museum: GAMMA, channel: 'Partner', district: 'North', visitors: 4, revenue: 16 },
];

/** What the summary answers when no row counts. */
export const EMPTY_SUMMARY = {
  range: null,
  totals: { visitors: 0, revenue: 0, days: 0 },
  previous: { kind: 'before', start: null, end: null, visitors: 0, revenue: 0, days: 0 },
  monthly: [],
  granularity: 'day',
  series: [],
  byMuseum: [],
  byChannel: [],
  byDistrict: [],
};

export function columnsOf(rows: readonly VisitRow[] = ROWS): VisitColumns {
  const builder = new ColumnsBuilder();
  for (const row of rows) builder.add(row);
  return builder.finish();
}

/** The oracle the routes are held to: plain sums over the rows a predicate keeps. */
export function expectedTotals(keep: (row: VisitRow) => boolean, rows: readonly VisitRow[] = ROWS) {
  const kept = rows.filter(keep);
  return {
    visitors: kept.reduce((sum, r) => sum + r.visitors, 0),
    revenue: Math.round(kept.reduce((sum, r) => sum + r.revenue * 100, 0)) / 100,
    days: new Set(kept.map((r) => r.date)).size,
  };
}

export function csvOf(rows: readonly VisitRow[]): string {
  const lines = rows.map((r) => [r.date, r.museum, r.channel, r.district, r.visitors, r.revenue].join(','));
  return ['date,museum,channel,district,visitors,revenue', ...lines].join('\n') + '\n';
}

let nextPin = 100_000;

/**
 * An app whose dashboard store holds `rows`, with helpers to sign in. Writes carry
 * `Sec-Fetch-Site: same-origin`, as the server's own pages send it.
 */
export async function dataApp(rows: readonly VisitRow[] = ROWS, env: Record<string, string> = {}) {
  const t = await buildApp({ env });
  await new SqlVisitRepository(t.stores.records.dashboard).upsert(rows);

  async function signIn(pin: string): Promise<string> {
    const res = await request(t.app).post('/auth/login').send({ pin });
    if (res.status !== 200) throw new Error(`sign-in with ${pin} answered ${res.status}`);
    return `service_session=${cookieFrom(res, 'service_session')}`;
  }

  return {
    ...t,
    signIn,
    admin: () => signIn('999999'),
    /** Signs in a new viewer whose record holds these access texts (undefined = field absent). */
    async viewer(allowedMuseums: string | undefined, allowedChannels: string | undefined = '[]', role = 'viewer') {
      const pin = String((nextPin += 1));
      await t.users.create({ name: `Viewer ${pin}`, pin, role, allowedMuseums, allowedChannels });
      return signIn(pin);
    },
    get(path: string, cookie?: string) {
      const req = request(t.app).get(path);
      return cookie ? req.set('Cookie', cookie) : req;
    },
    send(method: 'post' | 'patch' | 'delete', path: string, cookie?: string) {
      const req = request(t.app)[method](path).set('Sec-Fetch-Site', 'same-origin');
      return cookie ? req.set('Cookie', cookie) : req;
    },
  };
}

/** Rows of an exported CSV, header left out. */
export function exportedRows(text: string): string[][] {
  return text
    .split('\r\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}
