import type { Clock } from '../../platform/clock';
import { BadRequest, Forbidden, NotFound } from '../../platform/errors';
import { canSeeTask, isManagerOrAbove, isSuperadmin, listedBrands, type Actor } from '../access';
import type { ChangeFeed, Sight, TaskSight } from '../events/changes';
import type { UserRepository } from '../members/repository';
import type { Notifier } from '../notifications/service';
import type { Placement } from '../placement';
import type { ProjectsService } from '../projects/service';
import type { TaskDueFilter, TaskPriority, TaskStatus, TaskVisibility } from '../domain';
import type { Task, TaskAudience, TaskFilter, TaskRepository } from './repository';
import { isoTime, pick } from '../shared/values';

export interface TaskInput {
  title: string;
  description?: string | null;
  status?: TaskStatus;
  priority?: TaskPriority;
  dueDate?: string | null;
  visibility?: TaskVisibility;
  assigneeId?: number | null;
  projectId?: number | null;
  campaignId?: number | null;
  postId?: number | null;
  brandId?: number;
}

export type TaskChange = Partial<Omit<TaskInput, 'brandId'>>;

/** A list request: the repository's filter, with one optional brand instead of the caller's scope, and due counted from the clock's day. */
export type TaskQuery = Omit<TaskFilter, 'brandIds' | 'viewerId' | 'includeOthersPrivate' | 'due'> & { brandId?: number; due?: TaskDueFilter };

/**
 * Who `actor` is to a query of several tasks: the brands they may see (or just `brandId`),
 * and whether others' private tasks come too (superadmins only). Lists and search both ask.
 */
export function taskAudience(actor: Actor, brandId?: number): TaskAudience {
  return { brandIds: listedBrands(actor, brandId), viewerId: actor.id, includeOthersPrivate: isSuperadmin(actor) };
}

/** What an actor may do to a task: the rules `update`, `remove` and the comments enforce, handed to the pages as they are. */
export interface TaskPermissions {
  /** Change its title, description, status, priority, due date, assignee, project, campaign or post. */
  edit: boolean;
  /** Make it private or brand-wide. */
  changeVisibility: boolean;
  delete: boolean;
  /** Read and write its comments. */
  comment: boolean;
}

/** A task as the API answers it: with what the one asking may do to it. */
export type TaskView = Task & { can: TaskPermissions };

/**
 * Who may do what to a task they see. Its owner, managers and superadmins run it (they change
 * who sees it and delete it); they and its assignee change it; whoever sees it comments.
 */
export function taskPermissions(actor: Actor, task: Task): TaskPermissions {
  const runsIt = task.ownerId === actor.id || isManagerOrAbove(actor);
  return { edit: runsIt || task.assigneeId === actor.id, changeVisibility: runsIt, delete: runsIt, comment: canSeeTask(actor, task) };
}

const shown = (actor: Actor, task: Task): TaskView => ({ ...task, can: taskPermissions(actor, task) });

/** Who sees a task, by the fields `canSeeTask` reads. */
const sightOf = ({ brandId, visibility, ownerId, assigneeId }: Task): TaskSight => ({ brandId, visibility, ownerId, assigneeId });

/**
 * Tasks: anyone creates them in their brands and assigns them to any member of the brand.
 * What else each may do is `taskPermissions`.
 */
export class TasksService {
  constructor(
    private readonly deps: {
      tasks: TaskRepository;
      placement: Placement;
      projects: ProjectsService;
      users: UserRepository;
      notifier: Notifier;
      live: ChangeFeed;
      clock: Clock;
    },
  ) {}

  async list(actor: Actor, query: TaskQuery): Promise<TaskView[]> {
    // "Overdue" and "this week" are counted from the server's day (UTC), the one pages use too.
    const due = query.due && { when: query.due, today: this.now().slice(0, 10) };
    const tasks = await this.deps.tasks.list({ ...query, ...taskAudience(actor, query.brandId), due });
    return tasks.map((task) => shown(actor, task));
  }

  async get(actor: Actor, id: number): Promise<TaskView> {
    const task = await this.deps.tasks.get(id);
    if (!task || !canSeeTask(actor, task)) throw new NotFound('No such task');
    return shown(actor, task);
  }

  /**
   * What each of `readers` is told of a change to task `id`: the body `get` answers them, or
   * `gone` where `get` would answer 404 though they could see it before (`was`).
   */
  async sights(readers: readonly Actor[], id: number, was?: TaskSight): Promise<Sight<TaskView>[]> {
    const task = await this.deps.tasks.get(id);
    return readers.map((reader) => {
      if (task && canSeeTask(reader, task)) return { body: shown(reader, task) };
      return was && canSeeTask(reader, was) ? 'gone' : undefined;
    });
  }

