import { firstDayOfMonth, formatDay, monthIndexOf, parseDay, yearOf, yearRange, type Day, type DayRange } from './dates';

/** One visit row as stored: revenue in currency units with at most two decimals. */
export interface VisitRow {
  date: string;
  museum: string;
  channel: string;
  district: string;
  visitors: number;
  revenue: number;
}

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

/** The sums of one aggregation. */
export interface Aggregate {
  /** Per combination (a museum × channel × district that occurs in the data). */
  visitors: Float64Array;
  revenueCents: Float64Array;
  rows: Uint32Array;
  /** Distinct days with at least one matching row. */
  days: number;
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

/**
 * Per calendar month and combination: the sums of its rows, and which days of the month
 * hold one (bit d−1 for day d). Cell (m, k) sits at (m − firstMonth) × comboCount + k.
 */
export interface MonthlyRollup {
  firstMonth: number;
  months: number;
  visitors: Float64Array;
  revenueCents: Float64Array;
  rows: Uint32Array;
  dayBits: Uint32Array;
}

/**
 * Running sums along the days for groups of combinations: cell (g, d) at g × (days + 1) + d
 * holds the sums of days [0, d) of group g, so any span of days of a group is a subtraction.
 */
export interface RunningSums {
  /** Per combination, its group. */
  groupOf: Uint32Array;
  groups: number;
  visitors: Float64Array;
  revenueCents: Float64Array;
  /** Running count of the days on which the group holds a row. */
  rows: Uint32Array;
}

/**
 * The daily grid: running sums per combination (every breakdown's sums over any days), and
 * per coarser group (museum × channel, everything) whose day totals a day series reads. A
 * permission filter keeps whole museum × channel pairs, so a restricted viewer's series is a
 * pass over the days of a few pairs, and an unrestricted one's reads stored totals, instead
 * of every row of every day.
 */
export interface DailyGrid {
  days: number;
  combos: RunningSums;
  /** Coarsest last; a level is left out when it would barely be coarser than the one before. */
  levels: RunningSums[];
}

/** Which stored sums an aggregation may read instead of rows; tests pin one to check it against the rows. */
export type SumsFrom = 'best' | 'rollup' | 'rows';

/** The arrays behind a VisitColumns; ColumnsBuilder makes them. */
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

function bitCount(bits: number): number {
  let v = bits - ((bits >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
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
 * A whole calendar month inside the selected dates is read from the monthly rollup (one
 * cell per combination) instead of its rows; only the days of months cut by the selection
 * are summed row by row. Both paths give the same sums.
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
    const m = this.museumDict.flags(museums);
    const c = this.channelDict.flags(channels);
    const d = this.districtDict.flags(districts);
    const keep = new Uint8Array(this.comboCount);
    for (let k = 0; k < keep.length; k += 1) {
      keep[k] = m[this.comboMuseum[k]] & c[this.comboChannel[k]] & d[this.comboDistrict[k]];
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
    const K = this.comboCount;
    // One allocation for the three arrays: beside a short range's sums, allocating costs.
    const buffer = new ArrayBuffer(K * 20);
    const sums = {
      visitors: new Float64Array(buffer, 0, K),
      revenueCents: new Float64Array(buffer, K * 8, K),
      rows: new Uint32Array(buffer, K * 16, K),
      days: 0,
    };
    if (from === 'best' && this.grid) {
      const months = this.fromGrid(this.grid, keep, ranges, sums, daily);
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
        const part = whole && from !== 'rows' && this.rollup && !daily ? this.fromRollup(m, keep, sums) : this.fromRows(first, last, keep, sums, daily);
        const previous = months[months.length - 1];
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

  private fromRows(from: Day, to: Day, keep: Uint8Array, sums: Omit<Aggregate, 'months'>, daily?: DailySums) {
    const { combo, visitors, revenueCents, dayStart } = this;
    const { visitors: cv, revenueCents: cr, rows: cn } = sums;
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
          const x = visitors[i];
          const y = revenueCents[i];
          cv[c] += x;
          cr[c] += y;
          cn[c] += 1;
          totalVisitors += x;
          totalCents += y;
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

  /**
   * The sums of `ranges` from the grid. Each kept combination's sums are one subtraction.
   * Day and month totals come from running totals at each day of the range, over the kept
   * groups of the coarsest level that the kept combinations fill whole groups of. Days with
   * a row are counted from the running row counts, unless one kept combination holds every
   * day of the range.
   */
  private fromGrid(grid: DailyGrid, keep: Uint8Array, ranges: readonly DayRange[], sums: Omit<Aggregate, 'months'>, daily: DailySums | undefined): MonthSums[] {
    const { days: D, combos } = grid;
    const { visitors: cv, revenueCents: cr, rows: cn } = sums;
    const stride = D + 1;
    const kept: number[] = [];
    for (let c = 0; c < this.comboCount; c += 1) if (keep[c] === 1) kept.push(c);
    const { level, groups } = coarsest(grid, keep);
    const months: MonthSums[] = [];
    for (const range of ranges) {
      const first = Math.min(Math.max(range.from - this.firstDay, 0), D);
      const len = Math.max(Math.min(range.to - this.firstDay + 1, D) - first, 0);
      let everyDay = len === 0;
      for (const c of kept) {
        const base = c * stride + first;
        cv[c] += combos.visitors[base + len] - combos.visitors[base];
        cr[c] += combos.revenueCents[base + len] - combos.revenueCents[base];
        const n = combos.rows[base + len] - combos.rows[base];
        cn[c] += n;
        if (n === len) everyDay = true;
      }
      let tv: Float64Array;
      let tc: Float64Array;
      let tr: Uint32Array | undefined;
      if (groups.length === 1) {
        const base = groups[0] * stride + first;
        tv = level.visitors.subarray(base, base + len + 1);
        tc = level.revenueCents.subarray(base, base + len + 1);
        tr = level.rows.subarray(base, base + len + 1);
      } else {
        tv = new Float64Array(len + 1);
        tc = new Float64Array(len + 1);
        tr = everyDay ? undefined : new Uint32Array(len + 1);
        for (const g of groups) {
          const base = g * stride + first;
          for (let i = 0; i <= len; i += 1) {
            tv[i] += level.visitors[base + i];
            tc[i] += level.revenueCents[base + i];
          }
          if (tr) for (let i = 0; i <= len; i += 1) tr[i] += level.rows[base + i];
        }
      }
      if (everyDay) sums.days += len;
      else for (let i = 0; i < len; i += 1) if (tr![i + 1] > tr![i]) sums.days += 1;
      if (daily) {
        const at = this.firstDay + first - daily.firstDay;
        for (let i = 0; i < len; i += 1) {
          daily.visitors[at + i] += tv[i + 1] - tv[i];
          daily.revenueCents[at + i] += tc[i + 1] - tc[i];
        }
      }
      const offset = (day: Day) => Math.min(Math.max(day - this.firstDay - first, 0), len);
      for (let m = monthIndexOf(range.from); m <= monthIndexOf(range.to); m += 1) {
        const from = offset(Math.max(range.from, firstDayOfMonth(m)));
        const to = offset(Math.min(range.to, firstDayOfMonth(m + 1) - 1) + 1);
        const visitors = tv[to] - tv[from];
        const revenueCents = tc[to] - tc[from];
        const previous = months[months.length - 1];
        if (previous?.month === m) {
          previous.visitors += visitors;
          previous.revenueCents += revenueCents;
        } else {
          months.push({ month: m, visitors, revenueCents });
        }
      }
    }
    return months;
  }

  private fromRollup(month: number, keep: Uint8Array, sums: Omit<Aggregate, 'months'>) {
    const rollup = this.rollup!;
    const m = month - rollup.firstMonth;
    let totalVisitors = 0;
    let totalCents = 0;
    if (m < 0 || m >= rollup.months) return { visitors: 0, revenueCents: 0 };
    const K = this.comboCount;
    const base = m * K;
    let dayBits = 0;
    for (let c = 0; c < K; c += 1) {
      const cell = base + c;
      if (keep[c] !== 1 || rollup.rows[cell] === 0) continue;
      sums.visitors[c] += rollup.visitors[cell];
      sums.revenueCents[c] += rollup.revenueCents[cell];
      sums.rows[c] += rollup.rows[cell];
      totalVisitors += rollup.visitors[cell];
      totalCents += rollup.revenueCents[cell];
      dayBits |= rollup.dayBits[cell];
    }
    sums.days += bitCount(dayBits);
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

/** Grows typed arrays as rows arrive, then freezes them into a VisitColumns. */
export class ColumnsBuilder {
  private readonly museums = new Dictionary();
  private readonly channels = new Dictionary();
  private readonly districts = new Dictionary();
  private readonly combos = new Map<number, number>();
  private comboParts: number[] = [];
  private day = new Int32Array(0);
  private combo = new Uint32Array(0);
  private visitors = new Uint32Array(0);
  private revenue = new Float64Array(0);
  private length = 0;
  private lastDate = '';
  private lastDay = 0;
  private sorted = true;

  constructor(capacity = 1024) {
    this.grow(Math.max(capacity, 16));
  }

  add(row: VisitRow): void {
    if (this.length === this.combo.length) this.grow(this.length * 2);
    if (row.date !== this.lastDate) {
      const day = parseDay(row.date);
      if (day === undefined) throw new Error(`stored visit row has an invalid date: ${row.date}`);
      if (this.length > 0 && day < this.lastDay) this.sorted = false;
      this.lastDate = row.date;
      this.lastDay = day;
    }
    const m = this.museums.code(row.museum);
    const c = this.channels.code(row.channel);
    const d = this.districts.code(row.district);
    // Exact as a number key while each code stays below 2^16 (2^48 in all); far more
    // distinct names than that would need another key.
    const key = (m * 0x10000 + c) * 0x10000 + d;
    let k = this.combos.get(key);
    if (k === undefined) {
      k = this.combos.size;
      this.combos.set(key, k);
      this.comboParts.push(m, c, d);
    }
    const i = this.length;
    this.day[i] = this.lastDay;
    this.combo[i] = k;
    this.visitors[i] = row.visitors;
    this.revenue[i] = Math.round(row.revenue * 100);
    this.length += 1;
  }

  finish(): VisitColumns {
    const n = this.length;
    let order: Uint32Array | undefined;
    if (!this.sorted) {
      order = new Uint32Array(n);
      for (let i = 0; i < n; i += 1) order[i] = i;
      order.sort((a, b) => this.day[a] - this.day[b]);
    }
    const pick = <T extends Uint32Array | Float64Array | Int32Array>(src: T): T => {
      const out = src.slice(0, n) as T;
      if (order) for (let i = 0; i < n; i += 1) out[i] = src[order[i]];
      return out;
    };
    const day = pick(this.day);
    const firstDay = n > 0 ? day[0] : 0;
    const numDays = n > 0 ? day[n - 1] - firstDay + 1 : 0;
    const dayStart = new Uint32Array(numDays + 1);
    for (let i = 0; i < n; i += 1) dayStart[day[i] - firstDay + 1] += 1;
    for (let d = 0; d < numDays; d += 1) dayStart[d + 1] += dayStart[d];
    const K = this.combos.size;
    const comboMuseum = new Uint32Array(K);
    const comboChannel = new Uint32Array(K);
    const comboDistrict = new Uint32Array(K);
    for (let k = 0; k < K; k += 1) {
      comboMuseum[k] = this.comboParts[k * 3];
      comboChannel[k] = this.comboParts[k * 3 + 1];
      comboDistrict[k] = this.comboParts[k * 3 + 2];
    }
    const combo = pick(this.combo);
    const visitors = pick(this.visitors);
    const revenueCents = pick(this.revenue);
    return new VisitColumns({
      museums: this.museums,
      channels: this.channels,
      districts: this.districts,
      comboMuseum,
      comboChannel,
      comboDistrict,
      combo,
      visitors,
      revenueCents,
      firstDay,
      dayStart,
      rollup: buildRollup(firstDay, dayStart, K, combo, visitors, revenueCents),
      grid: buildGrid(dayStart, { comboMuseum, comboChannel, combo, visitors, revenueCents }),
    });
  }

  private grow(capacity: number): void {
    const copy = <T extends Uint32Array | Float64Array | Int32Array>(src: T, make: (n: number) => T): T => {
      const out = make(capacity);
      out.set(src.subarray(0, this.length));
      return out;
    };
    this.day = copy(this.day, (c) => new Int32Array(c));
    this.combo = copy(this.combo, (c) => new Uint32Array(c));
    this.visitors = copy(this.visitors, (c) => new Uint32Array(c));
    this.revenue = copy(this.revenue, (c) => new Float64Array(c));
  }
}

/** The coarsest level whose groups the kept combinations fill whole or leave whole, and the kept groups. */
function coarsest(grid: DailyGrid, keep: Uint8Array): { level: RunningSums; groups: number[] } {
  for (let l = grid.levels.length - 1; l >= 0; l -= 1) {
    const level = grid.levels[l];
    const state = new Int8Array(level.groups).fill(-1);
    let whole = true;
    for (let c = 0; c < keep.length && whole; c += 1) {
      const g = level.groupOf[c];
      if (state[g] === -1) state[g] = keep[c];
      else whole = state[g] === keep[c];
    }
    if (whole) return { level, groups: keptGroups(state) };
  }
  return { level: grid.combos, groups: keptGroups(keep) };
}

function keptGroups(flags: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let g = 0; g < flags.length; g += 1) if (flags[g] === 1) out.push(g);
  return out;
}

function runningSums(groupOf: Uint32Array, groups: number, days: number): RunningSums {
  const cells = groups * (days + 1);
  return { groupOf, groups, visitors: new Float64Array(cells), revenueCents: new Float64Array(cells), rows: new Uint32Array(cells) };
}

/**
 * The grid, when the data is dense enough for it to cost little beside the rows (each row
 * one cell, at most a quarter of the cells empty). A combination holds one row a day (the
 * store's key); a group's day counts once however many rows it holds.
 */
function buildGrid(dayStart: Uint32Array, parts: Pick<ColumnParts, 'comboMuseum' | 'comboChannel' | 'combo' | 'visitors' | 'revenueCents'>): DailyGrid | undefined {
  const { comboMuseum, comboChannel, combo, visitors, revenueCents } = parts;
  const D = dayStart.length - 1;
  const K = comboMuseum.length;
  if (D === 0 || K * D > combo.length * 1.25) return undefined;
  const stride = D + 1;
  const pairs = new Map<number, number>();
  const pairOf = Uint32Array.from(comboMuseum, (museum, c) => {
    const key = museum * 0x10000 + comboChannel[c];
    if (!pairs.has(key)) pairs.set(key, pairs.size);
    return pairs.get(key)!;
  });
  const grid: DailyGrid = {
    days: D,
    combos: runningSums(Uint32Array.from(comboMuseum, (_, c) => c), K, D),
    levels: [...(pairs.size * 2 <= K ? [runningSums(pairOf, pairs.size, D)] : []), runningSums(new Uint32Array(K), 1, D)],
  };
  // Each day's own figures first, in the cell after it; the running sums after.
  for (const level of [grid.combos, ...grid.levels]) {
    const { groupOf, visitors: lv, revenueCents: lc, rows: lr } = level;
    for (let d = 0; d < D; d += 1) {
      for (let i = dayStart[d]; i < dayStart[d + 1]; i += 1) {
        const cell = groupOf[combo[i]] * stride + d + 1;
        lv[cell] += visitors[i];
        lc[cell] += revenueCents[i];
        lr[cell] = 1;
      }
    }
    for (let g = 0; g < level.groups; g += 1) {
      for (const array of [level.visitors, level.revenueCents, level.rows]) {
        for (let cell = g * stride + 1; cell < (g + 1) * stride; cell += 1) array[cell] += array[cell - 1];
      }
    }
  }
  return grid;
}

function buildRollup(
  firstDay: Day,
  dayStart: Uint32Array,
  K: number,
  combo: Uint32Array,
  visitors: Uint32Array,
  revenueCents: Float64Array,
): MonthlyRollup | undefined {
  const numDays = dayStart.length - 1;
  if (numDays === 0) return undefined;
  const firstMonth = monthIndexOf(firstDay);
  const months = monthIndexOf(firstDay + numDays - 1) - firstMonth + 1;
  if (months * K > combo.length) return undefined;
  const rollup: MonthlyRollup = {
    firstMonth,
    months,
    visitors: new Float64Array(months * K),
    revenueCents: new Float64Array(months * K),
    rows: new Uint32Array(months * K),
    dayBits: new Uint32Array(months * K),
  };
  let month = firstMonth;
  let nextMonthStart = firstDayOfMonth(month + 1);
  let monthStart = firstDayOfMonth(month);
  for (let d = 0; d < numDays; d += 1) {
    const day = firstDay + d;
    if (day >= nextMonthStart) {
      month = monthIndexOf(day);
      monthStart = firstDayOfMonth(month);
      nextMonthStart = firstDayOfMonth(month + 1);
    }
    const base = (month - firstMonth) * K;
    const bit = (1 << (day - monthStart)) >>> 0;
    for (let i = dayStart[d]; i < dayStart[d + 1]; i += 1) {
      const cell = base + combo[i];
      rollup.visitors[cell] += visitors[i];
      rollup.revenueCents[cell] += revenueCents[i];
      rollup.rows[cell] += 1;
      rollup.dayBits[cell] |= bit;
    }
  }
  return rollup;
}
