import { z } from 'zod';
import { knownDay, MAX_YEAR, MIN_YEAR, parseDay } from './dates';

/**
 * The dashboard's words for query strings and bodies that several features read: days,
 * repeatable values, ranges. Each feature's own fields stay beside its routes.
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

export const isoDate = z.string().refine((v) => parseDay(v) !== undefined, `must be a date written YYYY-MM-DD, between ${MIN_YEAR} and ${MAX_YEAR}`);
export const day = isoDate.transform((v) => knownDay(v));

export const rangeFields = { from: day.optional(), to: day.optional() };

/** `from` and `to` are inclusive; a range that ends before it starts is refused, never read as empty. */
export function orderedRange<T extends z.ZodType<{ from?: number; to?: number }>>(schema: T) {
  return schema.refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'must not be before from',
    path: ['to'],
  });
}
