import { sql, type ExpressionBuilder, type Selectable, type Updateable } from 'kysely';
import type { WorkspaceDb, WorkspaceRecords } from '../records';
import type { WorkspaceTables } from '../tables';
import { TASK_PRIORITIES, type TaskDueFilter, type TaskPriority, type TaskScope, type TaskSort, type TaskStatus, type TaskVisibility } from '../domain';

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
  priority?: TaskPriority;
  /** overdue: due before `today` (YYYY-MM-DD) and not done; week: due from `today` to six days on; none: no due date. */
  due?: { when: TaskDueFilter; today: string };
  /** Default `due`: by due date (undated last), then oldest first. */
  sort?: TaskSort;
  limit: number;
  offset: number;
}

export interface TaskRepository {
  /** In the filter's order: by default by due date (undated last), then oldest first. */
  list(filter: TaskFilter): Promise<Task[]>;
  get(id: number): Promise<Task | undefined>;
  create(input: NewTask): Promise<Task>;
  update(id: number, patch: TaskPatch): Promise<Task | undefined>;
  delete(id: number): Promise<boolean>;
}

type Row = Selectable<WorkspaceTables['tasks']>;

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

/** The columns a patch sets; what it leaves undefined is not written. */
function taskChange(patch: TaskPatch): Updateable<WorkspaceTables['tasks']> {
  return {
    title: patch.title,
    description: patch.description,
    status: patch.status,
    priority: patch.priority,
    due_date: patch.dueDate,
    visibility: patch.visibility,
    assignee_id: patch.assigneeId,
    project_id: patch.projectId,
    campaign_id: patch.campaignId,
    post_id: patch.postId,
    updated_at: patch.updatedAt,
  };
}

/**
 * Who sees a task besides superadmins (docs/decisions.md, "Who sees a task"): a brand
 * task, everyone of the brand; a private one, its owner and its assignee. Every query that
 * reads several tasks (lists, search) filters with this one condition.
 */
export function visibleTo(viewerId: number) {
  return (eb: ExpressionBuilder<WorkspaceTables, 'tasks'>) =>
    eb.or([eb('visibility', '=', 'brand'), eb('owner_id', '=', viewerId), eb('assignee_id', '=', viewerId)]);
}

/** Who reads a set of tasks, as the queries above filter them. */
export type TaskAudience = Pick<TaskFilter, 'brandIds' | 'viewerId' | 'includeOthersPrivate'>;

type TaskQuery = ReturnType<typeof selectTasks>;
const selectTasks = (db: WorkspaceDb) => db.selectFrom('tasks').selectAll();

/** `YYYY-MM-DD` plus `days`. */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The condition of each due filter, on the day it counts from. */
const DUE: Record<TaskDueFilter, (q: TaskQuery, today: string) => TaskQuery> = {
  overdue: (q, today) => q.where('due_date', '<', today).where('status', '!=', 'done'),
  week: (q, today) => q.where('due_date', '>=', today).where('due_date', '<=', addDays(today, 6)),
  none: (q) => q.where('due_date', 'is', null),
};

/** Urgent first: a CASE over the vocabulary, the same on SQLite and PostgreSQL. */
const PRIORITY_RANK = sql<number>`case priority ${sql.join(
  [...TASK_PRIORITIES].reverse().map((p, i) => sql`when ${sql.lit(p)} then ${sql.lit(i)}`),
  sql` `,
)} else ${sql.lit(TASK_PRIORITIES.length)} end`;

const byDue = (q: TaskQuery) => q.orderBy(sql`due_date IS NULL`).orderBy('due_date').orderBy('created_at').orderBy('id');

/** The order of each sort; ties always fall back to something stable. */
const SORTS: Record<TaskSort, (q: TaskQuery) => TaskQuery> = {
  due: byDue,
  priority: (q) => byDue(q.orderBy(PRIORITY_RANK)),
  newest: (q) => q.orderBy('created_at', 'desc').orderBy('id', 'desc'),
  // lower() so that both engines agree whatever their collation does with case.
  title: (q) => q.orderBy(sql`lower(title)`).orderBy('id'),
};

/** The condition of each scope, on the id of the one asking. */
const SCOPES: Record<TaskScope, ((q: TaskQuery, viewerId: number) => TaskQuery) | undefined> = {
  mine: (q, viewerId) => q.where((eb) => eb.or([eb('owner_id', '=', viewerId), eb('assignee_id', '=', viewerId)])),
  assigned: (q, viewerId) => q.where('assignee_id', '=', viewerId),
  created: (q, viewerId) => q.where('owner_id', '=', viewerId),
  all: undefined,
};

export class SqlTaskRepository implements TaskRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async list(filter: TaskFilter) {
    if (filter.brandIds !== undefined && filter.brandIds.length === 0) return [];
    const { viewerId } = filter;
    const scope = SCOPES[filter.scope];
    const rows = await selectTasks(this.records.db)
      .$call((q) => (filter.brandIds === undefined ? q : q.where('brand_id', 'in', filter.brandIds)))
      .$call((q) => (scope === undefined ? q : scope(q, viewerId)))
      .$if(!filter.includeOthersPrivate, (q) => q.where(visibleTo(viewerId)))
      .$call((q) => (filter.status === undefined ? q : q.where('status', '=', filter.status)))
      .$call((q) => (filter.projectId === undefined ? q : q.where('project_id', '=', filter.projectId)))
      .$call((q) => (filter.campaignId === undefined ? q : q.where('campaign_id', '=', filter.campaignId)))
      .$call((q) => (filter.postId === undefined ? q : q.where('post_id', '=', filter.postId)))
      .$call((q) => (filter.assigneeId === undefined ? q : q.where('assignee_id', '=', filter.assigneeId)))
      .$call((q) => (filter.priority === undefined ? q : q.where('priority', '=', filter.priority)))
      .$call((q) => (filter.due === undefined ? q : DUE[filter.due.when](q, filter.due.today)))
      .$call(SORTS[filter.sort ?? 'due'])
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return rows.map(toTask);
  }

  async get(id: number) {
    const row = await selectTasks(this.records.db).where('id', '=', id).executeTakeFirst();
    return row && toTask(row);
  }

  async create(t: NewTask) {
    const row = await this.records.db
      .insertInto('tasks')
      .values({
        brand_id: t.brandId,
        title: t.title,
        description: t.description,
        status: t.status,
        priority: t.priority,
        due_date: t.dueDate,
        visibility: t.visibility,
        assignee_id: t.assigneeId,
        project_id: t.projectId,
        campaign_id: t.campaignId,
        post_id: t.postId,
        owner_id: t.ownerId,
        created_at: t.createdAt,
        updated_at: t.createdAt,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTask(row);
  }

  async update(id: number, patch: TaskPatch) {
    const row = await this.records.db.updateTable('tasks').set(taskChange(patch)).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toTask(row);
  }

  async delete(id: number) {
    const result = await this.records.db.deleteFrom('tasks').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
