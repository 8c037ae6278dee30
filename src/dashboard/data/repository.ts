import { setImmediate } from 'node:timers/promises';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../../platform/sqlite';
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

const COLUMNS = 'date, museum, channel, district, visitors, revenue';
const UPSERT_TAIL =
  'ON CONFLICT (date, museum, channel, district) DO UPDATE SET visitors = excluded.visitors, revenue = excluded.revenue';

export class SqliteVisitRepository implements VisitRepository {
  private readonly statements: { version: Statement; stage: Statement; bump: Statement };

  constructor(private readonly db: Db) {
    // Prepared once: the version is read on every dashboard request, staging runs per batch.
    this.statements = {
      version: db.prepare('SELECT version FROM visits_version WHERE id = 1').pluck(),
      stage: db.prepare(`INSERT INTO visits_import (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ${UPSERT_TAIL}`),
      bump: db.prepare('UPDATE visits_version SET version = version + 1 WHERE id = 1'),
    };
  }

  async count(): Promise<number> {
    return this.db.prepare('SELECT count(*) FROM visits').pluck().get() as number;
  }

  async version(): Promise<number> {
    return this.statements.version.get() as number;
  }

  /**
   * Each batch is its own statement, taken up after the last key of the one before, and the
   * event loop gets a turn between batches: one statement over a million rows held up every
   * other request for about a second and a half, and an open iterator keeps the connection
   * from any other query. A write between batches changes the version, and the reader
   * rebuilds again.
   */
  async scan(onBatch: (rows: VisitRow[]) => void, batchSize = 10_000): Promise<void> {
    const order = 'ORDER BY date, museum, channel, district LIMIT ?';
    const first = this.db.prepare<[number], VisitRow>(`SELECT ${COLUMNS} FROM visits ${order}`);
    const after = this.db.prepare<[string, string, string, string, number], VisitRow>(
      `SELECT ${COLUMNS} FROM visits WHERE (date, museum, channel, district) > (?, ?, ?, ?) ${order}`,
    );
    let batch = first.all(batchSize);
    while (batch.length > 0) {
      onBatch(batch);
      if (batch.length < batchSize) return;
      const last = batch[batch.length - 1];
      await setImmediate();
      batch = after.all(last.date, last.museum, last.channel, last.district, batchSize);
    }
  }

  async upsert(rows: Iterable<VisitRow>): Promise<number> {
    const insert = this.db.prepare(`INSERT INTO visits (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ${UPSERT_TAIL}`);
    return this.db.transaction(() => {
      let n = 0;
      for (const r of rows) {
        insert.run(r.date, r.museum, r.channel, r.district, r.visitors, r.revenue);
        n += 1;
      }
      this.bumpVersion();
      return n;
    })();
  }

  async clearStaging(): Promise<void> {
    this.db.prepare('DELETE FROM visits_import').run();
  }

  async stage(rows: readonly VisitRow[]): Promise<void> {
    const insert = this.statements.stage;
    this.db.transaction(() => {
      for (const r of rows) insert.run(r.date, r.museum, r.channel, r.district, r.visitors, r.revenue);
    })();
  }

  async commitStaged(): Promise<number> {
    return this.db.transaction(() => {
      // "WHERE true" keeps SQLite from reading ON CONFLICT as part of the SELECT.
      const moved = this.db.prepare(`INSERT INTO visits (${COLUMNS}) SELECT ${COLUMNS} FROM visits_import WHERE true ${UPSERT_TAIL}`).run().changes;
      this.db.prepare('DELETE FROM visits_import').run();
      this.bumpVersion();
      return moved;
    })();
  }

  private bumpVersion(): void {
    this.statements.bump.run();
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

export class SqliteSeasonRepository implements SeasonRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<Season[]> {
    return (this.db.prepare('SELECT * FROM seasons ORDER BY start_date, id').all() as SeasonRow[]).map(toSeason);
  }

  async get(id: number): Promise<Season | undefined> {
    const row = this.db.prepare('SELECT * FROM seasons WHERE id = ?').get(id) as SeasonRow | undefined;
    return row && toSeason(row);
  }

  async create(input: NewSeason): Promise<Season> {
    const row = this.db
      .prepare('INSERT INTO seasons (name, start_date, end_date) VALUES (?, ?, ?) RETURNING *')
      .get(input.name, input.startDate, input.endDate) as SeasonRow;
    return toSeason(row);
  }

  async update(id: number, input: NewSeason): Promise<Season | undefined> {
    const row = this.db
      .prepare('UPDATE seasons SET name = ?, start_date = ?, end_date = ? WHERE id = ? RETURNING *')
      .get(input.name, input.startDate, input.endDate, id) as SeasonRow | undefined;
    return row && toSeason(row);
  }

  async delete(id: number): Promise<boolean> {
    return this.db.prepare('DELETE FROM seasons WHERE id = ?').run(id).changes > 0;
  }
}
