import type { Aggregate, DailySums, NameSet, VisitColumns } from './store';
import type { VisitRow } from '../domain';
import {
  autoGranularity,
  bucketLabel,
  bucketOf,
  monthIndexOf,
  formatDay,
  intersectRanges,
  monthLabel,
  MAX_YEAR,
  MIN_YEAR,
  knownDay,
  unionRanges,
  yearEarlier,
  yearRange,
  type Day,
  type DayRange,
  type Granularity,
  type WeekStart,
} from '../dates';
import { narrow, narrowStrictly, type Access } from './permissions';
import type { Season } from '../seasons/repository';

/** One side of a comparison: a calendar year, a season or a range of days. */
export type Period = { year: number } | { seasonId: number } | DayRange;

/** A user's own filters as given in the query string: within a dimension any value matches. */
export interface DataFilters {
  museum: string[];
  channel: string[];
  district: string[];
  year: number[];
  season: number[];
  /** Inclusive bounds as days (see dates.ts); either may be left open. */
  from?: Day;
  to?: Day;
  /**
   * Museums and channels outside the permission still count as chosen, and match nothing,
   * instead of being dropped: a saved view about a museum its opener may not see shows them
   * nothing, rather than every museum they may see under the view's name.
   */
  strict?: boolean;
}

/** What one request looks at, after the permission filter: rows pass every part. */
export interface Selection {
  /** The permission filter alone, which also bounds the dates the request can reach. */
  access: Access;
  museums: NameSet;
  channels: NameSet;
  districts: NameSet;
  /** Sorted, non-overlapping; 'all' when no year or season was chosen. */
  dates: DayRange[] | 'all';
}

export interface Totals {
  visitors: number;
  revenue: number;
  /** Distinct dates with at least one matching row. */
  days: number;
}

export interface Breakdown {
  key: string;
  visitors: number;
  revenue: number;
}

export interface Summary {
  /** First and last day of the selected dates within the days the permitted rows cover; null when that is empty. */
  range: { start: string; end: string } | null;
  totals: Totals;
  /** What the figures are measured against: see PreviousPeriod. */
  previous: PreviousPeriod;
  monthly: { month: string; visitors: number; revenue: number }[];
  /** The unit of `series`: the one asked for, else chosen from the length of `range`. */
  granularity: Granularity;
  /** One point per day, ISO week or month from `range.start` to `range.end`, zeros included. */
  series: SeriesPoint[];
  byMuseum: Breakdown[];
  byChannel: Breakdown[];
  byDistrict: Breakdown[];
  /** Asked for with `earlier: true`: per point of `series`, the same days a year earlier. */
  earlier?: EarlierPoint[];
}

/**
 * A point of the trend a year earlier: the days of its bucket that the selection covers, each
 * moved back a year (a day or a month to the same date, 29 February to the 28th; a week 52
 * weeks, so weekdays meet weekdays). `start`/`end` are the first and last of those days.
 */
export interface EarlierPoint {
  start: string;
  end: string;
  visitors: number;
  revenue: number;
}

/**
 * The period a summary's change is measured against. For one run of days (a range, a year, a
 * season, consecutive years) it is the same number of days just `before`; for a selection of
 * days apart (two seasons, 2024 and 2026) that would compare a few weeks with a year or more,
 * so it is the same selection a year earlier (`yearEarlier`). `start`/`end` are its first and
 * last day.
 */
export type PreviousPeriod = Totals & { kind: PreviousKind; start: string | null; end: string | null };
export type PreviousKind = 'before' | 'yearEarlier';

/** How a summary cuts its figures beyond the filters: the reader's week, and the day that is still running. */
export interface SummaryOptions {
  granularity?: Granularity;
  weekStart?: WeekStart;
  /** Today in the dashboard's time zone: a bucket that reaches it or later is partial, as its days are not all in. */
  today?: Day;
  /** Adds `earlier`, the trend's points a year before. */
  earlier?: boolean;
}

