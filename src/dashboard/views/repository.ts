import type { Selectable } from 'kysely';
import { flag, isSet, type RecordsDb } from '../../platform/db/engine';
import type { DashboardTables } from '../tables';
import type { ViewPage } from '../domain';

/** A saved view as stored. */
export interface SavedView {
  id: number;
  name: string;
  page: ViewPage;
  /** The page's address, without `?`. */
  query: string;
  shared: boolean;
  /** null: the administrator PIN, which has no user record. */
  ownerUserId: number | null;
  ownerName: string;
  createdAt: string;
  updatedAt: string;
}

export type NewSavedView = Omit<SavedView, 'id' | 'createdAt' | 'updatedAt'>;
export type SavedViewChange = Partial<Pick<SavedView, 'name' | 'page' | 'query' | 'shared'>>;

export interface SavedViewRepository {
  /** The views of `ownerUserId` (null: the administrator PIN) and every shared view, by name. */
  visibleTo(ownerUserId: number | null): Promise<SavedView[]>;
  get(id: number): Promise<SavedView | undefined>;
  create(view: NewSavedView, at: string): Promise<SavedView>;
  update(id: number, change: SavedViewChange, at: string): Promise<SavedView | undefined>;
  delete(id: number): Promise<boolean>;
}

type Row = Selectable<DashboardTables['saved_views']>;

function toView(row: Row): SavedView {
  return {
    id: row.id,
    name: row.name,
    page: row.page,
    query: row.query,
    shared: isSet(row.shared),
    ownerUserId: row.owner_user_id,
    ownerName: row.owner_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export class SqlSavedViewRepository implements SavedViewRepository {
  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async visibleTo(ownerUserId: number | null): Promise<SavedView[]> {
    const rows = await this.records.db
      .selectFrom('saved_views')
      .selectAll()
      .where((eb) => eb.or([eb('shared', '=', flag(true)), ownerUserId === null ? eb('owner_user_id', 'is', null) : eb('owner_user_id', '=', ownerUserId)]))
      .orderBy('name')
      .orderBy('id')
      .execute();
    return rows.map(toView);
  }

  async get(id: number): Promise<SavedView | undefined> {
    const row = await this.records.db.selectFrom('saved_views').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toView(row);
  }

  async create(view: NewSavedView, at: string): Promise<SavedView> {
    const row = await this.records.db
      .insertInto('saved_views')
      .values({ name: view.name, page: view.page, query: view.query, shared: flag(view.shared), owner_user_id: view.ownerUserId, owner_name: view.ownerName, created_at: at, updated_at: at })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toView(row);
  }

  async update(id: number, change: SavedViewChange, at: string): Promise<SavedView | undefined> {
    const row = await this.records.db
      .updateTable('saved_views')
      .set({
        ...(change.name === undefined ? {} : { name: change.name }),
        ...(change.page === undefined ? {} : { page: change.page }),
        ...(change.query === undefined ? {} : { query: change.query }),
        ...(change.shared === undefined ? {} : { shared: flag(change.shared) }),
        updated_at: at,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toView(row);
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.records.db.deleteFrom('saved_views').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
