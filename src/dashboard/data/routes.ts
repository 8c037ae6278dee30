import { actorOf, type AuditTrail } from '../audit/service';
import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { sendExcelCsv } from '../downloads';
import { sendComparisonXlsx, sendVisitsXlsx, type SheetLanguage } from './excel';
import { requestLanguage } from '../../platform/i18n';
import type { i18n } from 'i18next';
import { singleLine } from '../../platform/text';
import { idParam, validated } from '../../platform/validate';
import { requireDashboardAdmin } from '../auth/middleware';
import type { DashboardSession } from '../auth/session-store';
import type { SavedViewsService } from '../views/service';
import type { ViewRequest } from '../views/address';
import { AGAINST, GRANULARITIES, WEEK_STARTS, type Granularity } from './dates';
import { filterFields, filtersOf, isoDate, orderedRange, period, rangeFields, viewId } from './query';
import type { DashboardDataService } from './service';
import { currentImport, receiveCsv } from './upload';

/** Filters, or a saved view (`view=<id>`) that holds them: never both. */
const withoutFilters = (q: { view?: number; museum: string[]; channel: string[]; district: string[]; year: number[]; season: number[]; from?: number; to?: number }) =>
  q.view === undefined || (q.museum.length + q.channel.length + q.district.length + q.year.length + q.season.length === 0 && q.from === undefined && q.to === undefined);
const viewAlone = { message: 'a saved view holds its own filters: give view alone, or the filters', path: ['view'] };

const filtersQuery = orderedRange(z.strictObject({ ...filterFields, view: viewId.optional() }).refine(withoutFilters, viewAlone));
/**
 * Weeks are ISO weeks (from Monday) unless `weekStart=sunday`, as Arabic pages ask;
 * `earlier=year` adds the trend's points a year before.
 */
const summaryQuery = orderedRange(
  z
    .strictObject({
      ...filterFields,
      view: viewId.optional(),
      granularity: z.enum(GRANULARITIES).optional(),
      weekStart: z.enum(WEEK_STARTS).optional(),
      earlier: z.literal('year').optional(),
    })
    .refine(withoutFilters, viewAlone)
    .refine((q) => q.view === undefined || q.granularity === undefined, { message: 'a saved view holds its own grouping', path: ['granularity'] }),
);

/** Either two named sides (`a`, `b`), or `against` an earlier period for the from/to range (year to date when absent), or a saved view. */
const compareQuery = orderedRange(
  z
    .strictObject({ ...filterFields, view: viewId.optional(), a: period.optional(), b: period.optional(), against: z.enum(AGAINST).optional() })
    .refine(withoutFilters, viewAlone)
    .refine((q) => (q.view !== undefined ? q.a === undefined && q.b === undefined && q.against === undefined : q.against ? q.a === undefined && q.b === undefined : q.a !== undefined && q.b !== undefined), {
      message: 'give both a and b, or against (previous, year or yearWeekday) without them, or a saved view alone',
      path: ['against'],
    }),
);
const optionsQuery = orderedRange(z.strictObject({ ...rangeFields, lang: z.string().optional() }));

const seasonName = singleLine(200);
const seasonBody = z.strictObject({ name: seasonName, startDate: isoDate, endDate: isoDate });
const seasonPatch = z
  .strictObject({ name: seasonName.optional(), startDate: isoDate.optional(), endDate: isoDate.optional() })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

/** Mounted behind the dashboard session, so there always is one here. */
function viewer(req: Request): DashboardSession {
  return req.dashboard!.session;
}

/** Query parameters that say how figures are shown, not which: left out of the record of an export. */
const PRESENTATION = new Set(['lang', 'granularity', 'weekStart', 'earlier']);

/**
 * Who exported which figures, and when: the filters as the request named them (or the saved
 * view it named), and the file it got. Recorded before the file is sent, so an export cut
 * short still counts.
 */
export async function recordExport(trail: AuditTrail, req: Request, target: 'visits' | 'comparison', format: 'csv' | 'xlsx', fileName: string): Promise<void> {
  const filters = Object.fromEntries(Object.entries(req.query).filter(([name, value]) => !PRESENTATION.has(name) && value !== '' && value !== undefined));
  await trail.record(actorOf(req), 'dataExported', { target, targetName: fileName, after: { format, ...filters } });
}

/** Figures differ per user: never kept by a shared cache. */
const privateAnswer: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'private, no-store');
  next();
};

/** The filters and cut a request asks for, or that the saved view it names holds. */
type Asked = ViewRequest;

/** Where a data route finds a saved view's address: the views service, under the reader's own access. */
export type ViewLookup = Pick<SavedViewsService, 'request'>;

