import type { Db } from '../../platform/sqlite';
import { assignments, scopedWhere } from '../sql';
import type { ProjectStatus } from '../domain';

export interface Project {
  id: number;
  brandId: number;
  name: string;
  description: string | null;
  status: ProjectStatus;
  startDate: string | null;
  endDate: string | null;
  ownerId: number | null;
  createdAt: string;
  updatedAt: string;
}

export type NewProject = Omit<Project, 'id' | 'updatedAt'>;
export type ProjectPatch = Partial<Pick<Project, 'name' | 'description' | 'status' | 'startDate' | 'endDate'>> & { updatedAt: string };

export interface ProjectFilter {
  /** Only these brands (undefined: every brand). */
  brandIds: number[] | undefined;
  status?: ProjectStatus;
}

export interface ProjectRepository {
  /** Newest first. */
  list(filter: ProjectFilter): Promise<Project[]>;
  get(id: number): Promise<Project | undefined>;
  create(input: NewProject): Promise<Project>;
  update(id: number, patch: ProjectPatch): Promise<Project | undefined>;
  /** The project's tasks stay, without a project. */
  delete(id: number): Promise<boolean>;
}

interface Row {
  id: number;
  brand_id: number;
  name: string;
  description: string | null;
  status: ProjectStatus;
  start_date: string | null;
  end_date: string | null;
  owner_id: number | null;
  created_at: string;
  updated_at: string;
}

const toProject = (r: Row): Project => ({
  id: r.id,
  brandId: r.brand_id,
  name: r.name,
  description: r.description,
  status: r.status,
  startDate: r.start_date,
  endDate: r.end_date,
  ownerId: r.owner_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const COLUMNS = {
  name: 'name',
  description: 'description',
  status: 'status',
  startDate: 'start_date',
  endDate: 'end_date',
  updatedAt: 'updated_at',
} as const;

export class SqliteProjectRepository implements ProjectRepository {
  constructor(private readonly db: Db) {}

  async list(filter: ProjectFilter) {
    const where = scopedWhere('brand_id', filter.brandIds, { status: filter.status });
    if (!where) return [];
    return (this.db.prepare(`SELECT * FROM projects ${where.sql} ORDER BY created_at DESC, id DESC`).all(...where.values) as Row[]).map(toProject);
  }

  async get(id: number) {
    const row = this.db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as Row | undefined;
    return row && toProject(row);
  }

  async create(p: NewProject) {
    const row = this.db
      .prepare(
        `INSERT INTO projects (brand_id, name, description, status, start_date, end_date, owner_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(p.brandId, p.name, p.description, p.status, p.startDate, p.endDate, p.ownerId, p.createdAt, p.createdAt) as Row;
    return toProject(row);
  }

  async update(id: number, patch: ProjectPatch) {
    const set = assignments(patch, COLUMNS);
    const row = this.db.prepare(`UPDATE projects SET ${set.sql} WHERE id = ? RETURNING *`).get(...set.values, id) as Row | undefined;
    return row && toProject(row);
  }

  async delete(id: number) {
    return this.db.prepare('DELETE FROM projects WHERE id = ?').run(id).changes > 0;
  }
}
