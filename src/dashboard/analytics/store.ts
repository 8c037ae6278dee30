import { firstDayOfMonth, formatDay, monthIndexOf, yearOf, yearRange, type Day, type DayRange } from '../dates';
import { addFromGrid, type DailyGrid } from './grid';
import { addRollupMonth, type MonthlyRollup } from './rollup';
import type { VisitRow } from '../domain';

/** Which values of one dimension pass: every one, or exactly these. */
export type NameSet = 'all' | ReadonlySet<string>;

export interface MonthSums {
  /** Months since year 0 (see monthIndexOf). */
  month: number;
  visitors: number;
  revenueCents: number;
}

/** Totals per day from `firstDay` on, filled by an aggregation that is asked for them. */
export interface DailySums {
  firstDay: Day;
  visitors: Float64Array;
  revenueCents: Float64Array;
}

/** The sums of one aggregation, per combination and in all. */
export interface Sums {
  /** Per combination (a museum × channel × district that occurs in the data). */
  visitors: Float64Array;
  revenueCents: Float64Array;
  rows: Uint32Array;
  /** Distinct days with at least one matching row. */
  days: number;
}

/** The sums of one aggregation, with its months. */
export interface Aggregate extends Sums {
  /** Every month the days touch, in order, zeros included. */
  months: MonthSums[];
}

export class Dictionary {
  readonly names: string[] = [];
  private readonly codes = new Map<string, number>();

  code(name: string): number {
    let code = this.codes.get(name);
    if (code === undefined) {
      code = this.names.length;
      this.names.push(name);
      this.codes.set(name, code);
    }
    return code;
  }

  /** One flag per code: which names pass. */
  flags(set: NameSet): Uint8Array {
    const flags = new Uint8Array(this.names.length);
    if (set === 'all') return flags.fill(1);
    for (const name of set) {
      const code = this.codes.get(name);
      if (code !== undefined) flags[code] = 1;
    }
    return flags;
  }
}

/** Which stored sums an aggregation may read instead of rows; tests pin one to check it against the rows. */
export type SumsFrom = 'best' | 'rollup' | 'rows';

/** The arrays behind a VisitColumns; ColumnsBuilder (builder.ts) makes them. */
export interface ColumnParts {
  museums: Dictionary;
  channels: Dictionary;
  districts: Dictionary;
  /** Per combination: its museum, channel and district code. */
  comboMuseum: Uint32Array;
  comboChannel: Uint32Array;
  comboDistrict: Uint32Array;
  /** Per row, ordered by day. */
  combo: Uint32Array;
  visitors: Uint32Array;
  revenueCents: Float64Array;
  /** Day of dayStart[0]; rows of day d are [dayStart[d − firstDay], dayStart[d − firstDay + 1]). */
  firstDay: Day;
  dayStart: Uint32Array;
  /** Absent when the data is too sparse for it to pay (more cells than rows). */
  rollup: MonthlyRollup | undefined;
  /** Absent when the data is too sparse for it to pay (a quarter more cells than rows). */
  grid: DailyGrid | undefined;
}

/**
 * The visit rows held in memory column by column, for aggregations over any filter.
 *
 * Rows are ordered by day, and `dayStart` gives where each day begins, so a date filter is
 * a set of contiguous slices rather than a test per row. Museum, channel and district are
 * dictionary-encoded, and each row carries one code for its (museum, channel, district)
 * combination: a filter on any of the three becomes one lookup per row in a small flag
 * array, and per-combination sums give every breakdown afterwards.
 *
 * A dense store answers from its daily grid (grid.ts); otherwise a whole calendar month
 * inside the selected dates is read from the monthly rollup (rollup.ts, one cell per
 * combination) instead of its rows, and only the days of months cut by the selection are
 * summed row by row. Every path gives the same sums.
 */
