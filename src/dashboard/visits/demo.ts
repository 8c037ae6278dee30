import type { VisitRow } from '../domain';
import { formatDay, knownDay, yearOf, yearRange, type Day } from '../dates';
import type { NewSeason } from '../seasons/repository';

/**
 * A made-up but plausible data set for a first start, so the dashboard has something to
 * show: six museums, four channels, seven visitor districts, with a weekly rhythm (busy
 * Fridays and Saturdays), a winter high season and a summer low, quieter Ramadan days,
 * a busy Eid, school groups on school days only, two museums with a closing day, slow
 * growth year on year and some noise. The same dates always give the same rows.
 */

interface Museum {
  name: string;
  /** Visitors on an ordinary day. */
  daily: number;
  /** Average ticket at the box office. */
  price: number;
  /** Day of the week (0 = Sunday) on which it is closed. */
  closedOn?: number;
}

const MUSEUMS: Museum[] = [
  { name: 'National Museum', daily: 1500, price: 50 },
  { name: 'Museum of Islamic Art', daily: 1150, price: 50 },
  { name: 'Natural History Museum', daily: 900, price: 40 },
  { name: 'Maritime Museum', daily: 520, price: 35, closedOn: 0 },
  { name: 'Heritage Village', daily: 680, price: 20 },
  { name: 'Contemporary Art Gallery', daily: 360, price: 30, closedOn: 1 },
];

const CHANNELS = [
  { name: 'Online', share: 0.34, price: 0.9 },
  { name: 'Box office', share: 0.4, price: 1 },
  { name: 'Partner', share: 0.16, price: 0.8 },
  { name: 'School groups', share: 0.1, price: 0.25 },
];

const DISTRICTS = [
  { name: 'Old Town', share: 0.22 },
  { name: 'Corniche', share: 0.17 },
  { name: 'Al Waha', share: 0.14 },
  { name: 'Harbour', share: 0.12 },
  { name: 'University Quarter', share: 0.1 },
  { name: 'Garden City', share: 0.1 },
  { name: 'Outside the city', share: 0.15 },
];

/** Sunday first; Friday and Saturday are the weekend. */
const WEEKDAY = [0.85, 0.8, 0.85, 0.9, 1.1, 1.45, 1.35];
/** January first: the cool months are the high season. */
const MONTH = [1.25, 1.2, 1.15, 1, 0.85, 0.7, 0.6, 0.65, 0.8, 1, 1.15, 1.3];

/** First and last day of Ramadan by year (approximate, as announced dates vary by a day). */
const RAMADAN: Partial<Record<number, [string, string]>> = {
  2020: ['2020-04-24', '2020-05-23'],
  2021: ['2021-04-13', '2021-05-12'],
  2022: ['2022-04-02', '2022-05-01'],
  2023: ['2023-03-23', '2023-04-20'],
  2024: ['2024-03-11', '2024-04-09'],
  2025: ['2025-03-01', '2025-03-29'],
  2026: ['2026-02-18', '2026-03-19'],
  2027: ['2027-02-08', '2027-03-09'],
  2028: ['2028-01-28', '2028-02-25'],
  2029: ['2029-01-16', '2029-02-13'],
  2030: ['2030-01-06', '2030-02-04'],
};

function ramadanOf(year: number): { from: Day; to: Day } | undefined {
  const dates = RAMADAN[year];
  return dates && { from: knownDay(dates[0]), to: knownDay(dates[1]) };
}

/** mulberry32: small, fast and seedable, so the data set is reproducible. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Three full years before `today`'s year, then the current year up to yesterday (`today` as the dashboard's time zone counts it). */
export function demoPeriod(today: Day): { from: Day; to: Day } {
  return { from: yearRange(yearOf(today) - 3).from, to: today - 1 };
}

function dayFactor(day: Day, firstYear: number): number {
  const date = new Date(day * 86_400_000);
  const year = date.getUTCFullYear();
  let factor = WEEKDAY[date.getUTCDay()] * MONTH[date.getUTCMonth()] * (1 + 0.06 * (year - firstYear));
  const ramadan = ramadanOf(year);
  if (ramadan && day >= ramadan.from && day <= ramadan.to) factor *= 0.65;
  if (ramadan && day > ramadan.to && day <= ramadan.to + 3) factor *= 1.6;
  return factor;
}

function schoolDay(day: Day): boolean {
  const date = new Date(day * 86_400_000);
  const weekday = date.getUTCDay();
  const month = date.getUTCMonth();
  const ramadan = ramadanOf(date.getUTCFullYear());
  const inRamadan = ramadan !== undefined && day >= ramadan.from && day <= ramadan.to;
  return weekday <= 4 && month !== 6 && month !== 7 && !inRamadan;
}

export function* demoVisits(today: Day): Generator<VisitRow> {
  const { from, to } = demoPeriod(today);
  const firstYear = yearOf(from);
  const next = random(20_230_101);
  for (let day = from; day <= to; day += 1) {
    const date = formatDay(day);
    const weekday = new Date(day * 86_400_000).getUTCDay();
    const base = dayFactor(day, firstYear);
    const school = schoolDay(day);
    for (const museum of MUSEUMS) {
      if (museum.closedOn === weekday) continue;
      const museumNoise = 0.85 + next() * 0.3;
      for (const channel of CHANNELS) {
        if (channel.name === 'School groups' && !school) continue;
        for (const district of DISTRICTS) {
          const expected = museum.daily * base * museumNoise * channel.share * district.share;
          const visitors = Math.max(0, Math.round(expected * (0.8 + next() * 0.4)));
          const ticket = museum.price * channel.price * (0.97 + next() * 0.06);
          yield { date, museum: museum.name, channel: channel.name, district: district.name, visitors, revenue: Math.round(visitors * ticket * 100) / 100 };
        }
      }
    }
  }
}

/** Named periods within the demo data, ready to compare: two summers, the winter season, each Ramadan. */
export function demoSeasons(today: Day): NewSeason[] {
  const { from, to } = demoPeriod(today);
  const year = yearOf(today);
  const seasons: NewSeason[] = [
    { name: `Summer ${year - 2}`, startDate: `${year - 2}-06-01`, endDate: `${year - 2}-08-31` },
    { name: `Summer ${year - 1}`, startDate: `${year - 1}-06-01`, endDate: `${year - 1}-08-31` },
    { name: `Winter season ${year - 2}/${String(year - 1).slice(2)}`, startDate: `${year - 2}-11-01`, endDate: `${year - 1}-03-31` },
  ];
  for (let y = yearOf(from); y <= year; y += 1) {
    const ramadan = ramadanOf(y);
    if (ramadan && ramadan.to <= to) seasons.push({ name: `Ramadan ${y}`, startDate: formatDay(ramadan.from), endDate: formatDay(ramadan.to) });
  }
  return seasons.sort((a, b) => a.startDate.localeCompare(b.startDate));
}
