import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ColumnsBuilder } from '../../../src/dashboard/analytics/builder';
import type { Aggregate, VisitColumns } from '../../../src/dashboard/analytics/store';
import type { VisitRow } from '../../../src/dashboard/domain';
import { formatDay, parseDay, unionRanges } from '../../../src/dashboard/dates';
import { ROWS, columnsOf } from '../fixtures';

const START = parseDay('2024-01-20')!;
const MUSEUMS = ['M1', 'M2', 'M3'];
const CHANNELS = ['Online', 'Box office'];
const DISTRICTS = ['North', 'South'];

/** Dense daily rows (most combinations on most days), so that the monthly rollup is built. */
const denseRows = fc
  .record({
    days: fc.integer({ min: 20, max: 150 }),
    seed: fc.integer(),
    gapEvery: fc.integer({ min: 3, max: 40 }),
  })
  .map(({ days, seed, gapEvery }) => {
    const rows: VisitRow[] = [];
    let s = seed >>> 0;
    const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let d = 0; d < days; d += 1) {
      for (const museum of MUSEUMS) {
        for (const channel of CHANNELS) {
          for (const district of DISTRICTS) {
            if (Math.floor(next() * gapEvery) === 0) continue;
            rows.push({ date: formatDay(START + d), museum, channel, district, visitors: Math.floor(next() * 50), revenue: Math.floor(next() * 10_000) / 100 });
          }
        }
      }
    }
    return rows;
  });

const rangesArb = fc
  .array(fc.tuple(fc.integer({ min: -10, max: 170 }), fc.integer({ min: 0, max: 70 })), { minLength: 1, maxLength: 3 })
  .map((pairs) => unionRanges(pairs.map(([from, length]) => ({ from: START + from, to: START + from + length }))));

const COMBOS = MUSEUMS.length * CHANNELS.length * DISTRICTS.length;
const PAIRS = MUSEUMS.length * CHANNELS.length;
type KeepSpec = { every: true } | { combos: boolean[] } | { pairs: boolean[] };
// Every combination kept, and whole museum × channel pairs kept (what a permission filter
// keeps), are paths of their own, so they are drawn as often as any mix of combinations.
const keepArb: fc.Arbitrary<KeepSpec> = fc.oneof(
  fc.constant({ every: true as const }),
  fc.record({ combos: fc.array(fc.boolean(), { minLength: COMBOS, maxLength: COMBOS }) }),
  fc.record({ pairs: fc.array(fc.boolean(), { minLength: PAIRS, maxLength: PAIRS }) }),
);

function keepOf(columns: VisitColumns, spec: KeepSpec): Uint8Array {
  return Uint8Array.from({ length: columns.comboCount }, (_, c) => {
    if ('every' in spec) return 1;
    if ('combos' in spec) return spec.combos[c] ? 1 : 0;
    return spec.pairs[columns.comboMuseum[c] * CHANNELS.length + columns.comboChannel[c]] ? 1 : 0;
  });
}

function built(rows: readonly VisitRow[]): VisitColumns {
  const builder = new ColumnsBuilder();
  for (const row of rows) builder.add(row);
  return builder.finish();
}

/** Two aggregations agree on every sum: the days, the months, and each combination's figures. */
function expectSameSums(fast: Aggregate, slow: Aggregate) {
  expect(fast.days).toBe(slow.days);
  expect(fast.months).toEqual(slow.months);
  expect([...fast.visitors]).toEqual([...slow.visitors]);
  expect([...fast.revenueCents]).toEqual([...slow.revenueCents]);
  expect([...fast.rows]).toEqual([...slow.rows]);
}

describe('VisitColumns.aggregate', () => {
  it('when whole months are read from the monthly rollup, then every sum equals summing the rows one by one', () => {
    fc.assert(
      fc.property(denseRows, rangesArb, keepArb, (rows, ranges, spec) => {
        const columns = built(rows);
        fc.pre(columns.hasRollup);
        const keep = keepOf(columns, spec);
        const fast = columns.aggregate(keep, ranges, 'rollup');
        const slow = columns.aggregate(keep, ranges, 'rows');
        expectSameSums(fast, slow);
      }),
      { numRuns: 150 },
    );
  });

  it('when sums are read from the daily grid, with or without day totals, then every sum and every day equals summing the rows one by one', () => {
    fc.assert(
      fc.property(denseRows, rangesArb, keepArb, (rows, ranges, spec) => {
        const columns = built(rows);
        fc.pre(columns.hasGrid);
        const keep = keepOf(columns, spec);
        const span = ranges[ranges.length - 1].to - ranges[0].from + 1;
        const daily = () => ({ firstDay: ranges[0].from, visitors: new Float64Array(span), revenueCents: new Float64Array(span) });
        const [gridDays, rowDays] = [daily(), daily()];
        const fast = columns.aggregate(keep, ranges, 'best', gridDays);
        const slow = columns.aggregate(keep, ranges, 'rows', rowDays);
        expectSameSums(fast, slow);
        expect([...gridDays.visitors]).toEqual([...rowDays.visitors]);
        expect([...gridDays.revenueCents]).toEqual([...rowDays.revenueCents]);
        const withoutDays = columns.aggregate(keep, ranges, 'best');
        expect(withoutDays.days).toBe(slow.days);
        expect(withoutDays.months).toEqual(slow.months);
        expect([...withoutDays.rows]).toEqual([...slow.rows]);
      }),
      { numRuns: 150 },
    );
  });

  it('when the data is sparse, then no rollup is built and the rows are summed', () => {
    expect(columnsOf(ROWS).hasRollup).toBe(false);
    expect(columnsOf(ROWS).hasGrid).toBe(false);
  });

  it('when the ranges cover days outside the data, then those days add nothing', () => {
    const columns = columnsOf();
    const keep = new Uint8Array(columns.comboCount).fill(1);
    const agg = columns.aggregate(keep, [{ from: parseDay('2000-01-01')!, to: parseDay('2000-01-31')! }]);
    expect(agg.days).toBe(0);
    expect(agg.months).toEqual([{ month: 2000 * 12, visitors: 0, revenueCents: 0 }]);
  });
});

describe('VisitColumns.span and years', () => {
  it('when only some combinations are kept, then the span and the years are those of their rows', () => {
    const columns = columnsOf();
    const keep = columns.keepMask(new Set(['Gamma Museum']), 'all', 'all');
    expect(columns.span(keep)).toEqual({ from: parseDay('2025-03-01'), to: parseDay('2025-03-01') });
    expect(columns.years(keep)).toEqual([2025]);
    expect(columns.span(new Uint8Array(columns.comboCount))).toBeUndefined();
  });

  it('when the store is empty, then there is no span and no year', () => {
    const columns = new ColumnsBuilder().finish();
    expect(columns.span(new Uint8Array(0))).toBeUndefined();
    expect(columns.years(new Uint8Array(0))).toEqual([]);
    expect(columns.rowCount).toBe(0);
  });
});