export class VisitColumns {
  readonly comboMuseum: Uint32Array;
  readonly comboChannel: Uint32Array;
  readonly comboDistrict: Uint32Array;
  readonly combo: Uint32Array;
  readonly visitors: Uint32Array;
  readonly revenueCents: Float64Array;
  readonly firstDay: Day;
  readonly dayStart: Uint32Array;
  private readonly rollup: MonthlyRollup | undefined;
  private readonly grid: DailyGrid | undefined;
  private readonly museumDict: Dictionary;
  private readonly channelDict: Dictionary;
  private readonly districtDict: Dictionary;

  constructor(parts: ColumnParts) {
    this.museumDict = parts.museums;
    this.channelDict = parts.channels;
    this.districtDict = parts.districts;
    this.comboMuseum = parts.comboMuseum;
    this.comboChannel = parts.comboChannel;
    this.comboDistrict = parts.comboDistrict;
    this.combo = parts.combo;
    this.visitors = parts.visitors;
    this.revenueCents = parts.revenueCents;
    this.firstDay = parts.firstDay;
    this.dayStart = parts.dayStart;
    this.rollup = parts.rollup;
    this.grid = parts.grid;
  }

  get museums(): readonly string[] {
    return this.museumDict.names;
  }
  get channels(): readonly string[] {
    return this.channelDict.names;
  }
  get districts(): readonly string[] {
    return this.districtDict.names;
  }
  get rowCount(): number {
    return this.combo.length;
  }
  get comboCount(): number {
    return this.comboMuseum.length;
  }
  /** The last day that holds rows; below firstDay when there are none. */
  get lastDay(): Day {
    return this.firstDay + this.dayStart.length - 2;
  }
  get hasRollup(): boolean {
    return this.rollup !== undefined;
  }
  get hasGrid(): boolean {
    return this.grid !== undefined;
  }

  /** Which combinations pass all three dimension filters. */
  keepMask(museums: NameSet, channels: NameSet, districts: NameSet): Uint8Array {
    const museumPasses = this.museumDict.flags(museums);
    const channelPasses = this.channelDict.flags(channels);
    const districtPasses = this.districtDict.flags(districts);
    const keep = new Uint8Array(this.comboCount);
    for (let k = 0; k < keep.length; k += 1) {
      keep[k] = museumPasses[this.comboMuseum[k]] & channelPasses[this.comboChannel[k]] & districtPasses[this.comboDistrict[k]];
    }
    return keep;
  }

  /**
   * Sums the rows of kept combinations on the given days (sorted, non-overlapping); `daily`
   * also collects the totals of each day. The daily grid answers when the data is dense
   * enough to have one; else whole months come from the monthly rollup (which holds no day
   * totals) and the rest from rows. Every path gives the same sums.
   */
  aggregate(keep: Uint8Array, ranges: readonly DayRange[], from: SumsFrom = 'best', daily?: DailySums): Aggregate {
    const comboCount = this.comboCount;
    // One allocation for the three arrays: beside a short range's sums, allocating costs.
    const buffer = new ArrayBuffer(comboCount * 20);
    const sums: Sums = {
      visitors: new Float64Array(buffer, 0, comboCount),
      revenueCents: new Float64Array(buffer, comboCount * 8, comboCount),
      rows: new Uint32Array(buffer, comboCount * 16, comboCount),
      days: 0,
    };
    if (from === 'best' && this.grid) {
      const months = addFromGrid(this.grid, this.firstDay, keep, ranges, sums, daily);
      return { ...sums, months };
    }
    const months: MonthSums[] = [];
    for (const range of ranges) {
      for (let m = monthIndexOf(range.from); m <= monthIndexOf(range.to); m += 1) {
        const monthFirst = firstDayOfMonth(m);
        const monthLast = firstDayOfMonth(m + 1) - 1;
        const first = Math.max(range.from, monthFirst);
        const last = Math.min(range.to, monthLast);
        const whole = first === monthFirst && last === monthLast;
        const part = whole && from !== 'rows' && this.rollup && !daily ? addRollupMonth(this.rollup, m, keep, sums) : this.fromRows(first, last, keep, sums, daily);
        const previous = months.at(-1);
        if (previous?.month === m) {
          previous.visitors += part.visitors;
          previous.revenueCents += part.revenueCents;
        } else {
          months.push({ month: m, visitors: part.visitors, revenueCents: part.revenueCents });
        }
      }
    }
    return { ...sums, months };
  }

