import { firstDayOfMonth, monthIndexOf, type Day, type DayRange } from '../dates';
import type { DailySums, MonthSums, Sums } from './store';

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

/** The rows of a store as `dailyGrid` reads them: ordered by day, each with its combination. */
export interface GridSource {
  dayStart: Uint32Array;
  /** Per combination: its museum and channel code. */
  comboMuseum: Uint32Array;
  comboChannel: Uint32Array;
  combo: Uint32Array;
  visitors: Uint32Array;
  revenueCents: Float64Array;
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
export function dailyGrid({ dayStart, comboMuseum, comboChannel, combo, visitors, revenueCents }: GridSource): DailyGrid | undefined {
  const days = dayStart.length - 1;
  const comboCount = comboMuseum.length;
  if (days === 0 || comboCount * days > combo.length * 1.25) return undefined;
  const stride = days + 1;
  const pairs = new Map<number, number>();
  const pairOf = Uint32Array.from(comboMuseum, (museum, c) => {
    const key = museum * 0x10000 + comboChannel[c];
    let pair = pairs.get(key);
    if (pair === undefined) {
      pair = pairs.size;
      pairs.set(key, pair);
    }
    return pair;
  });
  const grid: DailyGrid = {
    days,
    combos: runningSums(Uint32Array.from(comboMuseum, (_, c) => c), comboCount, days),
    levels: [...(pairs.size * 2 <= comboCount ? [runningSums(pairOf, pairs.size, days)] : []), runningSums(new Uint32Array(comboCount), 1, days)],
  };
  // Each day's own figures first, in the cell after it; the running sums after.
  for (const level of [grid.combos, ...grid.levels]) {
    const { groupOf, visitors: levelVisitors, revenueCents: levelCents, rows: levelRows } = level;
    for (let d = 0; d < days; d += 1) {
      for (let i = dayStart[d]; i < dayStart[d + 1]; i += 1) {
        const cell = groupOf[combo[i]] * stride + d + 1;
        levelVisitors[cell] += visitors[i];
        levelCents[cell] += revenueCents[i];
        levelRows[cell] = 1;
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

/**
 * Adds the sums of `ranges` from the grid (whose day 0 is `firstDay`) to `sums`, and answers
 * the months they touch. Each kept combination's sums are one subtraction. Day and month
 * totals come from running totals at each day of the range, over the kept groups of the
 * coarsest level that the kept combinations fill whole groups of. Days with a row are
 * counted from the running row counts, unless one kept combination holds every day of the
 * range.
 */
export function addFromGrid(grid: DailyGrid, firstDay: Day, keep: Uint8Array, ranges: readonly DayRange[], sums: Sums, daily: DailySums | undefined): MonthSums[] {
  const { days, combos } = grid;
  const { visitors: comboVisitors, revenueCents: comboCents, rows: comboRows } = sums;
  const stride = days + 1;
  const kept: number[] = [];
  for (let c = 0; c < keep.length; c += 1) if (keep[c] === 1) kept.push(c);
  const { level, groups } = coarsest(grid, keep);
  const months: MonthSums[] = [];
  for (const range of ranges) {
    const first = Math.min(Math.max(range.from - firstDay, 0), days);
    const len = Math.max(Math.min(range.to - firstDay + 1, days) - first, 0);
    let everyDay = len === 0;
    for (const c of kept) {
      const base = c * stride + first;
      comboVisitors[c] += combos.visitors[base + len] - combos.visitors[base];
      comboCents[c] += combos.revenueCents[base + len] - combos.revenueCents[base];
      const n = combos.rows[base + len] - combos.rows[base];
      comboRows[c] += n;
      if (n === len) everyDay = true;
    }
    // The kept groups' running totals over the range: cell i holds days [first, first + i).
    let runningVisitors: Float64Array;
    let runningCents: Float64Array;
    // None when every day of the range has a row: then no day needs counting.
    let runningRows: Uint32Array | undefined;
    if (groups.length === 1) {
      const base = groups[0] * stride + first;
      runningVisitors = level.visitors.subarray(base, base + len + 1);
      runningCents = level.revenueCents.subarray(base, base + len + 1);
      runningRows = everyDay ? undefined : level.rows.subarray(base, base + len + 1);
    } else {
      runningVisitors = new Float64Array(len + 1);
      runningCents = new Float64Array(len + 1);
      runningRows = everyDay ? undefined : new Uint32Array(len + 1);
      for (const g of groups) {
        const base = g * stride + first;
        for (let i = 0; i <= len; i += 1) {
          runningVisitors[i] += level.visitors[base + i];
          runningCents[i] += level.revenueCents[base + i];
        }
        if (runningRows) for (let i = 0; i <= len; i += 1) runningRows[i] += level.rows[base + i];
      }
    }
    if (runningRows === undefined) sums.days += len;
    else for (let i = 0; i < len; i += 1) if (runningRows[i + 1] > runningRows[i]) sums.days += 1;
    if (daily) {
      const at = firstDay + first - daily.firstDay;
      for (let i = 0; i < len; i += 1) {
        daily.visitors[at + i] += runningVisitors[i + 1] - runningVisitors[i];
        daily.revenueCents[at + i] += runningCents[i + 1] - runningCents[i];
      }
    }
    const offset = (day: Day) => Math.min(Math.max(day - firstDay - first, 0), len);
    for (let m = monthIndexOf(range.from); m <= monthIndexOf(range.to); m += 1) {
      const from = offset(Math.max(range.from, firstDayOfMonth(m)));
      const to = offset(Math.min(range.to, firstDayOfMonth(m + 1) - 1) + 1);
      const visitors = runningVisitors[to] - runningVisitors[from];
      const revenueCents = runningCents[to] - runningCents[from];
      const previous = months.at(-1);
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
