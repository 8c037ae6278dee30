import { formatDay, parseDay, yearOf, yearRange, type Day, type DayRange } from './dates';

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

/** Per-combination sums of one scan, plus per-day sums when asked for. */
export interface Scan {
  /** Indexed by combination (museum × channel × district present in the data). */
  visitors: Float64Array;
  revenueCents: Float64Array;
  rows: Uint32Array;
  /** Days with at least one matching row. */
  days: number;
  /** Indexed by day − firstDay; only when the scan was asked for them. */
  daily?: { visitors: Float64Array; revenueCents: Float64Array };
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
 * The visit rows held in memory column by column, for aggregations that touch every row.
 *
 * Rows are ordered by day, and `dayStart` gives where each day begins, so a date filter is
 * a set of contiguous slices rather than a test per row. Museum, channel and district are
 * dictionary-encoded, and each row carries one code for its (museum, channel, district)
 * combination: a filter on any of the three becomes one lookup per row in a small flag
 * array, and per-combination sums give every breakdown afterwards.
 */
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
}

export class VisitColumns {
  readonly comboMuseum: Uint32Array;
  readonly comboChannel: Uint32Array;
  readonly comboDistrict: Uint32Array;
  readonly combo: Uint32Array;
  readonly visitors: Uint32Array;
  readonly revenueCents: Float64Array;
  readonly firstDay: Day;
  readonly dayStart: Uint32Array;
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

  /** Sums the rows of kept combinations on the given days (sorted, non-overlapping). */
  scan(keep: Uint8Array, ranges: readonly DayRange[], withDaily = false): Scan {
    const K = this.comboCount;
    const cv = new Float64Array(K);
    const cr = new Float64Array(K);
    const cn = new Uint32Array(K);
    const numDays = this.dayStart.length - 1;
    const daily = withDaily ? { visitors: new Float64Array(numDays), revenueCents: new Float64Array(numDays) } : undefined;
    const { combo, visitors, revenueCents, dayStart } = this;
    let days = 0;
    for (const range of ranges) {
      const from = Math.max(range.from - this.firstDay, 0);
      const to = Math.min(range.to - this.firstDay, numDays - 1);
      for (let d = from; d <= to; d += 1) {
        let v = 0;
        let r = 0;
        let n = 0;
        const end = dayStart[d + 1];
        for (let i = dayStart[d]; i < end; i += 1) {
          const c = combo[i];
          if (keep[c] === 1) {
            const x = visitors[i];
            const y = revenueCents[i];
            cv[c] += x;
            cr[c] += y;
            cn[c] += 1;
            v += x;
            r += y;
            n += 1;
          }
        }
        if (n > 0) days += 1;
        if (daily) {
          daily.visitors[d] = v;
          daily.revenueCents[d] = r;
        }
      }
    }
    return { visitors: cv, revenueCents: cr, rows: cn, days, daily };
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

  static empty(): VisitColumns {
    return new ColumnsBuilder().finish();
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
    // Each code stays below 2^16 in practice; the key is exact up to 2^53 either way.
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
    return new VisitColumns({
      museums: this.museums,
      channels: this.channels,
      districts: this.districts,
      comboMuseum,
      comboChannel,
      comboDistrict,
      combo: pick(this.combo),
      visitors: pick(this.visitors),
      revenueCents: pick(this.revenue),
      firstDay,
      dayStart,
    });
  }

  private grow(capacity: number): void {
    const copy = <T extends Uint32Array | Float64Array | Int32Array>(src: T, make: (n: number) => T): T => {
      const out = make(capacity);
      out.set(src.subarray(0, this.length) as never);
      return out;
    };
    this.day = copy(this.day, (c) => new Int32Array(c));
    this.combo = copy(this.combo, (c) => new Uint32Array(c));
    this.visitors = copy(this.visitors, (c) => new Uint32Array(c));
    this.revenue = copy(this.revenue, (c) => new Float64Array(c));
  }
}
