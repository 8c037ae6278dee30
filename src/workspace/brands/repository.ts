import type { Selectable } from 'kysely';
import type { Notices } from '../../platform/notices';
import { outlive } from '../../platform/recent';
import type { WorkspaceRecords } from '../records';
import type { WorkspaceTables } from '../tables';
import { MEMBER_CONFIRM_MS, MEMBER_TOPIC } from '../shared/member';

export interface Brand {
  id: number;
  name: string;
  createdAt: string;
}

export interface BrandRepository {
  /** Every brand when `ids` is undefined, else only those. */
  list(ids: number[] | undefined): Promise<Brand[]>;
  get(id: number): Promise<Brand | undefined>;
  /** Which of `ids` name an existing brand. */
  existing(ids: number[]): Promise<number[]>;
  create(name: string, createdAt: string): Promise<Brand>;
  rename(id: number, name: string): Promise<Brand | undefined>;
  /** A brand that still holds records is kept: 'in-use'. */
  delete(id: number): Promise<'deleted' | 'in-use' | undefined>;
}

type Row = Selectable<WorkspaceTables['brands']>;

const toBrand = (row: Row): Brand => ({ id: row.id, name: row.name, createdAt: row.created_at });

const COLUMNS = ['id', 'name', 'created_at'] as const;

export class SqlBrandRepository implements BrandRepository {
  constructor(
    private readonly records: WorkspaceRecords,
    /** Members' brands change with a brand's deletion: whoever caches members must hear of it. */
    private readonly notices: Notices,
  ) {}

  async list(ids: number[] | undefined) {
    if (ids !== undefined && ids.length === 0) return [];
    const rows = await this.records.db
      .selectFrom('brands')
      .select(COLUMNS)
      .$call((q) => (ids === undefined ? q : q.where('id', 'in', ids)))
      .orderBy('name')
      .orderBy('id')
      .execute();
    return rows.map(toBrand);
  }

  async get(id: number) {
    const row = await this.records.db.selectFrom('brands').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row && toBrand(row);
  }

  async existing(ids: number[]) {
    if (ids.length === 0) return [];
    return (await this.records.db.selectFrom('brands').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  }

  async create(name: string, createdAt: string) {
    return toBrand(await this.records.db.insertInto('brands').values({ name, created_at: createdAt }).returning(COLUMNS).executeTakeFirstOrThrow());
  }

  async rename(id: number, name: string) {
    const row = await this.records.db.updateTable('brands').set({ name }).where('id', '=', id).returning(COLUMNS).executeTakeFirst();
    return row && toBrand(row);
  }

  async delete(id: number) {
    try {
      const result = await this.records.db.deleteFrom('brands').where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return undefined;
    } catch (err) {
      // Content tables reference brands without a cascade, so their rows block the delete.
      if (this.records.engine.isForeignKeyViolation(err)) return 'in-use' as const;
      throw err;
    }
    // The cascade took the brand from its members, whichever they were.
    const since = Date.now();
    if (!(await this.notices.publish({ topic: MEMBER_TOPIC }))) await outlive(since, MEMBER_CONFIRM_MS);
    return 'deleted' as const;
  }
}
