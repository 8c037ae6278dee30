import type { RecordsDb } from '../../platform/db/engine';
import type { DashboardTables } from '../tables';
import type { VisitRow } from './columns';

export interface Season {
  id: number;
  name: string;
  /** YYYY-MM-DD, inclusive. */
  startDate: string;
  endDate: string;
}

export type NewSeason = Omit<Season, 'id'>;

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

export interface SeasonRepository {
  list(): Promise<Season[]>;
  get(id: number): Promise<Season | undefined>;
  create(input: NewSeason): Promise<Season>;
  update(id: number, input: NewSeason): Promise<Season | undefined>;
  delete(id: number): Promise<boolean>;
}

const KEY = ['date', 'museum', 'channel', 'district'] as const;
const COLUMNS = [...KEY, 'visitors', 'revenue'] as const;
const BUMP_VERSION = 'UPDATE visits_version SET version = version + 1 WHERE id = 1';

const valuesOf = (r: VisitRow) => [r.date, r.museum, r.channel, r.district, r.visitors, r.revenue] as const;

/** A row as either engine hands it over (COPY's text from PostgreSQL), with its numbers as numbers. */
const toVisit = ([date, museum, channel, district, visitors, revenue]: unknown[]): VisitRow => ({
  date: date as string,
  museum: museum as string,
  channel: channel as string,
  district: district as string,
  visitors: Number(visitors),
  revenue: Number(revenue),
});

export class SqlVisitRepository implements VisitRepository {
  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async count(): Promise<number> {
    const row = await this.records.db.selectFrom('visits').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
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

interface SeasonRow {
  id: number;
  name: string;
  start_date: string;
  end_date: string;
}

function toSeason(row: SeasonRow): Season {
  return { id: row.id, name: row.name, startDate: row.start_date, endDate: row.end_date };
}

const SEASON_COLUMNS = ['id', 'name', 'start_date', 'end_date'] as const;

export class SqlSeasonRepository implements SeasonRepository {
  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async list(): Promise<Season[]> {
    return (await this.records.db.selectFrom('seasons').select(SEASON_COLUMNS).orderBy('start_date').orderBy('id').execute()).map(toSeason);
  }

  async get(id: number): Promise<Season | undefined> {
    const row = await this.records.db.selectFrom('seasons').select(SEASON_COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && toSeason(row);
  }

  async create(input: NewSeason): Promise<Season> {
    const row = await this.records.db
      .insertInto('seasons')
      .values({ name: input.name, start_date: input.startDate, end_date: input.endDate })
      .returning(SEASON_COLUMNS)
      .executeTakeFirstOrThrow();
    return toSeason(row);
  }

  async update(id: number, input: NewSeason): Promise<Season | undefined> {
    const row = await this.records.db
      .updateTable('seasons')
      .set({ name: input.name, start_date: input.startDate, end_date: input.endDate })
      .where('id', '=', id)
      .returning(SEASON_COLUMNS)
      .executeTakeFirst();
    return row && toSeason(row);
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.records.db.deleteFrom('seasons').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
