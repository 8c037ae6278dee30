import type { RecordsDb } from '../../platform/db/engine';
import type { DashboardTables } from '../tables';
import type { VisitRow } from '../domain';

/**
 * Visit rows. The store of record; aggregations run on an in-memory copy built from `scan`.
 * Imports go through a staging area so that visits change in one transaction at the end.
 */
export interface VisitRepository {
  count(): Promise<number>;
  /** Changes with every write to visits, so a process can tell its copy is stale. */
  version(): Promise<number>;
  /** Every row, ordered by date, handed over in batches so memory stays bounded. */
  scan(onBatch: (rows: VisitRow[]) => void, batchSize?: number): Promise<void>;
  /** Adds rows in one transaction; a row with an existing date+museum+channel+district replaces it. */
  upsert(rows: Iterable<VisitRow>): Promise<number>;
  clearStaging(): Promise<void>;
  /** Adds rows to the staging area; a later row with the same key replaces an earlier one. */
  stage(rows: readonly VisitRow[]): Promise<void>;
  /** Moves every staged row into visits in one transaction and empties the staging area. */
  commitStaged(): Promise<number>;
}

const KEY = ['date', 'museum', 'channel', 'district'] as const;
const COLUMNS = [...KEY, 'visitors', 'revenue'] as const;
const BUMP_VERSION = 'UPDATE visits_version SET version = version + 1 WHERE id = 1';

const valuesOf = (r: VisitRow) => [r.date, r.museum, r.channel, r.district, r.visitors, r.revenue] as const;

/** A row as either engine hands it over (COPY's text from PostgreSQL), with its numbers as numbers. */
const toVisit = ([date, museum, channel, district, visitors, revenue]: unknown[]): VisitRow => ({
  date: String(date),
  museum: String(museum),
  channel: String(channel),
  district: String(district),
  visitors: Number(visitors),
  revenue: Number(revenue),
});

export class SqlVisitRepository implements VisitRepository {
  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async count(): Promise<number> {
    const row = await this.records.db.selectFrom('visits').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return row.n;
  }

  async version(): Promise<number> {
    const row = await this.records.db.selectFrom('visits_version').select('version').where('id', '=', 1).executeTakeFirstOrThrow();
    return row.version;
  }

  async scan(onBatch: (rows: VisitRow[]) => void, batchSize = 10_000): Promise<void> {
    await this.records.bulk.read('visits', KEY, COLUMNS, (rows) => onBatch(rows.map(toVisit)), batchSize);
  }

  async upsert(rows: Iterable<VisitRow>): Promise<number> {
    const list = Array.from(rows, valuesOf);
    await this.records.bulk.upsert('visits', KEY, COLUMNS, list, BUMP_VERSION);
    return list.length;
  }

  async clearStaging(): Promise<void> {
    await this.records.bulk.empty('visits_import');
  }

  async stage(rows: readonly VisitRow[]): Promise<void> {
    await this.records.bulk.stage('visits_import', KEY, COLUMNS, rows.map(valuesOf));
  }

  async commitStaged(): Promise<number> {
    const moved = await this.records.bulk.move('visits_import', 'visits', KEY, COLUMNS, BUMP_VERSION);
    // After the commit, and by the quickest way: rows left by a failure here are cleared when the next import starts.
    await this.clearStaging();
    return moved;
  }
}