  private fromRows(from: Day, to: Day, keep: Uint8Array, sums: Sums, daily?: DailySums) {
    const { combo, visitors, revenueCents, dayStart } = this;
    const { visitors: comboVisitors, revenueCents: comboCents, rows: comboRows } = sums;
    const first = Math.max(from - this.firstDay, 0);
    const last = Math.min(to - this.firstDay, dayStart.length - 2);
    let totalVisitors = 0;
    let totalCents = 0;
    for (let d = first; d <= last; d += 1) {
      let n = 0;
      const visitorsBefore = totalVisitors;
      const centsBefore = totalCents;
      const end = dayStart[d + 1];
      for (let i = dayStart[d]; i < end; i += 1) {
        const c = combo[i];
        if (keep[c] === 1) {
          const rowVisitors = visitors[i];
          const rowCents = revenueCents[i];
          comboVisitors[c] += rowVisitors;
          comboCents[c] += rowCents;
          comboRows[c] += 1;
          totalVisitors += rowVisitors;
          totalCents += rowCents;
          n += 1;
        }
      }
      if (n > 0) sums.days += 1;
      if (daily && n > 0) {
        const at = this.firstDay + d - daily.firstDay;
        daily.visitors[at] += totalVisitors - visitorsBefore;
        daily.revenueCents[at] += totalCents - centsBefore;
      }
    }
    return { visitors: totalVisitors, revenueCents: totalCents };
  }

  /** The rows of kept combinations on the given days, in date order. */
  *rows(keep: Uint8Array, ranges: readonly DayRange[]): Generator<VisitRow> {
    const numDays = this.dayStart.length - 1;
    for (const range of ranges) {
      const from = Math.max(range.from - this.firstDay, 0);
      const to = Math.min(range.to - this.firstDay, numDays - 1);
      for (let d = from; d <= to; d += 1) {
        const date = formatDay(this.firstDay + d);
        for (let i = this.dayStart[d]; i < this.dayStart[d + 1]; i += 1) {
          const c = this.combo[i];
          if (keep[c] !== 1) continue;
          yield {
            date,
            museum: this.museumDict.names[this.comboMuseum[c]],
            channel: this.channelDict.names[this.comboChannel[c]],
            district: this.districtDict.names[this.comboDistrict[c]],
            visitors: this.visitors[i],
            revenue: this.revenueCents[i] / 100,
          };
        }
      }
    }
  }

  /** First and last day holding a row of a kept combination; undefined when none does. */
  span(keep: Uint8Array): DayRange | undefined {
    const n = this.rowCount;
    let first = 0;
    while (first < n && keep[this.combo[first]] !== 1) first += 1;
    if (first === n) return undefined;
    let last = n - 1;
    while (keep[this.combo[last]] !== 1) last -= 1;
    return { from: this.dayOfRow(first), to: this.dayOfRow(last) };
  }

  private dayOfRow(row: number): Day {
    let lo = 0;
    let hi = this.dayStart.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.dayStart[mid] <= row) lo = mid;
      else hi = mid - 1;
    }
    return this.firstDay + lo;
  }

  /** Years holding at least one row of a kept combination. */
  years(keep: Uint8Array): number[] {
    if (this.rowCount === 0) return [];
    const out: number[] = [];
    for (let year = yearOf(this.firstDay); year <= yearOf(this.lastDay); year += 1) {
      const { from, to } = yearRange(year);
      const start = this.dayStart[Math.max(from - this.firstDay, 0)];
      const end = this.dayStart[Math.min(to - this.firstDay + 1, this.dayStart.length - 1)];
      for (let i = start; i < end; i += 1) {
        if (keep[this.combo[i]] === 1) {
          out.push(year);
          break;
        }
      }
    }
    return out;
  }
}

