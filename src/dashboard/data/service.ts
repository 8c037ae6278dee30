import type { Readable } from 'node:stream';
import { BadRequest, Conflict, NotFound } from '../../platform/errors';
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
  type Summary,
  type SummaryOptions,
} from './aggregate';
import { ColumnsBuilder, type NameSet, type VisitColumns, type VisitRow } from './columns';
import { csvLine, visitsCsv, readVisitsCsv } from './csv';
import { fileNamePart } from '../../platform/csv';
import { formatDay, parseDay, presetRanges, todayIn, yearRange, earlierRange, type Against, type Day, type DayRange, type Preset } from './dates';
import { accessOf, isRestricted, type Access } from './permissions';
import type { NewSeason, Season, SeasonRepository, VisitRepository } from './repository';
import { LocalLocks, type Lease, type Locks } from '../../platform/locks';
import { RecentLook } from '../../platform/recent';
import type { FiguresChange, FiguresFeed } from '../events/live';

/** One side of a comparison: a calendar year, a season or a range of days. */

/** The comparison as the CSV and Excel files hold it: a header, then one line per figure. */
export interface ComparisonTable {
  baseName: string;
  header: string[];
  rows: [section: string, key: string, unit: string, a: number, b: number, change: number, changePct: number | null][];
}

export type Period = { year: number } | { seasonId: number } | DayRange;

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

/** Rows staged per statement: a few megabytes, and few enough round trips to a database server. */
const STAGE_BATCH_ROWS = 50_000;

/** 256 MiB: a few million rows, far above a year of daily figures. */
export const DEFAULT_IMPORT_MAX_BYTES = 256 * 1024 * 1024;

export interface DataServiceDeps {
  visits: VisitRepository;
  seasons: SeasonRepository;
  logger: Logger;
  clock: Clock;
  /** IANA zone whose wall clock says what "today" is: presets, "yesterday", partial buckets, the import's last day. */
  timeZone: string;
  importMaxBytes?: number;
  /** Where the one import slot is held: in this process, or shared by every instance. */
  locks?: Locks;
  /**
   * How long a look at the store's version and seasons stands before the next request looks
   * again (0: every request). A database across the network costs a round trip per look,
   * which is most of a summary's time; what another instance wrote still shows within it.
   */
  freshForMs?: number;
  /** Where open pages hear that the figures changed. */
  live?: FiguresFeed;
}

const IMPORT_LOCK = 'dashboard:import';

type Viewer = Pick<DashboardSession, 'role' | 'allowedMuseums' | 'allowedChannels'>;

/** An import between upload and commit; holds the one import slot until it ends either way. */
export class CsvImport {
  private rows = 0;
  private ended = false;

  constructor(
    private readonly service: DashboardDataService,
    private readonly visits: VisitRepository,
    private readonly maxBytes: number,
    /** The one import slot; an import that lost it stops before it writes again, as another may have it now. */
    private readonly lease: Lease,
    /** The last day a line may be dated: today in the dashboard's time zone. */
    private readonly lastDay: Day,
  ) {}

  /**
   * Reads and checks the whole file into the staging area; visits are not touched yet. One
   * batch goes in while the next is read, so a database server works while the CSV is parsed.
   */
  async stage(source: Readable): Promise<void> {
    await this.visits.clearStaging();
    let pending: Promise<void> = Promise.resolve();
    const onBatch = async (rows: VisitRow[]) => {
      await pending;
      this.lease.lost.throwIfAborted();
      pending = this.visits.stage(rows);
      // Awaited with the next batch or at the end; until then its failure must not count as unhandled.
      pending.catch(() => undefined);
    };
    try {
      this.rows = await readVisitsCsv(source, { maxBytes: this.maxBytes, batchSize: STAGE_BATCH_ROWS, lastDay: this.lastDay, onBatch });
    } catch (err) {
      // The file's own fault comes first; the batch still going in is let finish before anyone clears the staging area.
      await pending.catch(() => undefined);
      throw err;
    }
    await pending;
  }

  /** Moves the staged rows into visits in one transaction, then refreshes the in-memory copy. */
  async commit(): Promise<{ imported: number }> {
    if (this.ended) throw new Conflict('This import has already ended', 'IMPORT_ENDED');
    this.ended = true;
    try {
      this.lease.lost.throwIfAborted();
      await this.visits.commitStaged();
    } finally {
      await this.lease.release();
    }
    await this.service.refresh();
    await this.service.changed({ reason: 'import' });
    return { imported: this.rows };
  }

  /** Drops whatever was staged; does nothing once the import has ended. */
  async discard(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    try {
      // Another instance may hold the slot now, and the staging area with it.
      if (!this.lease.lost.aborted) await this.visits.clearStaging();
    } finally {
      await this.lease.release();
    }
  }
}

