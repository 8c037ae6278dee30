import { wallClock } from '../platform/time-zone';

/** A calendar date as the number of days since 1970-01-01 (UTC), so ranges are plain integers. */
export type Day = number;

/** An inclusive range of days. */
export interface DayRange {
  from: Day;
  to: Day;
}

const DAY_MS = 86_400_000;
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The day of a `YYYY-MM-DD` text, or undefined when it is not a real date between MIN_YEAR and MAX_YEAR. */
export function parseDay(text: string): Day | undefined {
  const m = ISO_DATE.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return undefined;
  const ms = Date.UTC(year, month - 1, day);
  if (new Date(ms).getUTCDate() !== day) return undefined;
  return ms / DAY_MS;
}

/**
 * The day of a text already known to be one: written by formatDay or the wall clock, or let in
 * by a schema that checked it. Anything else is a bug, said here rather than read as NaN later.
 */
export function knownDay(text: string): Day {
  const day = parseDay(text);
  if (day === undefined) throw new Error(`Not a day between ${MIN_YEAR} and ${MAX_YEAR}: ${JSON.stringify(text)}`);
  return day;
}

const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Days the dashboard can hold keep their text once written ('' until then). */
const TEXT_FROM = Date.UTC(MIN_YEAR, 0, 1) / DAY_MS;
const dayTexts: string[] = new Array<string>(Date.UTC(MAX_YEAR + 1, 0, 1) / DAY_MS - TEXT_FROM).fill('');

/**
 * `YYYY-MM-DD` of a day. A day series writes hundreds of days per request, the same ones
 * request after request, and a Date and its ISO text per day cost more than summing the rows
 * behind them; so a day between MIN_YEAR and MAX_YEAR is written once, by arithmetic.
 */
export function formatDay(day: Day): string {
  const at = day - TEXT_FROM;
  if (at >= 0 && at < dayTexts.length) {
    const text = dayTexts[at];
    if (text !== '') return text;
    return (dayTexts[at] = civilText(day));
  }
  return civilText(day);
}

