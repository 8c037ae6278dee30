import type { Selectable } from 'kysely';
import type { RecordsDb } from '../../platform/db/engine';
import type { DashboardTables } from '../tables';

export interface Season {
  id: number;
  name: string;
  /** YYYY-MM-DD, inclusive. */
  startDate: string;
  endDate: string;
}

export type NewSeason = Omit<Season, 'id'>;

export interface SeasonRepository {
  list(): Promise<Season[]>;
  get(id: number): Promise<Season | undefined>;
  create(input: NewSeason): Promise<Season>;
  update(id: number, input: NewSeason): Promise<Season | undefined>;
  delete(id: number): Promise<boolean>;
}

function toSeason(row: Selectable<DashboardTables['seasons']>): Season {
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
