// The calendar's days and a post's moment on them. A day travels as YYYY-MM-DD in the reader's
// time zone; a Date for one is at local noon, so adding days never trips over a change of clocks.
import { lang } from '../core/page.js';

/** A post as the API answers it, with what the user may do with it (`can`). @typedef {import('../../../src/workspace/posts/service').PostBody} Post */
/** @typedef {import('../../../src/workspace/domain').PostStatus} PostStatus */

/** @type {PostStatus} */
export const PUBLISHED = 'published';

/** The first day of the week (0 Sunday, 1 Monday), by the page's language. */
export const FIRST_DAY = lang === 'ar' ? 0 : 1;
/** The time of day a post without one gets when it is put on a day. */
export const DEFAULT_HOUR = 9;

export function today() {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate(), 12);
}

/** @param {Date} date */
export function dayKey(date) {
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * @param {string | null | undefined} key
 * @returns {Date | null}
 */
export function parseDay(key) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key ?? '');
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), 12);
  return dayKey(date) === key ? date : null;
}

/**
 * @param {Date} date
 * @param {number} days
 */
export function addDays(date, days) {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days, 12);
}

/** @param {Date} date */
export function startOfWeek(date) {
  return addDays(date, -((date.getDay() - FIRST_DAY + 7) % 7));
}

/**
 * The moment a post stands for on the calendar: its scheduled one, or for a published post
 * without one, its last change (the closest the records come to when it went out).
 * @param {Post} post
 */
export function momentOf(post) {
  if (post.scheduledAt) return post.scheduledAt;
  return post.status === PUBLISHED ? post.updatedAt : null;
}

/**
 * The post's moment moved to `day`, at the same time of day here; a post without a time gets the default hour.
 * @param {Post} post
 * @param {string} day
 */
export function movedTo(post, day) {
  const target = /** @type {Date} */ (parseDay(day));
  const moment = momentOf(post);
  const date = moment ? new Date(moment) : new Date(target.getFullYear(), target.getMonth(), target.getDate(), DEFAULT_HOUR);
  date.setFullYear(target.getFullYear(), target.getMonth(), target.getDate());
  return date.toISOString();
}