export interface SeriesPoint {
  /** The bucket's calendar bounds (a whole week or month, even where the selection cuts it). */
  start: string;
  end: string;
  /** `YYYY-MM-DD`, `YYYY-Www` (ISO week; a Sunday week is named by its Sunday, `YYYY-MM-DD`) or `YYYY-MM`. */
  label: string;
  visitors: number;
  revenue: number;
  /** The selection covers only some of the bucket's days, so it must not read as a fall. */
  partial: boolean;
}

export interface ComparedRow {
  key: string;
  /** Visitors on each side. */
  a: number;
  b: number;
  change: number;
  /** Percent; null when `a` is 0. */
  changePct: number | null;
  /** The same for revenue, with the change exact to the cent. */
  revenue: MetricChange;
}

export interface CompareSide {
  label: string;
  dates: DayRange[];
}

/** One figure on both sides, with its absolute and relative change. */
export interface MetricChange {
  a: number;
  b: number;
  change: number;
  /** Percent; null when `a` is 0. */
  changePct: number | null;
}

export interface Comparison {
  /** `start`/`end`: the first and last day the side asks for, so a page can print both ranges. */
  a: { label: string; start: string | null; end: string | null; totals: Totals };
  b: { label: string; start: string | null; end: string | null; totals: Totals };
  metrics: { visitors: MetricChange; revenue: MetricChange; revenuePerVisitor: MetricChange };
  byMuseum: ComparedRow[];
  byChannel: ComparedRow[];
}

export interface FilterOptions {
  museums: string[];
  channels: string[];
  districts: string[];
  years: number[];
}

export function seasonRange(season: Season): DayRange {
  return { from: knownDay(season.startDate), to: knownDay(season.endDate) };
}

/**
 * Applies the permission filter first, then the user's filters inside it. Years, seasons and
 * the from/to range each narrow the dates (every one chosen must hold); an unknown season
 * id covers no day.
 */
export function selectionOf(access: Access, filters: DataFilters, seasons: readonly Season[]): Selection {
  const years = filters.year.length > 0 ? unionRanges(filters.year.map(yearRange)) : undefined;
  const wanted = new Set(filters.season);
  const inSeasons = filters.season.length > 0 ? unionRanges(seasons.filter((s) => wanted.has(s.id)).map(seasonRange)) : undefined;
  const range = filters.from !== undefined || filters.to !== undefined ? [boundedRange(filters.from, filters.to)] : undefined;
  const chosen = [years, inSeasons, range].filter((r): r is DayRange[] => r !== undefined);
  const dates = chosen.length === 0 ? 'all' : chosen.reduce((a, b) => intersectRanges(a, b));
  return {
    access,
    museums: (filters.strict ? narrowStrictly : narrow)(access.museums, filters.museum),
    channels: (filters.strict ? narrowStrictly : narrow)(access.channels, filters.channel),
    districts: filters.district.length > 0 ? new Set(filters.district) : 'all',
    dates,
  };
}

/** An inclusive range whose open ends reach the first or last representable day. */
export function boundedRange(from: Day | undefined, to: Day | undefined): DayRange {
  return { from: from ?? yearRange(MIN_YEAR).from, to: to ?? yearRange(MAX_YEAR).to };
}

/**
 * The selected dates cut to the days that the rows the session may see cover, so that
 * neither the range nor the monthly series reach into data the session cannot see.
 */
function datesIn(columns: VisitColumns, selection: Selection, dates: Selection['dates'] = selection.dates): DayRange[] {
  const span = columns.span(columns.keepMask(selection.access.museums, selection.access.channels, 'all'));
  if (!span) return [];
  return dates === 'all' ? [span] : intersectRanges(dates, [span]);
}

function totalsOf(scan: Aggregate): Totals {
  let visitors = 0;
  let cents = 0;
  for (let c = 0; c < scan.visitors.length; c += 1) {
    visitors += scan.visitors[c];
    cents += scan.revenueCents[c];
  }
  return { visitors, revenue: cents / 100, days: scan.days };
}

