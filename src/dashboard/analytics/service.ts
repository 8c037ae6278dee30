import { NotFound } from '../../platform/errors';
import type { Clock } from '../../platform/clock';
import type { Logger } from '../../platform/logger';
import type { DashboardSession } from '../auth/session-store';
import {
  boundedRange,
  compareSides,
  requestedBounds,
  filterOptions,
  selectedRows,
  selectionOf,
  seasonRange,
  summarize,
  type CompareSide,
  type Comparison,
  type DataFilters,
  type Period,
  type Summary,
  type SummaryOptions,
} from './aggregate';
import { ColumnsBuilder } from './builder';
import type { VisitColumns } from './store';
import type { VisitRow } from '../domain';
import { formatDay, presetRanges, todayIn, yearRange, earlierRange, type Against, type Day, type DayRange, type Preset } from '../dates';
import { accessOf, isRestricted, type Access } from './permissions';
import type { Season } from '../seasons/repository';
import { RecentLook } from '../../platform/recent';

export interface FiltersView {
  museums: string[];
  channels: string[];
  years: number[];
  districts: string[];
  seasons: Season[];
  /** Today in the dashboard's time zone (DASHBOARD_TIMEZONE); data runs to the day before. */
  today: string;
  /** The named ranges the page offers, worked out from `today`. */
  presets: Record<Preset, { from: string; to: string }>;
  /** How much of the data the session sees, so a page can say "2 of 6 museums". */
  access: {
    museums: { visible: number; total: number };
    channels: { visible: number; total: number };
    restricted: boolean;
  };
}

/** Where the figures come from: the store of visit rows (visits/repository.ts). */
export interface VisitSource {
  count(): Promise<number>;
  /** Changes with every write to visits, so a process can tell its copy is stale. */
  version(): Promise<number>;
  /** Every row, ordered by date, handed over in batches so memory stays bounded. */
  scan(onBatch: (rows: VisitRow[]) => void): Promise<void>;
}

/** Where the seasons a filter or a comparison names are read: the seasons service, which keeps its own recent look. */
export interface SeasonSource {
  current(): Promise<Season[]>;
}

export interface AnalyticsDeps {
  visits: VisitSource;
  seasons: SeasonSource;
  logger: Logger;
  clock: Clock;
  /** IANA zone whose wall clock says what "today" is: presets, "yesterday", partial buckets. */
  timeZone: string;
  /**
   * How long a look at the store's version stands before the next request looks again
   * (0: every request). A database across the network costs a round trip per look, which is
   * most of a summary's time; what another instance wrote still shows within it.
   */
  freshForMs?: number;
}

export type Viewer = Pick<DashboardSession, 'role' | 'allowedMuseums' | 'allowedChannels'>;

/** The rows a selection keeps, and what a file of them is named after. */
export interface SelectedVisits {
  /** The days the request asked for, cut to the data; null when nothing bounds them. */
  bounds: DayRange | null;
  access: Access;
  rows: Iterable<VisitRow>;
}

/**
 * The dashboard's data: every read applies the session's permission filter before the
 * user's own filters. Aggregations run on an in-memory columnar copy of the visits, which
 * follows the store's version: rebuilt after an import here, or when another process wrote.
 */
export class AnalyticsService {
  private columns: { version: number; ready: Promise<VisitColumns> } | undefined;
  private readonly versionLook: RecentLook<number>;

  constructor(private readonly deps: AnalyticsDeps) {
    this.versionLook = new RecentLook(deps.freshForMs ?? 0);
  }

  /** The options of the filters; a from/to range narrows the years offered to those it touches. */
  async filters(viewer: Viewer, range: { from?: Day; to?: Day } = {}): Promise<FiltersView> {
    const [columns, seasons] = await Promise.all([this.current(), this.seasons()]);
    const access = accessOf(viewer);
    const options = filterOptions(columns, access);
    const { from, to } = boundedRange(range.from, range.to);
    const today = this.today();
    const presets = Object.fromEntries(
      Object.entries(presetRanges(today)).map(([name, r]) => [name, { from: formatDay(r.from), to: formatDay(r.to) }]),
    ) as FiltersView['presets'];
    return {
      museums: options.museums,
      channels: options.channels,
      years: options.years.filter((y) => yearRange(y).to >= from && yearRange(y).from <= to),
      districts: options.districts,
      seasons,
      today: formatDay(today),
      presets,
      access: {
        museums: { visible: options.museums.length, total: columns.museums.length },
        channels: { visible: options.channels.length, total: columns.channels.length },
        restricted: isRestricted(access),
      },
    };
  }

