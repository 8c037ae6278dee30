import type { Request } from 'express';
import { z } from 'zod';
import { AGAINST, GRANULARITIES, WEEK_STARTS } from '../dates';
import { viewerOf } from '../request';
import { orderedRange, rangeFields } from '../schemas';
import { filterFields, filtersOf, period, viewId, type FiguresRequest } from './query';
import type { AnalyticsService } from './service';
import type { DashboardSession } from '../auth/session-store';

/** Filters, or a saved view (`view=<id>`) that holds them: never both. */
const withoutFilters = (q: { view?: number; museum: string[]; channel: string[]; district: string[]; year: number[]; season: number[]; from?: number; to?: number }) =>
  q.view === undefined || (q.museum.length + q.channel.length + q.district.length + q.year.length + q.season.length === 0 && q.from === undefined && q.to === undefined);
const viewAlone = { message: 'a saved view holds its own filters: give view alone, or the filters', path: ['view'] };

export const filtersQuery = orderedRange(z.strictObject({ ...filterFields, view: viewId.optional() }).refine(withoutFilters, viewAlone));
/**
 * Weeks are ISO weeks (from Monday) unless `weekStart=sunday`, as Arabic pages ask;
 * `earlier=year` adds the trend's points a year before.
 */
export const summaryQuery = orderedRange(
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
export const compareQuery = orderedRange(
  z
    .strictObject({ ...filterFields, view: viewId.optional(), a: period.optional(), b: period.optional(), against: z.enum(AGAINST).optional() })
    .refine(withoutFilters, viewAlone)
    .refine((q) => (q.view !== undefined ? q.a === undefined && q.b === undefined && q.against === undefined : q.against ? q.a === undefined && q.b === undefined : q.a !== undefined && q.b !== undefined), {
      message: 'give both a and b, or against (previous, year or yearWeekday) without them, or a saved view alone',
      path: ['against'],
    }),
);
export const optionsQuery = orderedRange(z.strictObject({ ...rangeFields, lang: z.string().optional() }));

/** Where a data route finds a saved view's address: the views service, under the reader's own access. */
export interface SavedViewLookup {
  request(reader: DashboardSession, id: number, page: 'dashboard' | 'comparison'): Promise<FiguresRequest>;
}

/**
 * What a request to the Dashboard's or the Comparison's figures asks for: its own filters,
 * or those of the saved view it names; and the comparison it asks for, worked out.
 */
export function askedFigures(figures: AnalyticsService, views: SavedViewLookup) {
  const dashboard = async (query: z.output<typeof summaryQuery> | z.output<typeof filtersQuery>, req: Request): Promise<FiguresRequest> =>
    query.view !== undefined ? views.request(viewerOf(req), query.view, 'dashboard') : { filters: filtersOf(query), granularity: 'granularity' in query ? query.granularity : undefined };

  const comparison = async (query: z.output<typeof compareQuery>, req: Request): Promise<FiguresRequest> => {
    if (query.view !== undefined) return views.request(viewerOf(req), query.view, 'comparison');
    if (query.against) return { filters: filtersOf(query), comparison: { against: query.against } };
    const { a, b } = query;
    if (a === undefined || b === undefined) throw new Error('compareQuery lets in both sides a and b, or against, or a view');
    return { filters: filtersOf(query), comparison: { a, b } };
  };

  const compared = ({ filters, comparison: sides }: FiguresRequest, req: Request) => {
    // Both ways of asking for a comparison, the query's and a Comparison view's, name its sides.
    if (sides === undefined) throw new Error('A comparison was asked for without its sides');
    return 'against' in sides ? figures.compareAgainst(viewerOf(req), filters, sides.against) : figures.compare(viewerOf(req), filters, sides.a, sides.b);
  };

  return { dashboard, comparison, compared };
}
