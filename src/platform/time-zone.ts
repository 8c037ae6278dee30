/**
 * IANA time zones, as the runtime's ICU knows them: which names are good, how each is
 * written, and what the clock on the wall says there.
 */

/** The zone's usual spelling (`asia/qatar` → `Asia/Qatar`, `GMT` → `UTC`), or undefined for a name that is none. */
export function canonicalTimeZone(value: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export function isTimeZone(value: string): boolean {
  return canonicalTimeZone(value) !== undefined;
}

/** Every zone a member may choose, in the runtime's order; UTC among them, which the list leaves out. */
export const TIME_ZONES: readonly string[] = Object.freeze([...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])]);

/** A moment as the wall clock reads it in one zone: the day (YYYY-MM-DD) and the minutes since its midnight. */
export interface WallClock {
  day: string;
  minutes: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(timeZone, format);
  }
  return format;
}

export function wallClock(timeZone: string, ms: number): WallClock {
  const parts = Object.fromEntries(formatIn(timeZone).formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** The day before `day` (YYYY-MM-DD), whatever the zone: calendar days are the same everywhere. */
export function dayBefore(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}