/** Sums per value of one dimension; values without a matching row are left out. */
function sumsBy(scan: Aggregate, comboCode: Uint32Array, names: readonly string[]) {
  const visitors = new Float64Array(names.length);
  const cents = new Float64Array(names.length);
  const rows = new Uint32Array(names.length);
  for (let c = 0; c < comboCode.length; c += 1) {
    if (scan.rows[c] === 0) continue;
    const k = comboCode[c];
    visitors[k] += scan.visitors[c];
    cents[k] += scan.revenueCents[c];
    rows[k] += scan.rows[c];
  }
  const out = new Map<string, { visitors: number; revenue: number }>();
  for (let k = 0; k < names.length; k += 1) {
    if (rows[k] > 0) out.set(names[k], { visitors: visitors[k], revenue: cents[k] / 100 });
  }
  return out;
}

/** Largest first, then by name, so the chart and the table agree. */
function breakdown(scan: Aggregate, comboCode: Uint32Array, names: readonly string[]): Breakdown[] {
  return [...sumsBy(scan, comboCode, names)]
    .map(([key, v]) => ({ key, ...v }))
    .sort((x, y) => y.visitors - x.visitors || x.key.localeCompare(y.key));
}

function previousPeriod(columns: VisitColumns, keep: Uint8Array, ranges: readonly DayRange[]): PreviousPeriod {
  if (ranges.length === 0) return { kind: 'before', start: null, end: null, visitors: 0, revenue: 0, days: 0 };
  if (ranges.length > 1) {
    const earlier = unionRanges(ranges.map((r) => ({ from: yearEarlier(r.from), to: yearEarlier(r.to) })));
    return { kind: 'yearEarlier', ...spanText(earlier), ...totalsOf(columns.aggregate(keep, earlier)) };
  }
  const start = ranges[0].from;
  const length = ranges[0].to - start + 1;
  const before = { from: start - length, to: start - 1 };
  return { kind: 'before', ...spanText([before]), ...totalsOf(columns.aggregate(keep, [before])) };
}

function spanText(ranges: readonly DayRange[]): { start: string; end: string } {
  return { start: formatDay(ranges[0].from), end: formatDay(ranges[ranges.length - 1].to) };
}

/** How many of the selected days fall in `bucket`; `ranges` sorted, non-overlapping. */
function selectedDaysIn(bucket: DayRange, ranges: readonly DayRange[]): number {
  let n = 0;
  for (const r of ranges) {
    const from = Math.max(r.from, bucket.from);
    const to = Math.min(r.to, bucket.to);
    if (from <= to) n += to - from + 1;
  }
  return n;
}

/** The series by `unit`: months come from the scan's own month sums, days and weeks from per-day totals. */
function seriesOf(ranges: readonly DayRange[], unit: Granularity, scan: Aggregate, daily: DailySums | undefined, options: SummaryOptions): SeriesPoint[] {
  if (ranges.length === 0) return [];
  const first = ranges[0].from;
  const last = ranges[ranges.length - 1].to;
  const out: SeriesPoint[] = [];
  const months = new Map(scan.months.map((m) => [m.month, m]));
  const firstDay = options.weekStart ?? 'monday';
  const today = options.today ?? Infinity;
  for (let start = bucketOf(first, unit, firstDay).from; start <= last; ) {
    const bucket = bucketOf(start, unit, firstDay);
    let visitors = 0;
    let cents = 0;
    if (daily) {
      for (let d = Math.max(bucket.from, first); d <= Math.min(bucket.to, last); d += 1) {
        visitors += daily.visitors[d - daily.firstDay];
        cents += daily.revenueCents[d - daily.firstDay];
      }
    } else {
      const m = months.get(monthIndexOf(bucket.from));
      visitors = m?.visitors ?? 0;
      cents = m?.revenueCents ?? 0;
    }
    // A day's start, end and label are one text: written once, as a series has hundreds.
    const text = formatDay(bucket.from);
    out.push({
      start: text,
      end: unit === 'day' ? text : formatDay(bucket.to),
      label: unit === 'day' ? text : bucketLabel(bucket, unit, firstDay),
      visitors,
      revenue: cents / 100,
      partial: bucket.to >= today || selectedDaysIn(bucket, ranges) < bucket.to - bucket.from + 1,
    });
    start = bucket.to + 1;
  }
  return out;
}

