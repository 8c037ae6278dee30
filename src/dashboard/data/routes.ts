import { actorOf, type AuditTrail } from '../audit/service';
import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { sendExcelCsv } from '../downloads';
import { singleLine } from '../../platform/text';
import { idParam, validated } from '../../platform/validate';
import { requireDashboardAdmin } from '../auth/middleware';
import type { DashboardSession } from '../auth/session-store';
import type { DataFilters } from './aggregate';
import { AGAINST, GRANULARITIES, MAX_YEAR, MIN_YEAR, parseDay, WEEK_STARTS } from './dates';
import type { DashboardDataService, Period } from './service';
import { currentImport, receiveCsv } from './upload';

const MAX_VALUES = 500;

/** A repeatable query parameter: one value or several; empty values (`museum=`) mean "not given". */
function repeatable<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => (value === undefined ? [] : (Array.isArray(value) ? (value as unknown[]) : [value]).filter((v) => v !== '')),
    z.array(item).max(MAX_VALUES),
  );
}

const name = z.string().max(200);
const year = z
  .string()
  .regex(/^\d{4}$/, 'must be a year like 2025')
  .transform(Number)
  .refine((y) => y >= MIN_YEAR && y <= MAX_YEAR, `must be between ${MIN_YEAR} and ${MAX_YEAR}`);
const seasonId = z.string().regex(/^[1-9]\d{0,9}$/, 'must be a season id').transform(Number);

const isoDate = z.string().refine((v) => parseDay(v) !== undefined, `must be a date written YYYY-MM-DD, between ${MIN_YEAR} and ${MAX_YEAR}`);
const day = isoDate.transform((v) => parseDay(v)!);

const rangeFields = { from: day.optional(), to: day.optional() };

/** `from` and `to` are inclusive; a range that ends before it starts is refused, never read as empty. */
function orderedRange<T extends z.ZodType<{ from?: number; to?: number }>>(schema: T) {
  return schema.refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'must not be before from',
    path: ['to'],
  });
}

const filterFields = {
  museum: repeatable(name),
  channel: repeatable(name),
  district: repeatable(name),
  year: repeatable(year),
  season: repeatable(seasonId),
  ...rangeFields,
  /** Read by the language middleware; allowed so page URLs can be passed on whole. */
  lang: z.string().optional(),
};
const filtersQuery = orderedRange(z.strictObject(filterFields));
/**
 * Weeks are ISO weeks (from Monday) unless `weekStart=sunday`, as Arabic pages ask;
 * `earlier=year` adds the trend's points a year before.
 */
const summaryQuery = orderedRange(
  z.strictObject({ ...filterFields, granularity: z.enum(GRANULARITIES).optional(), weekStart: z.enum(WEEK_STARTS).optional(), earlier: z.literal('year').optional() }),
);

const period = z.union([
  year.transform((y): Period => ({ year: y })),
  z
    .string()
    .regex(/^season:[1-9]\d{0,9}$/, 'must be a year like 2025 or season:<id>')
    .transform((v): Period => ({ seasonId: Number(v.slice('season:'.length)) })),
]);
/** Either two named sides (`a`, `b`), or `against` an earlier period for the from/to range (year to date when absent). */
const compareQuery = orderedRange(
  z
    .strictObject({ ...filterFields, a: period.optional(), b: period.optional(), against: z.enum(AGAINST).optional() })
    .refine((q) => (q.against ? q.a === undefined && q.b === undefined : q.a !== undefined && q.b !== undefined), {
      message: 'give both a and b, or against (previous, year or yearWeekday) without them',
      path: ['against'],
    }),
);
const optionsQuery = orderedRange(z.strictObject({ ...rangeFields, lang: z.string().optional() }));

const seasonName = singleLine(200);
const seasonBody = z.strictObject({ name: seasonName, startDate: isoDate, endDate: isoDate });
const seasonPatch = z
  .strictObject({ name: seasonName.optional(), startDate: isoDate.optional(), endDate: isoDate.optional() })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

function filtersOf(query: z.output<typeof filtersQuery>): DataFilters {
  return {
    museum: query.museum,
    channel: query.channel,
    district: query.district,
    year: query.year,
    season: query.season,
    from: query.from,
    to: query.to,
  };
}

/** Mounted behind the dashboard session, so there always is one here. */
function viewer(req: Request): DashboardSession {
  return req.dashboard!.session;
}

/** Figures differ per user: never kept by a shared cache. */
const privateAnswer: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'private, no-store');
  next();
};

/** `/api/dashboard`: the data each session may see; `currency` names the unit of revenue in exports. */
export function dashboardDataRoutes(data: DashboardDataService, trail: AuditTrail, currency: string) {
  const router = Router();
  router.use(privateAnswer);

  const compareOf = (query: z.output<typeof compareQuery>, req: Request) =>
    query.against
      ? data.compareAgainst(viewer(req), filtersOf(query), query.against)
      : data.compare(viewer(req), filtersOf(query), query.a!, query.b!);

  router.get(
    '/filters',
    validated({ query: optionsQuery }, async ({ query }, req, res) => {
      res.json(await data.filters(viewer(req), { from: query.from, to: query.to }));
    }),
  );

  router.get(
    '/summary',
    validated({ query: summaryQuery }, async ({ query }, req, res) => {
      res.json(await data.summary(viewer(req), filtersOf(query), { granularity: query.granularity, weekStart: query.weekStart, earlier: query.earlier === 'year' }));
    }),
  );

  router.get(
    '/compare',
    validated({ query: compareQuery }, async ({ query }, req, res) => {
      res.json(await compareOf(query, req));
    }),
  );

  router.get(
    '/export.csv',
    validated({ query: filtersQuery }, async ({ query }, req, res) => {
      await sendExcelCsv(res, await data.exportCsv(viewer(req), filtersOf(query)));
    }),
  );

  router.get(
    '/compare.csv',
    validated({ query: compareQuery }, async ({ query }, req, res) => {
      await sendExcelCsv(res, data.exportComparisonCsv(viewer(req), filtersOf(query), await compareOf(query, req), currency));
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
