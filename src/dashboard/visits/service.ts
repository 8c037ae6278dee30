import { fileNamePart } from '../../platform/csv';
import { Conflict } from '../../platform/errors';
import { LocalLocks, type Locks } from '../../platform/locks';
import type { Comparison, DataFilters, Summary } from '../analytics/aggregate';
import { accessOf, type Access } from '../analytics/permissions';
import type { AnalyticsService, Viewer } from '../analytics/service';
import type { NameSet } from '../analytics/store';
import type { VisitRow } from '../domain';
import type { AuditTrail } from '../audit/service';
import type { AuditContext } from '../request';
import { formatDay, presetRanges, type DayRange } from '../dates';
import type { FiguresFeed } from '../events/live';
import { csvLine, visitsCsv } from './csv';
import { CsvImport } from './import';
import type { VisitRepository } from './repository';

/** 256 MiB: a few million rows, far above a year of daily figures. */
export const DEFAULT_IMPORT_MAX_BYTES = 256 * 1024 * 1024;

const IMPORT_LOCK = 'dashboard:import';

/** The comparison as the CSV and Excel files hold it: a header, then one line per figure. */
export interface ComparisonTable {
  baseName: string;
  header: string[];
  rows: [section: string, key: string, unit: string, a: number, b: number, change: number, changePct: number | null][];
}

export interface VisitsDeps {
  visits: VisitRepository;
  /** The in-memory figures: what an export holds, and what an import rebuilds. */
  figures: Pick<AnalyticsService, 'selected' | 'summary' | 'today' | 'refresh'>;
  trail: AuditTrail;
  /** ISO 4217 code of the revenue, which the comparison's files name as a unit. */
  currency: string;
  importMaxBytes?: number;
  /** Where the one import slot is held: in this process, or shared by every instance. */
  locks?: Locks;
  /** Where open pages hear that the figures changed. */
  live?: FiguresFeed;
}

/** Query parameters that say how figures are shown, not which: left out of the record of an export. */
const PRESENTATION = new Set(['lang', 'granularity', 'weekStart', 'earlier']);

/** The filters as a request named them (or the saved view it named), as the audit trail keeps them. */
export type NamedFilters = Record<string, unknown>;

/**
 * The visit rows in and out: imports (one at a time, staged, then moved in one transaction)
 * and exports (CSV and Excel, of exactly the rows the figures count). Each import and each
 * export a person asks for is in the audit trail.
 */
export class VisitsService {
  private readonly locks: Locks;
  readonly importMaxBytes: number;

  constructor(private readonly deps: VisitsDeps) {
    this.importMaxBytes = deps.importMaxBytes ?? DEFAULT_IMPORT_MAX_BYTES;
    this.locks = deps.locks ?? new LocalLocks();
  }

  /** Takes the one import slot: imports run one at a time, on every instance, because they share the staging area. */
  async startImport(): Promise<CsvImport> {
    const lease = await this.locks.acquire(IMPORT_LOCK);
    if (!lease) throw new Conflict('Another import is running; try again when it has finished', 'IMPORT_RUNNING');
    const committed = async () => {
      await this.deps.figures.refresh();
      await this.deps.live?.publish({ reason: 'import' });
    };
    return new CsvImport(this.deps.visits, committed, this.importMaxBytes, lease, this.deps.figures.today());
  }

  /** Commits a staged import, and records who imported how many rows. */
  async commitImport(who: AuditContext, job: CsvImport): Promise<{ imported: number }> {
    const result = await job.commit();
    await this.deps.trail.record(who, 'visitsImported', { target: 'visits', after: { rows: result.imported } });
    return result;
  }

  /**
   * Exactly the rows the summary would count, under a file name (without its extension) that
   * says which dates it holds and which values were chosen (`visits_2025-01-01_2025-03-31`,
   * `visits_2025-01-01_2025-03-31_National-Museum`): what the CSV and Excel files hold.
   */
  async exportVisits(viewer: Viewer, filters: DataFilters): Promise<{ baseName: string; rows: Iterable<VisitRow> }> {
    const { bounds, access, rows } = await this.deps.figures.selected(viewer, filters);
    return { baseName: baseNameOf('visits', bounds, chosenParts(filters, access)), rows };
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
    const lastDay = formatDay(presetRanges(this.deps.figures.today()).yearToDate.to);
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

  /**
   * Who exported which figures, and when: the filters as the request named them, and the
   * file it got. Recorded before the file is sent, so an export cut short still counts.
   */
  async recordExport(who: AuditContext, target: 'visits' | 'comparison', format: 'csv' | 'xlsx', fileName: string, named: NamedFilters): Promise<void> {
    const filters = Object.fromEntries(Object.entries(named).filter(([name, value]) => !PRESENTATION.has(name) && value !== '' && value !== undefined));
    await this.deps.trail.record(who, 'dataExported', { target, targetName: fileName, after: { format, ...filters } });
  }

  /** The visits' CSV file of these filters, recorded as exported by `who`. */
  async visitsCsvFor(who: AuditContext, viewer: Viewer, filters: DataFilters, named: NamedFilters): Promise<{ fileName: string; chunks: Iterable<string> }> {
    const file = await this.exportCsv(viewer, filters);
    await this.recordExport(who, 'visits', 'csv', file.fileName, named);
    return file;
  }

  /** The comparison's CSV file, recorded as exported by `who`. */
  async comparisonCsvFor(who: AuditContext, viewer: Viewer, filters: DataFilters, comparison: Comparison, named: NamedFilters): Promise<{ fileName: string; chunks: Iterable<string> }> {
    const file = this.exportComparisonCsv(viewer, filters, comparison, this.deps.currency);
    await this.recordExport(who, 'comparison', 'csv', file.fileName, named);
    return file;
  }

  /** What the visits' Excel file holds (its rows and their summary), recorded as exported by `who`. */
  async visitsWorkbookFor(
    who: AuditContext,
    viewer: Viewer,
    filters: DataFilters,
    named: NamedFilters,
  ): Promise<{ baseName: string; rows: Iterable<VisitRow>; summary: Summary; currency: string }> {
    const [file, summary] = await Promise.all([this.exportVisits(viewer, filters), this.deps.figures.summary(viewer, filters)]);
    await this.recordExport(who, 'visits', 'xlsx', `${file.baseName}.xlsx`, named);
    return { ...file, summary, currency: this.deps.currency };
  }

  /** What the comparison's Excel file holds, recorded as exported by `who`. */
  async comparisonWorkbookFor(
    who: AuditContext,
    viewer: Viewer,
    filters: DataFilters,
    comparison: Comparison,
    named: NamedFilters,
  ): Promise<{ table: ComparisonTable; comparison: Comparison; currency: string }> {
    const table = this.comparisonTable(viewer, filters, comparison, this.deps.currency);
    await this.recordExport(who, 'comparison', 'xlsx', `${table.baseName}.xlsx`, named);
    return { table, comparison, currency: this.deps.currency };
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