/** The trend's points a year earlier, from one scan of the earlier days. */
function earlierSeries(columns: VisitColumns, keep: Uint8Array, ranges: readonly DayRange[], series: readonly SeriesPoint[], unit: Granularity): EarlierPoint[] {
  if (ranges.length === 0) return [];
  const back = unit === 'week' ? (day: Day) => day - 364 : yearEarlier;
  const firstDay = back(ranges[0].from);
  const length = back(ranges[ranges.length - 1].to) - firstDay + 1;
  const daily: DailySums = { firstDay, visitors: new Float64Array(length), revenueCents: new Float64Array(length) };
  columns.aggregate(keep, [{ from: firstDay, to: firstDay + length - 1 }], 'best', daily);
  return series.map((point) => {
    const bucket = { from: knownDay(point.start), to: knownDay(point.end) };
    const covered = intersectRanges([bucket], ranges);
    const moved = (covered.length > 0 ? covered : [bucket]).map((r) => ({ from: back(r.from), to: back(r.to) }));
    let visitors = 0;
    let cents = 0;
    if (covered.length > 0) {
      for (const r of moved) {
        for (let d = r.from; d <= r.to; d += 1) {
          visitors += daily.visitors[d - firstDay];
          cents += daily.revenueCents[d - firstDay];
        }
      }
    }
    return { ...spanText(moved), visitors, revenue: cents / 100 };
  });
}

export function summarize(columns: VisitColumns, selection: Selection, options: SummaryOptions = {}): Summary {
  const keep = columns.keepMask(selection.museums, selection.channels, selection.districts);
  const ranges = datesIn(columns, selection);
  const length = ranges.length > 0 ? ranges[ranges.length - 1].to - ranges[0].from + 1 : 0;
  const unit = options.granularity ?? autoGranularity(length);
  const daily: DailySums | undefined =
    unit === 'month' || ranges.length === 0
      ? undefined
      : { firstDay: ranges[0].from, visitors: new Float64Array(length), revenueCents: new Float64Array(length) };
  const scan = columns.aggregate(keep, ranges, 'best', daily);
  const series = seriesOf(ranges, unit, scan, daily, options);
  return {
    range: ranges.length > 0 ? { start: formatDay(ranges[0].from), end: formatDay(ranges[ranges.length - 1].to) } : null,
    totals: totalsOf(scan),
    previous: previousPeriod(columns, keep, ranges),
    // Every month the selected days touch, zeros included, so the series has no holes.
    monthly: scan.months.map((m) => ({ month: monthLabel(m.month), visitors: m.visitors, revenue: m.revenueCents / 100 })),
    granularity: unit,
    series,
    byMuseum: breakdown(scan, columns.comboMuseum, columns.museums),
    byChannel: breakdown(scan, columns.comboChannel, columns.channels),
    byDistrict: breakdown(scan, columns.comboDistrict, columns.districts),
    ...(options.earlier ? { earlier: earlierSeries(columns, keep, ranges, series, unit) } : {}),
  };
}

const toCents = (major: number) => Math.round(major * 100);

export function percentChange(a: number, b: number): number | null {
  return a === 0 ? null : ((b - a) / a) * 100;
}

function metricChange(x: number, y: number): MetricChange {
  return { a: x, b: y, change: y - x, changePct: percentChange(x, y) };
}

