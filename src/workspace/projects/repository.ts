import type { Selectable, Updateable } from 'kysely';
import type { WorkspaceRecords } from '../records';
import type { WorkspaceTables } from '../tables';
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

type Row = Selectable<WorkspaceTables['projects']>;

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

/** The columns a patch sets; what it leaves undefined is not written. */
function projectChange(patch: ProjectPatch): Updateable<WorkspaceTables['projects']> {
  return {
    name: patch.name,
    description: patch.description,
    status: patch.status,
    start_date: patch.startDate,
    end_date: patch.endDate,
    updated_at: patch.updatedAt,
  };
}

export class SqlProjectRepository implements ProjectRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async list(filter: ProjectFilter) {
    if (filter.brandIds !== undefined && filter.brandIds.length === 0) return [];
    const rows = await this.records.db
      .selectFrom('projects')
      .selectAll()
      .$call((q) => (filter.brandIds === undefined ? q : q.where('brand_id', 'in', filter.brandIds)))
      .$call((q) => (filter.status === undefined ? q : q.where('status', '=', filter.status)))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toProject);
  }

  async get(id: number) {
    const row = await this.records.db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toProject(row);
  }

  async create(p: NewProject) {
    const row = await this.records.db
      .insertInto('projects')
      .values({
        brand_id: p.brandId,
        name: p.name,
        description: p.description,
        status: p.status,
        start_date: p.startDate,
        end_date: p.endDate,
        owner_id: p.ownerId,
        created_at: p.createdAt,
        updated_at: p.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toProject(row);
  }

  async update(id: number, patch: ProjectPatch) {
    const row = await this.records.db.updateTable('projects').set(projectChange(patch)).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toProject(row);
  }

  async delete(id: number) {
    const result = await this.records.db.deleteFrom('projects').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
