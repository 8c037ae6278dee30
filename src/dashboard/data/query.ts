import { z } from 'zod';
import type { DataFilters } from './aggregate';
import { MAX_YEAR, MIN_YEAR, parseDay } from './dates';
import type { Period } from './service';

/**
 * The vocabulary of the dashboard's query strings: the data routes' filters, and the pages'
 * addresses that saved views keep (views/address.ts), read by the same rules.
 */

const MAX_VALUES = 500;

/** A repeatable query parameter: one value or several; empty values (`museum=`) mean "not given". */
export function repeatable<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) => (value === undefined ? [] : (Array.isArray(value) ? (value as unknown[]) : [value]).filter((v) => v !== '')),
    z.array(item).max(MAX_VALUES),
  );
}

export const valueName = z.string().max(200);
export const year = z
  .string()
  .regex(/^\d{4}$/, 'must be a year like 2025')
  .transform(Number)
  .refine((y) => y >= MIN_YEAR && y <= MAX_YEAR, `must be between ${MIN_YEAR} and ${MAX_YEAR}`);
const seasonId = z.string().regex(/^[1-9]\d{0,9}$/, 'must be a season id').transform(Number);

export const isoDate = z.string().refine((v) => parseDay(v) !== undefined, `must be a date written YYYY-MM-DD, between ${MIN_YEAR} and ${MAX_YEAR}`);
export const day = isoDate.transform((v) => parseDay(v)!);

export const rangeFields = { from: day.optional(), to: day.optional() };

/** `from` and `to` are inclusive; a range that ends before it starts is refused, never read as empty. */
export function orderedRange<T extends z.ZodType<{ from?: number; to?: number }>>(schema: T) {
  return schema.refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'must not be before from',
    path: ['to'],
  });
}

export const filterFields = {
  museum: repeatable(valueName),
  channel: repeatable(valueName),
  district: repeatable(valueName),
  year: repeatable(year),
  season: repeatable(seasonId),
  ...rangeFields,
  /** Read by the language middleware; allowed so page URLs can be passed on whole. */
  lang: z.string().optional(),
};

export const period = z.union([
  year.transform((y): Period => ({ year: y })),
  z
    .string()
    .regex(/^season:[1-9]\d{0,9}$/, 'must be a year like 2025 or season:<id>')
    .transform((v): Period => ({ seasonId: Number(v.slice('season:'.length)) })),
]);

/** A saved view's id, which a data route takes instead of filters. */
export const viewId = z.string().regex(/^[1-9]\d{0,15}$/, 'must be a saved view id').transform(Number);

type FilterInput = Pick<DataFilters, 'museum' | 'channel' | 'district' | 'year' | 'season' | 'from' | 'to'>;

export function filtersOf(query: FilterInput): DataFilters {
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
