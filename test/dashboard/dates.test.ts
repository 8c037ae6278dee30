import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDay, parseDay, todayIn, weekStart } from '../../src/dashboard/dates';

describe('formatDay', () => {
  it('when any day from year 1 to 9999 is formatted, then it reads as the calendar says (as Date writes it)', () => {
    const DAY_MS = 86_400_000;
    const firstDay = new Date('0001-01-01T00:00:00Z').getTime() / DAY_MS;
    const lastDay = new Date('9999-12-31T00:00:00Z').getTime() / DAY_MS;
    fc.assert(
      fc.property(fc.integer({ min: firstDay, max: lastDay }), (day) => {
        expect(formatDay(day)).toBe(new Date(day * DAY_MS).toISOString().slice(0, 10));
      }),
      { numRuns: 5_000 },
    );
  });

  it('when a day the dashboard can hold is formatted again (its text kept), then it reads as the first time', () => {
    const DAY_MS = 86_400_000;
    const firstDay = Date.UTC(1900, 0, 1) / DAY_MS;
    const lastDay = Date.UTC(2100, 11, 31) / DAY_MS;
    for (const day of [firstDay - 1, firstDay, lastDay, lastDay + 1]) {
      expect(formatDay(day)).toBe(new Date(day * DAY_MS).toISOString().slice(0, 10));
      expect(formatDay(day)).toBe(new Date(day * DAY_MS).toISOString().slice(0, 10));
    }
    fc.assert(
      fc.property(fc.integer({ min: firstDay, max: lastDay }), (day) => {
        expect([formatDay(day), formatDay(day)]).toEqual(Array(2).fill(new Date(day * DAY_MS).toISOString().slice(0, 10)));
      }),
      { numRuns: 2_000 },
    );
  });

  it('when the days around leap days and century years are formatted, then each reads back as itself', () => {
    for (const text of ['1900-02-28', '1900-03-01', '2000-02-29', '2000-03-01', '2024-02-29', '2100-02-28', '2100-03-01', '1970-01-01', '1969-12-31', '2026-12-31']) {
      expect(formatDay(parseDay(text)!)).toBe(text);
    }
  });
});

describe('todayIn', () => {
  it.each([
    [Date.UTC(2026, 11, 31, 20, 59), 'Asia/Qatar', '2026-12-31'],
    [Date.UTC(2026, 11, 31, 21, 0), 'Asia/Qatar', '2027-01-01'],
    [Date.UTC(2026, 11, 31, 22, 30), 'Asia/Qatar', '2027-01-01'],
    [Date.UTC(2026, 11, 31, 22, 30), 'UTC', '2026-12-31'],
    [Date.UTC(2027, 0, 1, 3, 0), 'America/New_York', '2026-12-31'],
  ])('when the clock reads %s in %s, then today is %s', (ms, zone, day) => {
    expect(formatDay(todayIn(zone, ms))).toBe(day);
  });
});

describe('weekStart', () => {
  it('when any day is taken, then its Monday and its Sunday start a week of seven days that holds it', () => {
    fc.assert(
      fc.property(fc.integer({ min: parseDay('1900-01-07')!, max: parseDay('2100-12-24')! }), (day) => {
        const monday = weekStart(day, 'monday');
        const sunday = weekStart(day, 'sunday');
        expect(new Date(monday * 86_400_000).getUTCDay()).toBe(1);
        expect(new Date(sunday * 86_400_000).getUTCDay()).toBe(0);
        expect(day - monday).toBeGreaterThanOrEqual(0);
        expect(day - monday).toBeLessThan(7);
        expect(day - sunday).toBeGreaterThanOrEqual(0);
        expect(day - sunday).toBeLessThan(7);
      }),
      { numRuns: 2_000 },
    );
  });
});
