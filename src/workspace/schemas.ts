import { z } from 'zod';
import { multiLine, singleLine } from '../platform/text';
import { canonicalTimeZone } from '../platform/time-zone';
import { LANGUAGES } from './domain';

/** Input pieces shared by the workspace's routes (the input limits of docs/decisions.md). */
export const NAME_MAX = 200;
export const LONG_TEXT_MAX = 10_000;

export const name = singleLine(NAME_MAX);

/** An optional single line (a job title, a channel, a link): an empty string clears it, like null. */
export const optionalText = (max: number) =>
  singleLine(max, 0)
    .nullable()
    .transform((v) => (v === null || v === '' ? null : v));

/** Optional longer text (a description, a caption): an empty string clears it, like null. */
export const longText = multiLine(LONG_TEXT_MAX)
  .nullable()
  .transform((v) => (v === null || v === '' ? null : v));

export const id = z.number().int().positive();

/** A calendar day, YYYY-MM-DD, or null to clear it. */
export const day = z.iso.date().nullable();

/** A moment with an explicit offset, stored in UTC. */
export const moment = z.iso
  .datetime({ offset: true })
  .refine((v) => !Number.isNaN(Date.parse(v)), 'not a real date')
  .transform((v) => new Date(v).toISOString())
  .nullable();

/** Ids in query strings arrive as text. */
export const queryId = z
  .string()
  .regex(/^[1-9]\d{0,15}$/, 'must be a positive integer')
  .transform(Number);

export const queryCount = (max: number) =>
  z
    .string()
    .regex(/^\d{1,6}$/, 'must be a whole number')
    .transform(Number)
    .refine((n) => n <= max, `must be at most ${max}`);

/** A PATCH must change something. */
export function nonEmpty<T extends z.ZodType<object>>(schema: T) {
  return schema.refine((b) => Object.keys(b).length > 0, 'nothing to change');
}

/** The shortest password accepted; pages say it and check it before sending. */
export const PASSWORD_MIN_LENGTH = 10;

/** bcrypt reads at most 72 bytes, so a longer password would be cut silently. */
export const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .refine((v) => Buffer.byteLength(v, 'utf8') <= 72, 'must be at most 72 bytes');

export const email = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((v) => v.toLowerCase());

/** An IANA time zone, kept in its usual spelling (`asia/qatar` → `Asia/Qatar`). */
export const timeZone = z
  .string()
  .max(100)
  .transform((v, ctx) => {
    const zone = canonicalTimeZone(v);
    if (zone === undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone, such as Asia/Qatar or Europe/London' });
      return z.NEVER;
    }
    return zone;
  });

/** Checks the order of two optional days after a change has been applied to stored ones. */
export function daysInOrder(startDate: string | null, endDate: string | null): boolean {
  return startDate === null || endDate === null || startDate <= endDate;
}

/** `limit` and `offset` of a paginated list's query string. */
export function pageQuery(defaultLimit: number, max: number) {
  return {
    limit: queryCount(max)
      .refine((n) => n >= 1, 'must be at least 1')
      .default(defaultLimit),
    offset: queryCount(1_000_000).default(0),
  };
}

/** A language the workspace speaks. */
export const language = z.enum(LANGUAGES);
