import { wallClock } from '../../platform/time-zone';
import { firstDayOfMonth, formatDay, knownDay, monthIndexOf, type DayRange } from '../dates';

import type { Frequency } from '../domain';

/** Reports go at this hour of the dashboard's wall clock: Sundays for weekly ones, the 1st for monthly ones. */
export const REPORT_HOUR = 7;
const REPORT_MINUTE_OF_DAY = REPORT_HOUR * 60;

/** 1970-01-01, day 0, was a Thursday: day + 4 counts from a Sunday. */
const weekday = (day: number) => (((day + 4) % 7) + 7) % 7;

/**
 * The day of the latest scheduled send at or before `now` in `timeZone`: the last Sunday
 * (weekly) or 1st (monthly) whose 07:00 has passed. A report is due while the day it last
 * claimed is earlier, so one missed while every instance was down goes once when one is back.
 */
export function dueDay(frequency: Frequency, now: number, timeZone: string): string {
  const wall = wallClock(timeZone, now);
  const today = knownDay(wall.day);
  const passed = wall.minutes >= REPORT_MINUTE_OF_DAY;
  if (frequency === 'weekly') {
    const back = weekday(today);
    return formatDay(back === 0 && !passed ? today - 7 : today - back);
  }
  const first = firstDayOfMonth(monthIndexOf(today));
  return formatDay(first === today && !passed ? firstDayOfMonth(monthIndexOf(today) - 1) : first);
}

/** The day of the next scheduled send after the one of `day` (at 07:00 on the dashboard's wall clock). */
export function nextDay(frequency: Frequency, day: string): string {
  const d = knownDay(day);
  return formatDay(frequency === 'weekly' ? d + 7 : firstDayOfMonth(monthIndexOf(d) + 1));
}

/**
 * The days a report written on `day` covers: the seven days before it (a Sunday's report
 * covers Sunday to Saturday), or the calendar month before it.
 */
export function coveredDays(frequency: Frequency, day: string): DayRange {
  const d = knownDay(day);
  if (frequency === 'weekly') return { from: d - 7, to: d - 1 };
  const month = monthIndexOf(d) - 1;
  return { from: firstDayOfMonth(month), to: firstDayOfMonth(month + 1) - 1 };
}
