import type { Db } from '../../platform/sqlite';
import { inList, isForeignKeyViolation } from '../sql';

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

interface Row {
  id: number;
  name: string;
  created_at: string;
}

const toBrand = (row: Row): Brand => ({ id: row.id, name: row.name, createdAt: row.created_at });

export class SqliteBrandRepository implements BrandRepository {
  constructor(private readonly db: Db) {}

  async list(ids: number[] | undefined) {
    if (ids === undefined) return (this.db.prepare('SELECT * FROM brands ORDER BY name, id').all() as Row[]).map(toBrand);
    if (ids.length === 0) return [];
    return (this.db.prepare(`SELECT * FROM brands WHERE id IN ${inList(ids)} ORDER BY name, id`).all(...ids) as Row[]).map(toBrand);
  }

  async get(id: number) {
    const row = this.db.prepare('SELECT * FROM brands WHERE id = ?').get(id) as Row | undefined;
    return row && toBrand(row);
  }

  async existing(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db.prepare(`SELECT id FROM brands WHERE id IN ${inList(ids)}`).pluck().all(...ids) as number[];
  }

  async create(name: string, createdAt: string) {
    return toBrand(this.db.prepare('INSERT INTO brands (name, created_at) VALUES (?, ?) RETURNING *').get(name, createdAt) as Row);
  }

  async rename(id: number, name: string) {
    const row = this.db.prepare('UPDATE brands SET name = ? WHERE id = ? RETURNING *').get(name, id) as Row | undefined;
    return row && toBrand(row);
  }

  async delete(id: number) {
    try {
      return this.db.prepare('DELETE FROM brands WHERE id = ?').run(id).changes > 0 ? ('deleted' as const) : undefined;
    } catch (err) {
      // Content tables reference brands without a cascade, so their rows block the delete.
      if (isForeignKeyViolation(err)) return 'in-use' as const;
      throw err;
    }
  }
}
