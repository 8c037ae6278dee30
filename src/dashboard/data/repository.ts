import { setImmediate } from 'node:timers/promises';
import { sql } from 'kysely';
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

  /**
   * Each batch is its own statement, taken up after the last key of the one before, and the
   * event loop gets a turn between batches: one statement over a million rows held up every
   * other request for about a second and a half, and an open iterator keeps the connection
   * from any other query. A write between batches changes the version, and the reader
   * rebuilds again.
   */
  async scan(onBatch: (rows: VisitRow[]) => void, batchSize = 10_000): Promise<void> {
    let last: VisitRow | undefined;
    for (;;) {
      const after = last;
      const batch = await this.records.db
        .selectFrom('visits')
        .select([...COLUMNS])
        .$if(after !== undefined, (q) => q.where((eb) => eb(eb.refTuple(...KEY), '>', eb.tuple(after!.date, after!.museum, after!.channel, after!.district))))
        .orderBy('date')
        .orderBy('museum')
        .orderBy('channel')
        .orderBy('district')
        .limit(batchSize)
        .execute();
      if (batch.length > 0) onBatch(batch);
      if (batch.length < batchSize) return;
      last = batch[batch.length - 1];
      await setImmediate();
    }
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
    await this.records.bulk.upsert('visits_import', KEY, COLUMNS, rows.map(valuesOf));
  }

  async commitStaged(): Promise<number> {
    const moved = await this.records.db.transaction().execute(async (trx) => {
      const moved = await trx
        .insertInto('visits')
        .columns([...COLUMNS])
        // "WHERE true" keeps SQLite from reading ON CONFLICT as part of the SELECT.
        .expression(trx.selectFrom('visits_import').select([...COLUMNS]).where(sql<boolean>`true`))
        .onConflict((oc) =>
          oc.columns([...KEY]).doUpdateSet((eb) => ({ visitors: eb.ref('excluded.visitors'), revenue: eb.ref('excluded.revenue') })),
        )
        .executeTakeFirst();
      await trx.updateTable('visits_version').set((eb) => ({ version: eb('version', '+', 1) })).where('id', '=', 1).execute();
      return Number(moved.numInsertedOrUpdatedRows ?? 0);
    });
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