/** H. Hinnant's civil_from_days, on the proleptic Gregorian calendar. */
function civilText(day: Day): string {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const date = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(date)}`;
}

export function dayOf(date: Date): Day {
  return Math.floor(date.getTime() / DAY_MS);
}

/**
 * The calendar day the wall clock shows at `ms` in `timeZone`: the dashboard's "today". At
 * 22:30 UTC on 31 December it is already 1 January in Doha, and figures then run to the 31st.
 */
export function todayIn(timeZone: string, ms: number): Day {
  return knownDay(wallClock(timeZone, ms).day);
}

export function yearOf(day: Day): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

/** Months since year 0, so consecutive months are consecutive integers. */
export function monthIndexOf(day: Day): number {
  const d = new Date(day * DAY_MS);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

export function monthLabel(monthIndex: number): string {
  const year = Math.floor(monthIndex / 12);
  return `${String(year).padStart(4, '0')}-${String((monthIndex % 12) + 1).padStart(2, '0')}`;
}

export function firstDayOfMonth(monthIndex: number): Day {
  return Date.UTC(Math.floor(monthIndex / 12), monthIndex % 12, 1) / DAY_MS;
}

export function yearRange(year: number): DayRange {
  return { from: Date.UTC(year, 0, 1) / DAY_MS, to: Date.UTC(year, 11, 31) / DAY_MS };
}

/** Sorted, non-overlapping ranges covering the same days as the input. */
export function unionRanges(ranges: readonly DayRange[]): DayRange[] {
  const sorted = [...ranges].sort((a, b) => a.from - b.from);
  const out: DayRange[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r.from <= last.to + 1) last.to = Math.max(last.to, r.to);
    else out.push({ ...r });
  }
  return out;
}

/** The days in both lists; both must be sorted and non-overlapping (as unionRanges gives). */
export function intersectRanges(a: readonly DayRange[], b: readonly DayRange[]): DayRange[] {
  const out: DayRange[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const from = Math.max(a[i].from, b[j].from);
    const to = Math.min(a[i].to, b[j].to);
    if (from <= to) out.push({ from, to });
    if (a[i].to < b[j].to) i += 1;
    else j += 1;
  }
  return out;
}

export const PRESETS = ['last7', 'last30', 'last90', 'monthToDate', 'quarterToDate', 'yearToDate', 'lastYear'] as const;
export type Preset = (typeof PRESETS)[number];

/**
 * The ranges the page offers by name. Data runs to yesterday (today's figures are not in
 * yet), so every range that reaches the present ends there.
 */
export function presetRanges(today: Day): Record<Preset, DayRange> {
  const end = today - 1;
  const d = new Date(end * DAY_MS);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth();
  const thisYear = new Date(today * DAY_MS).getUTCFullYear();
  return {
    last7: { from: end - 6, to: end },
    last30: { from: end - 29, to: end },
    last90: { from: end - 89, to: end },
    monthToDate: { from: Date.UTC(year, month, 1) / DAY_MS, to: end },
    quarterToDate: { from: Date.UTC(year, month - (month % 3), 1) / DAY_MS, to: end },
    yearToDate: { from: Date.UTC(year, 0, 1) / DAY_MS, to: end },
    lastYear: yearRange(thisYear - 1),
  };
}

export const GRANULARITIES = ['day', 'week', 'month'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const WEEK_STARTS = ['monday', 'sunday'] as const;
/** ISO weeks start on Monday; Arabic readers' weeks, as the workspace's calendar shows them, on Sunday. */
export type WeekStart = (typeof WEEK_STARTS)[number];

/** The first day of the week holding `day` (1970-01-01 was a Thursday): its Monday, or its Sunday. */
export function weekStart(day: Day, first: WeekStart = 'monday'): Day {
  const offset = first === 'monday' ? 3 : 4;
  return day - ((((day + offset) % 7) + 7) % 7);
}

/** `YYYY-Www`: the ISO week's year is the year of its Thursday. */
export function isoWeekLabel(monday: Day): string {
  const thursday = monday + 3;
  const year = yearOf(thursday);
  const week = Math.floor((thursday - yearRange(year).from) / 7) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The calendar bucket of a given unit that holds `day`. */
export function bucketOf(day: Day, unit: Granularity, first: WeekStart = 'monday'): DayRange {
  if (unit === 'day') return { from: day, to: day };
  if (unit === 'week') {
    const from = weekStart(day, first);
    return { from, to: from + 6 };
  }
  const month = monthIndexOf(day);
  return { from: firstDayOfMonth(month), to: firstDayOfMonth(month + 1) - 1 };
}

/** A Sunday week has no ISO number: it is named by its Sunday (`YYYY-MM-DD`). */
export function bucketLabel(bucket: DayRange, unit: Granularity, first: WeekStart = 'monday'): string {
  if (unit === 'day') return formatDay(bucket.from);
  if (unit === 'week') return first === 'monday' ? isoWeekLabel(bucket.from) : formatDay(bucket.from);
  return monthLabel(monthIndexOf(bucket.from));
}

/** A readable number of points: days up to a month, weeks up to half a year, months beyond. */
export function autoGranularity(days: number): Granularity {
  if (days <= 31) return 'day';
  if (days <= 183) return 'week';
  return 'month';
}

export const AGAINST = ['previous', 'year', 'yearWeekday'] as const;
/** What a range is compared with: the period of the same length just before, the same dates a year earlier, or the same weekdays 52 weeks earlier. */
export type Against = (typeof AGAINST)[number];

/** The same month and day a year earlier; 29 February becomes the 28th. */
export function yearEarlier(day: Day): Day {
  const d = new Date(day * DAY_MS);
  const year = d.getUTCFullYear() - 1;
  const month = d.getUTCMonth();
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(d.getUTCDate(), last)) / DAY_MS;
}

export function earlierRange(range: DayRange, against: Against): DayRange {
  if (against === 'previous') {
    const length = range.to - range.from + 1;
    return { from: range.from - length, to: range.from - 1 };
  }
  if (against === 'yearWeekday') return { from: range.from - 364, to: range.to - 364 };
  return { from: yearEarlier(range.from), to: yearEarlier(range.to) };
}
