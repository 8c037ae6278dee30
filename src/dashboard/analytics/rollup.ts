import { firstDayOfMonth, monthIndexOf, type Day } from '../dates';
import type { Sums } from './store';

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

/** The rows of a store as `monthlyRollup` reads them: ordered by day, each with its combination. */
export interface DayOrderedRows {
  firstDay: Day;
  dayStart: Uint32Array;
  comboCount: number;
  combo: Uint32Array;
  visitors: Uint32Array;
  revenueCents: Float64Array;
}

function bitCount(bits: number): number {
  let v = bits - ((bits >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The rollup, unless the data is too sparse for it to pay (more cells than rows). */
export function monthlyRollup({ firstDay, dayStart, comboCount, combo, visitors, revenueCents }: DayOrderedRows): MonthlyRollup | undefined {
  const numDays = dayStart.length - 1;
  if (numDays === 0) return undefined;
  const firstMonth = monthIndexOf(firstDay);
  const months = monthIndexOf(firstDay + numDays - 1) - firstMonth + 1;
  const cells = months * comboCount;
  if (cells > combo.length) return undefined;
  const rollup: MonthlyRollup = {
    firstMonth,
    months,
    visitors: new Float64Array(cells),
    revenueCents: new Float64Array(cells),
    rows: new Uint32Array(cells),
    dayBits: new Uint32Array(cells),
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
    const base = (month - firstMonth) * comboCount;
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

/** Adds one whole month of the kept combinations to `sums`; answers the month's totals. */
export function addRollupMonth(rollup: MonthlyRollup, month: number, keep: Uint8Array, sums: Sums): { visitors: number; revenueCents: number } {
  const monthAt = month - rollup.firstMonth;
  let totalVisitors = 0;
  let totalCents = 0;
  if (monthAt < 0 || monthAt >= rollup.months) return { visitors: 0, revenueCents: 0 };
  const comboCount = keep.length;
  const base = monthAt * comboCount;
  let dayBits = 0;
  for (let c = 0; c < comboCount; c += 1) {
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
