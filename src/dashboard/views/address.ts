import { z } from 'zod';
import type { DataFilters } from '../analytics/aggregate';
import { AGAINST, GRANULARITIES, parseDay, presetRanges, PRESETS, type Day } from '../dates';
import { filterFields, filtersOf, period, type FiguresRequest } from '../analytics/query';
import { orderedRange, repeatable, valueName } from '../schemas';
import { BadRequest } from '../../platform/errors';
import type { ViewPage } from '../domain';


/** The longest address a view keeps: far above any the pages write, far below a row's worth of trouble. */
export const MAX_QUERY_LENGTH = 4000;

const DIMENSIONS = ['museum', 'channel', 'district'] as const;
type Dimension = (typeof DIMENSIONS)[number];

/** A drill-down step as the Dashboard writes it (public/js/dashboard/drill.js). */
type Step = { kind: Dimension; value: string } | { kind: 'range'; from: Day; to: Day };

const RANGE_STEP = /^range:(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;

const step = z.string().transform((text, ctx): Step => {
  const range = RANGE_STEP.exec(text);
  if (range) {
    const from = parseDay(range[1]);
    const to = parseDay(range[2]);
    if (from !== undefined && to !== undefined && from <= to) return { kind: 'range', from, to };
  }
  const at = text.indexOf(':');
  const kind = text.slice(0, at);
  const value = text.slice(at + 1);
  if (at > 0 && (DIMENSIONS as readonly string[]).includes(kind) && valueName.safeParse(value).success && value !== '') return { kind: kind as Dimension, value };
  ctx.addIssue({ code: 'custom', message: 'must be a drill-down step such as museum:<name> or range:<from>..<to>' });
  return z.NEVER;
});

const dates = { range: z.enum(PRESETS).optional() };
const metric = { metric: z.enum(['visitors', 'revenue']).optional() };

/** The Dashboard's address: filters, dates, grouping, drill-down steps and chart choices. */
const dashboardAddress = orderedRange(
  z.strictObject({
    ...filterFields,
    ...dates,
    ...metric,
    granularity: z.enum(GRANULARITIES).optional(),
    drill: repeatable(step),
    yearEarlier: z.literal('1').optional(),
    average: z.literal('1').optional(),
  }),
);

/** The Comparison page's address: what is compared with what, under which filters. */
const comparisonAddress = orderedRange(
  z
    .strictObject({ ...filterFields, ...dates, ...metric, against: z.enum(AGAINST).optional(), a: period.optional(), b: period.optional() })
    .refine((q) => (q.a === undefined) === (q.b === undefined), { message: 'give both a and b, or neither', path: ['b'] })
    .refine((q) => q.a === undefined || q.against === undefined, { message: 'give a and b, or against, not both', path: ['against'] }),
);

/** A query string as Express reads one: a name given once is a string, given again a list. */
function queryObject(text: string): Record<string, string | string[]> {
  const params = new URLSearchParams(text);
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    out[key] = values.length === 1 ? values[0] : values;
  }
  return out;
}

type DashboardAddress = z.output<typeof dashboardAddress>;
type ComparisonAddress = z.output<typeof comparisonAddress>;

/** The address without its leading `?` or the language, which is the reader's, not the view's. */
export function normalisedQuery(query: string): string {
  const params = new URLSearchParams(query.replace(/^\?/, ''));
  params.delete('lang');
  return params.toString();
}

/** Checks a page's address for saving; 400 VIEW_QUERY names what is wrong with it. */
export function checkAddress(page: ViewPage, query: string): void {
  parse(page, query);
}

function parse(page: ViewPage, query: string): DashboardAddress | ComparisonAddress {
  const schema = page === 'dashboard' ? dashboardAddress : comparisonAddress;
  const result = schema.safeParse(queryObject(query));
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ path: ['body', 'query', ...i.path].join('.'), message: i.message }));
    throw new BadRequest(`This is not an address of the ${page === 'dashboard' ? 'Dashboard' : 'Comparison'} page: ${issues[0].path} ${issues[0].message}`, 'VIEW_QUERY', { issues });
  }
  return result.data;
}

/** What a data route answers for, as a saved view holds it. */
export type ViewRequest = FiguresRequest;

/**
 * A view's address as the data routes read it, on `today`: a named period ("last 30 days")
 * is worked out afresh, so a saved view keeps meaning it; drill-down steps are taken in order.
 * Its museums and channels are held strictly (see DataFilters.strict).
 */
export function requestOf(page: ViewPage, query: string, today: Day): ViewRequest {
  if (page === 'dashboard') {
    const address = parse(page, query) as DashboardAddress;
    const filters: DataFilters = { ...filtersOf(address), strict: true };
    if (address.range) Object.assign(filters, presetRanges(today)[address.range]);
    let granularity = address.granularity;
    for (const s of address.drill) {
      if (s.kind === 'range') {
        filters.from = s.from;
        filters.to = s.to;
        granularity = undefined;
      } else {
        filters[s.kind] = [s.value];
      }
    }
    return { filters, granularity };
  }
  const address = parse(page, query) as ComparisonAddress;
  const filters: DataFilters = { ...filtersOf(address), strict: true };
  if (address.a !== undefined && address.b !== undefined) return { filters, comparison: { a: address.a, b: address.b } };
  if (address.range) Object.assign(filters, presetRanges(today)[address.range]);
  return { filters, comparison: { against: address.against ?? 'year' } };
}

/** The museums and channels a view names, for telling its opener which of them they cannot see. */
export function namedValues(page: ViewPage, query: string): { museums: string[]; channels: string[] } {
  const address = parse(page, query);
  const museums = [...address.museum];
  const channels = [...address.channel];
  if ('drill' in address) {
    for (const s of address.drill) {
      if (s.kind === 'museum') museums.push(s.value);
      if (s.kind === 'channel') channels.push(s.value);
    }
  }
  return { museums, channels };
}