/** Amounts are taken apart in cents: 64072813.01 - 60992416 in units leaves binary noise (3080397.009999998). */
function moneyChange(x: number, y: number): MetricChange {
  return { ...metricChange(x, y), change: (toCents(y) - toCents(x)) / 100 };
}

function compareRows(scanA: Aggregate, scanB: Aggregate, comboCode: Uint32Array, names: readonly string[]): ComparedRow[] {
  const a = sumsBy(scanA, comboCode, names);
  const b = sumsBy(scanB, comboCode, names);
  const keys = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => x.localeCompare(y));
  return keys.map((key) => {
    const va = a.get(key)?.visitors ?? 0;
    const vb = b.get(key)?.visitors ?? 0;
    return { key, a: va, b: vb, change: vb - va, changePct: percentChange(va, vb), revenue: moneyChange(a.get(key)?.revenue ?? 0, b.get(key)?.revenue ?? 0) };
  });
}

/** Two periods side by side under the same filters; the selection's own dates narrow both. */
export function compareSides(columns: VisitColumns, selection: Selection, a: CompareSide, b: CompareSide): Comparison {
  const keep = columns.keepMask(selection.museums, selection.channels, selection.districts);
  const scanOf = (side: CompareSide) => {
    const dates = selection.dates === 'all' ? side.dates : intersectRanges(side.dates, selection.dates);
    return columns.aggregate(keep, datesIn(columns, selection, dates));
  };
  const scanA = scanOf(a);
  const scanB = scanOf(b);
  const totalsA = totalsOf(scanA);
  const totalsB = totalsOf(scanB);
  const bounds = (side: CompareSide) =>
    side.dates.length > 0
      ? { start: formatDay(side.dates[0].from), end: formatDay(side.dates[side.dates.length - 1].to) }
      : { start: null, end: null };
  const perVisitor = (t: Totals) => (t.visitors > 0 ? toCents(t.revenue / t.visitors) / 100 : 0);
  return {
    a: { label: a.label, ...bounds(a), totals: totalsA },
    b: { label: b.label, ...bounds(b), totals: totalsB },
    metrics: {
      visitors: metricChange(totalsA.visitors, totalsB.visitors),
      revenue: moneyChange(totalsA.revenue, totalsB.revenue),
      revenuePerVisitor: moneyChange(perVisitor(totalsA), perVisitor(totalsB)),
    },
    byMuseum: compareRows(scanA, scanB, columns.comboMuseum, columns.museums),
    byChannel: compareRows(scanA, scanB, columns.comboChannel, columns.channels),
  };
}

/** Dropdown values from the permitted rows only. */
export function filterOptions(columns: VisitColumns, access: Access): FilterOptions {
  const keep = columns.keepMask(access.museums, access.channels, 'all');
  const present = (comboCode: Uint32Array, names: readonly string[]) => {
    const seen = new Uint8Array(names.length);
    for (let c = 0; c < keep.length; c += 1) if (keep[c] === 1) seen[comboCode[c]] = 1;
    return names.filter((_, k) => seen[k] === 1).sort((x, y) => x.localeCompare(y));
  };
  return {
    museums: present(columns.comboMuseum, columns.museums),
    channels: present(columns.comboChannel, columns.channels),
    districts: present(columns.comboDistrict, columns.districts),
    years: columns.years(keep),
  };
}

export function selectedRows(columns: VisitColumns, selection: Selection): Iterable<VisitRow> {
  const keep = columns.keepMask(selection.museums, selection.channels, selection.districts);
  return columns.rows(keep, datesIn(columns, selection));
}

/** The first and last day a request names (or, with no dates chosen, the permitted rows cover); null when none. */
export function requestedBounds(columns: VisitColumns, selection: Selection): DayRange | null {
  if (selection.dates !== 'all') {
    return selection.dates.length > 0 ? { from: selection.dates[0].from, to: selection.dates[selection.dates.length - 1].to } : null;
  }
  return columns.span(columns.keepMask(selection.access.museums, selection.access.channels, 'all')) ?? null;
}
