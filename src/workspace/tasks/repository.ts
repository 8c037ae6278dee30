import type { Db } from '../../platform/sqlite';
import { assignments, scopedWhere } from '../sql';
import type { TaskPriority, TaskScope, TaskStatus, TaskVisibility } from '../domain';

export interface Task {
  id: number;
  brandId: number;
  title: string;
  description: string | null;
  status: TaskStatus;
  priority: TaskPriority;
  dueDate: string | null;
  visibility: TaskVisibility;
  assigneeId: number | null;
  projectId: number | null;
  campaignId: number | null;
  postId: number | null;
  /** The member who created the task. */
  ownerId: number | null;
  createdAt: string;
  updatedAt: string;
}

export type NewTask = Omit<Task, 'id' | 'updatedAt'>;
export type TaskPatch = Partial<
  Pick<Task, 'title' | 'description' | 'status' | 'priority' | 'dueDate' | 'visibility' | 'assigneeId' | 'projectId' | 'campaignId' | 'postId'>
> & { updatedAt: string };

export interface TaskFilter {
  /** Only these brands (undefined: every brand). */
  brandIds: number[] | undefined;
  /** Who is asking: scopes are relative to them. */
  viewerId: number;
  /** Private tasks of others are left out unless true. */
  includeOthersPrivate: boolean;
  scope: TaskScope;
  status?: TaskStatus;
  projectId?: number;
  campaignId?: number;
  postId?: number;
  assigneeId?: number;
  limit: number;
  offset: number;
}

export interface TaskRepository {
  /** By due date (undated last), then oldest first. */
  list(filter: TaskFilter): Promise<Task[]>;
  get(id: number): Promise<Task | undefined>;
  create(input: NewTask): Promise<Task>;
  update(id: number, patch: TaskPatch): Promise<Task | undefined>;
  delete(id: number): Promise<boolean>;
}

interface Row {
  id: number;
  brand_id: number;
  title: string;
  description: string | null;
  status: TaskStatus;
  priority: TaskPriority;
  due_date: string | null;
  visibility: TaskVisibility;
  assignee_id: number | null;
  project_id: number | null;
  campaign_id: number | null;
  post_id: number | null;
  owner_id: number | null;
  created_at: string;
  updated_at: string;
}

const toTask = (r: Row): Task => ({
  id: r.id,
  brandId: r.brand_id,
  title: r.title,
  description: r.description,
  status: r.status,
  priority: r.priority,
  dueDate: r.due_date,
  visibility: r.visibility,
  assigneeId: r.assignee_id,
  projectId: r.project_id,
  campaignId: r.campaign_id,
  postId: r.post_id,
  ownerId: r.owner_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const COLUMNS = {
  title: 'title',
  description: 'description',
  status: 'status',
  priority: 'priority',
  dueDate: 'due_date',
  visibility: 'visibility',
  assigneeId: 'assignee_id',
  projectId: 'project_id',
  campaignId: 'campaign_id',
  postId: 'post_id',
  updatedAt: 'updated_at',
} as const;

/** The condition of each scope, on the id of the one asking. */
const SCOPES: Record<TaskScope, ((viewerId: number) => { sql: string; values: unknown[] }) | undefined> = {
  mine: (viewerId) => ({ sql: '(owner_id = ? OR assignee_id = ?)', values: [viewerId, viewerId] }),
  assigned: (viewerId) => ({ sql: 'assignee_id = ?', values: [viewerId] }),
  created: (viewerId) => ({ sql: 'owner_id = ?', values: [viewerId] }),
  all: undefined,
};

export class SqliteTaskRepository implements TaskRepository {
  constructor(private readonly db: Db) {}

  async list(filter: TaskFilter) {
    const also = [SCOPES[filter.scope]?.(filter.viewerId)].filter((c) => c !== undefined);
    if (!filter.includeOthersPrivate) {
      also.push({ sql: "(visibility = 'brand' OR owner_id = ? OR assignee_id = ?)", values: [filter.viewerId, filter.viewerId] });
    }
    const equals = {
      status: filter.status,
      project_id: filter.projectId,
      campaign_id: filter.campaignId,
      post_id: filter.postId,
      assignee_id: filter.assigneeId,
    };
    const where = scopedWhere('brand_id', filter.brandIds, equals, also);
    if (!where) return [];
    const rows = this.db
      .prepare(`SELECT * FROM tasks ${where.sql} ORDER BY due_date IS NULL, due_date, created_at, id LIMIT ? OFFSET ?`)
      .all(...where.values, filter.limit, filter.offset) as Row[];
    return rows.map(toTask);
  }

  async get(id: number) {
    const row = this.db.prepare('SELECT * FROM tasks WHERE id = ?').get(id) as Row | undefined;
    return row && toTask(row);
  }

  async create(t: NewTask) {
    const row = this.db
      .prepare(
        `INSERT INTO tasks (brand_id, title, description, status, priority, due_date, visibility, assignee_id, project_id, campaign_id, post_id, owner_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        t.brandId,
        t.title,
        t.description,
        t.status,
        t.priority,
        t.dueDate,
        t.visibility,
        t.assigneeId,
        t.projectId,
        t.campaignId,
        t.postId,
        t.ownerId,
        t.createdAt,
        t.createdAt,
      ) as Row;
    return toTask(row);
  }

  async update(id: number, patch: TaskPatch) {
    const set = assignments(patch, COLUMNS);
    const row = this.db.prepare(`UPDATE tasks SET ${set.sql} WHERE id = ? RETURNING *`).get(...set.values, id) as Row | undefined;
    return row && toTask(row);
  }

  async delete(id: number) {
    return this.db.prepare('DELETE FROM tasks WHERE id = ?').run(id).changes > 0;
  }
}