  /** Whether each of `readers` sees task `id` now, as `get` decides it. */
  async seenBy(readers: readonly Actor[], id: number): Promise<boolean[]> {
    const task = await this.deps.tasks.get(id);
    return readers.map((reader) => task !== undefined && canSeeTask(reader, task));
  }

  async create(actor: Actor, input: TaskInput): Promise<TaskView> {
    const project = input.projectId ? await this.deps.projects.get(actor, input.projectId) : null;
    const placed = await this.deps.placement.resolve(actor, input, { post: 'read', others: project ? [project] : [] });
    const assigneeId = input.assigneeId ?? null;
    await this.assertAssignable(assigneeId, placed.brandId);
    const task = await this.deps.tasks.create({
      ...placed,
      title: input.title,
      description: input.description ?? null,
      status: input.status ?? 'todo',
      priority: input.priority ?? 'medium',
      dueDate: input.dueDate ?? null,
      visibility: input.visibility ?? 'brand',
      assigneeId,
      projectId: project?.id ?? null,
      ownerId: actor.id,
      createdAt: this.now(),
    });
    await this.deps.live.publish({ type: 'task', id: task.id, action: 'created', by: actor.id });
    await this.tellAssignee(actor, task, null);
    return shown(actor, task);
  }

  async update(actor: Actor, id: number, change: TaskChange): Promise<TaskView> {
    const current = await this.get(actor, id);
    if (!current.can.edit) {
      throw new Forbidden('Only its owner, its assignee, managers and superadmins change a task', 'NOT_TASK_EDITOR');
    }
    if (change.visibility !== undefined && change.visibility !== current.visibility && !current.can.changeVisibility) {
      throw new Forbidden('Only its owner, managers and superadmins change who sees a task', 'NOT_TASK_OWNER');
    }
    const placement = await this.movedPlacement(actor, current, change);
    if (change.assigneeId !== undefined) await this.assertAssignable(change.assigneeId, current.brandId);
    const updated = await this.deps.tasks.update(id, { ...change, ...placement, updatedAt: this.now() });
    if (!updated) throw new NotFound('No such task');
    await this.deps.live.publish({ type: 'task', id, action: 'updated', was: sightOf(current), by: actor.id });
    await this.tellAssignee(actor, updated, current.assigneeId);
    return shown(actor, updated);
  }

  /** A member who is handed a task hears of it, unless they took it themselves. */
  private async tellAssignee(actor: Actor, task: Task, before: number | null): Promise<void> {
    if (task.assigneeId === null || task.assigneeId === before) return;
    const { id, brandId, visibility, ownerId, assigneeId } = task;
    await this.deps.notifier.notify({ kind: 'assigned', recipients: [assigneeId], actorId: actor.id, subject: { taskId: id, brandId, task: { visibility, ownerId, assigneeId } } });
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const task = await this.get(actor, id);
    if (!task.can.delete) throw new Forbidden('Only its owner, managers and superadmins delete a task', 'NOT_TASK_OWNER');
    if (!(await this.deps.tasks.delete(id))) throw new NotFound('No such task');
    await this.deps.live.publish({ type: 'task', id, action: 'deleted', was: sightOf(task), by: actor.id });
  }

  /**
   * The project, campaign and post after a change, all of the task's own brand. A new post
   * brings its campaign unless a campaign is named too.
   */
  private async movedPlacement(actor: Actor, current: Task, change: TaskChange) {
    if (change.projectId === undefined && change.campaignId === undefined && change.postId === undefined) return {};
    const projectId = pick(change.projectId, current.projectId);
    const project = projectId ? await this.deps.projects.get(actor, projectId) : null;
    const campaignId = change.campaignId !== undefined ? change.campaignId : change.postId ? undefined : current.campaignId;
    const placed = await this.deps.placement.resolve(
      actor,
      { brandId: current.brandId, campaignId, postId: pick(change.postId, current.postId) },
      { post: 'read', others: project ? [project] : [] },
    );
    return { projectId: project?.id ?? null, campaignId: placed.campaignId, postId: placed.postId };
  }

  /**
   * An assignee must belong to the task's brand (superadmins belong to every brand) and have
   * joined: someone still invited may never accept, and would leave the task with nobody.
   */
  private async assertAssignable(userId: number | null, brandId: number): Promise<void> {
    if (userId === null) return;
    const user = await this.deps.users.get(userId);
    if (!user || !(user.role === 'superadmin' || user.brandIds.includes(brandId))) {
      throw new BadRequest("The assignee is not a member of the task's brand", 'ASSIGNEE_NOT_MEMBER');
    }
    if (user.invitedAt !== null) throw new BadRequest('The assignee has not accepted their invitation yet', 'ASSIGNEE_INVITED');
  }

  private now(): string {
    return isoTime(this.deps.clock.now());
  }
}
