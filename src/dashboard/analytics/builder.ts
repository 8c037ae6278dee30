import { parseDay } from '../dates';
import { dailyGrid } from './grid';
import { monthlyRollup } from './rollup';
import { Dictionary, VisitColumns } from './store';
import type { VisitRow } from '../domain';

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
    const museum = this.museums.code(row.museum);
    const channel = this.channels.code(row.channel);
    const district = this.districts.code(row.district);
    // Exact as a number key while each code stays below 2^16 (2^48 in all); far more
    // distinct names than that would need another key.
    const key = (museum * 0x10000 + channel) * 0x10000 + district;
    let k = this.combos.get(key);
    if (k === undefined) {
      k = this.combos.size;
      this.combos.set(key, k);
      this.comboParts.push(museum, channel, district);
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
    const comboCount = this.combos.size;
    const comboMuseum = new Uint32Array(comboCount);
    const comboChannel = new Uint32Array(comboCount);
    const comboDistrict = new Uint32Array(comboCount);
    for (let k = 0; k < comboCount; k += 1) {
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
      rollup: monthlyRollup({ firstDay, dayStart, comboCount, combo, visitors, revenueCents }),
      grid: dailyGrid({ dayStart, comboMuseum, comboChannel, combo, visitors, revenueCents }),
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
