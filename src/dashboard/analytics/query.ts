import { z } from 'zod';
import type { DataFilters, Period } from './aggregate';
import { MAX_YEAR, MIN_YEAR, type Against, type Granularity } from '../dates';
import { rangeFields, repeatable, valueName } from '../schemas';

/**
 * The vocabulary of the figures' query strings: the data routes' filters, and the pages'
 * addresses that saved views keep (views/address.ts), read by the same rules.
 */

export const year = z
  .string()
  .regex(/^\d{4}$/, 'must be a year like 2025')
  .transform(Number)
  .refine((y) => y >= MIN_YEAR && y <= MAX_YEAR, `must be between ${MIN_YEAR} and ${MAX_YEAR}`);
const seasonId = z.string().regex(/^[1-9]\d{0,9}$/, 'must be a season id').transform(Number);

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

/** What a data route answers for: the filters, and the trend's grouping or the Comparison page's sides. */
export interface FiguresRequest {
  filters: DataFilters;
  granularity?: Granularity;
  /** The Comparison page's sides: two named periods, or the dates against an earlier period. */
  comparison?: { a: Period; b: Period } | { against: Against };
}