/** `/api/dashboard`: the data each session may see; `currency` names the unit of revenue in exports, `i18n` labels the Excel files. */
export function dashboardDataRoutes(data: DashboardDataService, trail: AuditTrail, currency: string, views: ViewLookup, i18n: i18n) {
  const router = Router();
  router.use(privateAnswer);

  // An Excel file's sheets are labelled, and run right to left, in the language of the page that asks (`lang`, else its cookie).
  const sheetLanguage = (req: Request): SheetLanguage => {
    const lang = requestLanguage(req);
    return { t: i18n.getFixedT(lang), rtl: lang === 'ar' };
  };

  const dashboardAsked = async (query: { view?: number; granularity?: Granularity } & Parameters<typeof filtersOf>[0], req: Request): Promise<Asked> =>
    query.view !== undefined ? views.request(viewer(req), query.view, 'dashboard') : { filters: filtersOf(query), granularity: query.granularity };

  const comparisonAsked = async (query: z.output<typeof compareQuery>, req: Request): Promise<Asked> => {
    if (query.view !== undefined) return views.request(viewer(req), query.view, 'comparison');
    return { filters: filtersOf(query), comparison: query.against ? { against: query.against } : { a: query.a!, b: query.b! } };
  };

  const compareOf = ({ filters, comparison }: Asked, req: Request) =>
    comparison && 'against' in comparison
      ? data.compareAgainst(viewer(req), filters, comparison.against)
      : data.compare(viewer(req), filters, comparison!.a, comparison!.b);

  router.get(
    '/filters',
    validated({ query: optionsQuery }, async ({ query }, req, res) => {
      res.json(await data.filters(viewer(req), { from: query.from, to: query.to }));
    }),
  );

  router.get(
    '/summary',
    validated({ query: summaryQuery }, async ({ query }, req, res) => {
      const asked = await dashboardAsked(query, req);
      res.json(await data.summary(viewer(req), asked.filters, { granularity: asked.granularity, weekStart: query.weekStart, earlier: query.earlier === 'year' }));
    }),
  );

  router.get(
    '/compare',
    validated({ query: compareQuery }, async ({ query }, req, res) => {
      res.json(await compareOf(await comparisonAsked(query, req), req));
    }),
  );

  router.get(
    '/export.csv',
    validated({ query: filtersQuery }, async ({ query }, req, res) => {
      const asked = await dashboardAsked(query, req);
      const file = await data.exportCsv(viewer(req), asked.filters);
      await recordExport(trail, req, 'visits', 'csv', file.fileName);
      await sendExcelCsv(res, file);
    }),
  );

  router.get(
    '/compare.csv',
    validated({ query: compareQuery }, async ({ query }, req, res) => {
      const asked = await comparisonAsked(query, req);
      const file = data.exportComparisonCsv(viewer(req), asked.filters, await compareOf(asked, req), currency);
      await recordExport(trail, req, 'comparison', 'csv', file.fileName);
      await sendExcelCsv(res, file);
    }),
  );

  router.get(
    '/export.xlsx',
    validated({ query: filtersQuery }, async ({ query }, req, res) => {
      const asked = await dashboardAsked(query, req);
      const [file, summary] = await Promise.all([data.exportVisits(viewer(req), asked.filters), data.summary(viewer(req), asked.filters)]);
      await recordExport(trail, req, 'visits', 'xlsx', `${file.baseName}.xlsx`);
      await sendVisitsXlsx(res, { ...file, summary, currency }, sheetLanguage(req));
    }),
  );

  router.get(
    '/compare.xlsx',
    validated({ query: compareQuery }, async ({ query }, req, res) => {
      const asked = await comparisonAsked(query, req);
      const comparison = await compareOf(asked, req);
      const table = data.comparisonTable(viewer(req), asked.filters, comparison, currency);
      await recordExport(trail, req, 'comparison', 'xlsx', `${table.baseName}.xlsx`);
      await sendComparisonXlsx(res, { table, comparison, currency }, sheetLanguage(req));
    }),
  );

  router.post('/import', requireDashboardAdmin, receiveCsv(data), async (req, res) => {
    const result = await currentImport(res).commit();
    await trail.record(actorOf(req), 'visitsImported', { target: 'visits', after: { rows: result.imported } });
    res.json(result);
  });

  return router;
}

/** `/api/seasons`: any dashboard session reads, administrators write. */
export function seasonsRoutes(data: DashboardDataService, trail: AuditTrail) {
  const router = Router();

  router.get('/', async (_req, res) => {
    res.json({ seasons: await data.listSeasons() });
  });

  router.post(
    '/',
    requireDashboardAdmin,
    validated({ body: seasonBody }, async ({ body }, req, res) => {
      const season = await data.createSeason(body);
      await trail.record(actorOf(req), 'seasonCreated', { target: `season:${season.id}`, targetName: season.name, after: season });
      res.status(201).json({ season });
    }),
  );

  router.patch(
    '/:id',
    requireDashboardAdmin,
    validated({ params: idParam, body: seasonPatch }, async ({ params, body }, req, res) => {
      const before = (await data.listSeasons()).find((s) => s.id === params.id);
      const season = await data.updateSeason(params.id, body);
      await trail.record(actorOf(req), 'seasonChanged', { target: `season:${season.id}`, targetName: season.name, before, after: season });
      res.json({ season });
    }),
  );

  router.delete(
    '/:id',
    requireDashboardAdmin,
    validated({ params: idParam }, async ({ params }, req, res) => {
      const before = (await data.listSeasons()).find((s) => s.id === params.id);
      await data.deleteSeason(params.id);
      await trail.record(actorOf(req), 'seasonDeleted', { target: `season:${params.id}`, targetName: before?.name, before });
      res.json({ ok: true });
    }),
  );

  return router;
}