/**
 * The dashboard's data: every read applies the session's permission filter before the
 * user's own filters. Aggregations run on an in-memory columnar copy of the visits, which
 * follows the store's version: rebuilt after an import here, or when another process wrote.
 */
export class DashboardDataService {
  private columns: { version: number; ready: Promise<VisitColumns> } | undefined;
  private readonly versionLook: RecentLook<number>;
  private readonly seasonsLook: RecentLook<Season[]>;
  private readonly locks: Locks;
  readonly importMaxBytes: number;

  constructor(private readonly deps: DataServiceDeps) {
    this.importMaxBytes = deps.importMaxBytes ?? DEFAULT_IMPORT_MAX_BYTES;
    this.locks = deps.locks ?? new LocalLocks();
    this.versionLook = new RecentLook(deps.freshForMs ?? 0);
    this.seasonsLook = new RecentLook(deps.freshForMs ?? 0);
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

  /**
   * Exactly the rows the summary would count, under a file name (without its extension) that
   * says which dates it holds and which values were chosen (`visits_2025-01-01_2025-03-31`,
   * `visits_2025-01-01_2025-03-31_National-Museum`): what the CSV and Excel files hold.
   */
  async exportVisits(viewer: Viewer, filters: DataFilters): Promise<{ baseName: string; rows: Iterable<VisitRow> }> {
    const [columns, seasons] = await Promise.all([this.current(), this.seasons()]);
    const selection = selectionOf(accessOf(viewer), filters, seasons);
    return { baseName: baseNameOf('visits', requestedBounds(columns, selection), chosenParts(filters, selection.access)), rows: selectedRows(columns, selection) };
  }

  /** The visits' CSV text, in chunks (`visits_2025-01-01_2025-03-31.csv`). */
  async exportCsv(viewer: Viewer, filters: DataFilters): Promise<{ fileName: string; chunks: Iterable<string> }> {
    const { baseName, rows } = await this.exportVisits(viewer, filters);
    return { fileName: `${baseName}.csv`, chunks: visitsCsv(rows) };
  }

  /**
   * The comparison as a table to read (not to import): the key figures, then per museum and
   * per channel its visitors and its revenue; each line says its unit, visitors or the dashboard's currency (ISO 4217),
   * beside the two ranges' figures. The comparison's money is already exact to the cent;
   * percentages are cut to one decimal, as the page shows them, not 4.952801431153057.
   * Its name says both ranges and the values chosen, as the visits export's does
   * (`comparison_2024-01-01_2024-03-31_vs_2025-01-01_2025-03-31_Heritage-Village_Online`).
   * Numbers stay numbers; a percentage with nothing to compare with is null.
   */
  comparisonTable(viewer: Viewer, filters: DataFilters, comparison: Comparison, currency: string): ComparisonTable {
    // The page's own last day: the end of its year to date.
    const lastDay = formatDay(presetRanges(this.today()).yearToDate.to);
    const a = shownDates(comparison.a, lastDay);
    const b = shownDates(comparison.b, lastDay);
    const header = (dates: DateText | null, label: string) => (dates ? `${dates.start}..${dates.end}` : label);
    const pct = (value: number | null) => (value === null ? null : roundTenths(value));
    const rows: ComparisonTable['rows'] = [];
    for (const [key, m] of Object.entries(comparison.metrics)) {
      rows.push(['total', key, key === 'visitors' ? 'visitors' : currency, m.a, m.b, m.change, pct(m.changePct)]);
    }
    for (const [section, compared] of [['museum', comparison.byMuseum], ['channel', comparison.byChannel]] as const) {
      for (const r of compared) {
        rows.push([section, r.key, 'visitors', r.a, r.b, r.change, pct(r.changePct)]);
        rows.push([section, r.key, currency, r.revenue.a, r.revenue.b, r.revenue.change, pct(r.revenue.changePct)]);
      }
    }
    const bounds = (dates: DateText | null) => (dates ? `${dates.start}_${dates.end}` : 'all');
    return {
      baseName: baseNameOf(`comparison_${bounds(a)}_vs_${bounds(b)}`, null, chosenParts(filters, accessOf(viewer))),
      header: ['section', 'key', 'unit', header(a, comparison.a.label), header(b, comparison.b.label), 'change', 'change_pct'],
      rows,
    };
  }

  /** The comparison's table as CSV text; a percentage with nothing to compare with is left empty. */
  exportComparisonCsv(viewer: Viewer, filters: DataFilters, comparison: Comparison, currency: string): { fileName: string; chunks: Iterable<string> } {
    const table = this.comparisonTable(viewer, filters, comparison, currency);
    const lines = [csvLine(table.header), ...table.rows.map((row) => csvLine(row.map((cell) => cell ?? '')))];
    return { fileName: `${table.baseName}.csv`, chunks: [lines.join('')] };
  }

  /** Takes the one import slot: imports run one at a time, on every instance, because they share the staging area. */
  async startImport(): Promise<CsvImport> {
    const lease = await this.locks.acquire(IMPORT_LOCK);
    if (!lease) throw new Conflict('Another import is running; try again when it has finished', 'IMPORT_RUNNING');
    return new CsvImport(this, this.deps.visits, this.importMaxBytes, lease, this.today());
  }

  /** Rebuilds the in-memory copy from the store now; reads arriving meanwhile wait for it. */
  async refresh(): Promise<void> {
    this.columns = undefined;
    this.versionLook.forget();
    await this.current();
  }

  async listSeasons(): Promise<Season[]> {
    return this.deps.seasons.list();
  }

  /** Tells open pages that the figures changed, once the change has committed. */
  async changed(change: FiguresChange): Promise<void> {
    await this.deps.live?.publish(change);
  }

  async createSeason(input: NewSeason): Promise<Season> {
    this.seasonsLook.forget();
    const season = await this.deps.seasons.create(checkedSeason(input));
    await this.changed({ reason: 'seasons' });
    return season;
  }

  async updateSeason(id: number, change: Partial<NewSeason>): Promise<Season> {
    const current = await this.deps.seasons.get(id);
    if (!current) throw new NotFound('No such season', 'SEASON_NOT_FOUND');
    this.seasonsLook.forget();
    const updated = await this.deps.seasons.update(id, checkedSeason({ ...current, ...change }));
    if (!updated) throw new NotFound('No such season', 'SEASON_NOT_FOUND');
    await this.changed({ reason: 'seasons' });
    return updated;
  }

  async deleteSeason(id: number): Promise<void> {
    this.seasonsLook.forget();
    if (!(await this.deps.seasons.delete(id))) throw new NotFound('No such season', 'SEASON_NOT_FOUND');
    await this.changed({ reason: 'seasons' });
  }

  /** The seasons as last looked at, looking again once that look is older than `freshForMs`. */
  private seasons(): Promise<Season[]> {
    return this.seasonsLook.get(() => this.deps.seasons.list());
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

/** Halves away from zero, as Intl rounds the page's percentages, so the file and the page agree; -0 is written 0. */
function roundTenths(value: number): number {
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * 10)) / 10;
  return rounded === 0 ? 0 : rounded;
}

interface DateText {
  start: string;
  end: string;
}

/**
 * A side's dates as the Comparison page prints them: a year or season still running ends at
 * the last day with figures (yesterday), so the file and the page name the same days and
 * the file does not claim days nobody has counted yet.
 */
function shownDates({ start, end }: Comparison['a'], lastDay: string): DateText | null {
  if (!start || !end) return null;
  return { start, end: end > lastDay && start <= lastDay ? lastDay : end };
}

function baseNameOf(prefix: string, bounds: DayRange | null, chosen: (string | undefined)[] = []): string {
  const parts = [prefix, ...(bounds ? [formatDay(bounds.from), formatDay(bounds.to)] : []), ...chosen.filter((p) => p !== undefined)];
  return parts.join('_');
}

/** The museums, channels and districts chosen, for a file name. */
function chosenParts(filters: DataFilters, access: Access): (string | undefined)[] {
  return [
    chosenPart(filters.museum, access.museums, 'museums'),
    chosenPart(filters.channel, access.channels, 'channels'),
    chosenPart(filters.district, 'all', 'districts'),
  ];
}

/**
 * The values of one filter that the user chose and may see, for a file name: two by name,
 * more by count; none when nothing of it was chosen (a value the user may not see was
 * dropped from the figures, so it is left out of the name too).
 */
function chosenPart(requested: readonly string[], allowed: NameSet, several: string): string | undefined {
  const kept = [...new Set(requested)].filter((value) => allowed === 'all' || allowed.has(value));
  if (kept.length > 2) return `${kept.length}-${several}`;
  // A value of punctuation alone leaves nothing to name it by.
  const named = kept.map(fileNamePart).filter((part) => part !== '');
  return named.length > 0 ? named.join('+') : undefined;
}

function checkedSeason(season: NewSeason): NewSeason {
  if (parseDay(season.endDate)! < parseDay(season.startDate)!) {
    throw new BadRequest('The end date must not be before the start date', 'SEASON_DATES', {
      issues: [{ path: 'body.endDate', message: 'must not be before startDate' }],
    });
  }
  return { name: season.name, startDate: season.startDate, endDate: season.endDate };
}