  /** Every museum the data holds, whoever may see it: what a note may be about. */
  async museums(): Promise<readonly string[]> {
    return (await this.current()).museums;
  }

  async summary(viewer: Viewer, filters: DataFilters, options: Omit<SummaryOptions, 'today'> = {}): Promise<Summary> {
    const [columns, seasons] = await Promise.all([this.current(), this.seasons()]);
    return summarize(columns, selectionOf(accessOf(viewer), filters, seasons), { ...options, today: this.today() });
  }

  /** Today in the dashboard's time zone. */
  today(): Day {
    return todayIn(this.deps.timeZone, this.deps.clock.now());
  }

  async compare(viewer: Viewer, filters: DataFilters, a: Period, b: Period): Promise<Comparison> {
    const [columns, seasons] = await Promise.all([this.current(), this.seasons()]);
    const side = (period: Period): CompareSide => {
      if ('year' in period) return { label: String(period.year), dates: [yearRange(period.year)] };
      if ('from' in period) return { label: `${formatDay(period.from)} – ${formatDay(period.to)}`, dates: [period] };
      const season = seasons.find((s) => s.id === period.seasonId);
      if (!season) throw new NotFound(`No season with id ${period.seasonId}`, 'SEASON_NOT_FOUND');
      return { label: season.name, dates: [seasonRange(season)] };
    };
    return compareSides(columns, selectionOf(accessOf(viewer), filters, seasons), side(a), side(b));
  }

  /**
   * A range (year to date when none is given) against an earlier one of the same length;
   * the range is a side here, so it does not also narrow the filters.
   */
  async compareAgainst(viewer: Viewer, filters: DataFilters, against: Against): Promise<Comparison> {
    const today = this.today();
    const current =
      filters.from !== undefined || filters.to !== undefined ? boundedRange(filters.from, filters.to) : presetRanges(today).yearToDate;
    const open = { ...filters, from: undefined, to: undefined };
    return this.compare(viewer, open, earlierRange(current, against), current);
  }

  /** Exactly the rows the summary would count, in date order. */
  async selected(viewer: Viewer, filters: DataFilters): Promise<SelectedVisits> {
    const [columns, seasons] = await Promise.all([this.current(), this.seasons()]);
    const selection = selectionOf(accessOf(viewer), filters, seasons);
    return { bounds: requestedBounds(columns, selection), access: selection.access, rows: selectedRows(columns, selection) };
  }

  /** Rebuilds the in-memory copy from the store now; reads arriving meanwhile wait for it. */
  async refresh(): Promise<void> {
    this.columns = undefined;
    this.versionLook.forget();
    await this.current();
  }

  private seasons(): Promise<Season[]> {
    return this.deps.seasons.current();
  }

  /** The copy matching the store's current version, building it when it is missing or stale. */
  private async current(): Promise<VisitColumns> {
    const version = await this.versionLook.get(() => this.deps.visits.version());
    if (!this.columns || this.columns.version !== version) {
      const ready = this.build();
      this.columns = { version, ready };
      ready.catch(() => {
        if (this.columns?.ready === ready) this.columns = undefined;
      });
    }
    return this.columns.ready;
  }

  private async build(): Promise<VisitColumns> {
    const started = Date.now();
    const builder = new ColumnsBuilder(await this.deps.visits.count());
    await this.deps.visits.scan((rows) => {
      for (const row of rows) builder.add(row);
    });
    const columns = builder.finish();
    this.deps.logger.info({ rows: columns.rowCount, ms: Date.now() - started }, 'dashboard visits loaded into memory');
    return columns;
  }
}

