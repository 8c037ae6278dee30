import type { NotificationKind, TaskVisibility } from '../domain';
import type { WorkspaceRecords } from '../records';

export interface Notification {
  id: number;
  kind: NotificationKind;
  postId: number | null;
  taskId: number | null;
  actorId: number | null;
  /** The member who caused it, while they exist. */
  actorName: string | null;
  /** The post's or task's title, for the list (the first post's, when it stands for several). */
  title: string;
  /** How many alike happenings of one request it stands for ("sent 20 posts to review"); 1 for most. */
  count: number;
  createdAt: string;
  readAt: string | null;
}

/** What a reader must be allowed to see for a notification to be shown to them. */
export interface NotificationSubject {
  brandId: number;
  /** Set for a task: who may see it depends on its visibility too. */
  task?: { visibility: TaskVisibility; ownerId: number | null; assigneeId: number | null };
}

export interface StoredNotification extends Notification {
  subject: NotificationSubject;
}

export type NewNotification = Pick<Notification, 'kind' | 'postId' | 'taskId' | 'actorId' | 'count' | 'createdAt'> & { userId: number };

export interface NotificationRepository {
  add(rows: NewNotification[]): Promise<void>;
  /** A member's newest notifications first, with what decides whether they may still see each. */
  list(userId: number, opts: { limit: number; unreadOnly: boolean }): Promise<StoredNotification[]>;
  /** Marks the member's notifications read (all of them with 'all'); answers how many changed. */
  markRead(userId: number, ids: number[] | 'all', at: string): Promise<number>;
}

export class SqlNotificationRepository implements NotificationRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async add(rows: NewNotification[]) {
    if (rows.length === 0) return;
    await this.records.db
      .insertInto('notifications')
      .values(
        rows.map((n) => ({ user_id: n.userId, kind: n.kind, post_id: n.postId, task_id: n.taskId, actor_id: n.actorId, count: n.count, created_at: n.createdAt, read_at: null })),
      )
      .execute();
  }

  async list(userId: number, opts: { limit: number; unreadOnly: boolean }) {
    const rows = await this.records.db
      .selectFrom('notifications as n')
      .leftJoin('posts as p', 'p.id', 'n.post_id')
      .leftJoin('tasks as t', 't.id', 'n.task_id')
      .leftJoin('users as a', 'a.id', 'n.actor_id')
      .select([
        'n.id', 'n.kind', 'n.post_id', 'n.task_id', 'n.actor_id', 'n.count', 'n.created_at', 'n.read_at', 'a.name as actor_name',
        'p.title as post_title', 'p.brand_id as post_brand',
        't.title as task_title', 't.brand_id as task_brand', 't.visibility', 't.owner_id as task_owner', 't.assignee_id as task_assignee',
      ])
      .where('n.user_id', '=', userId)
      .$if(opts.unreadOnly, (q) => q.where('n.read_at', 'is', null))
      .orderBy('n.id', 'desc')
      .limit(opts.limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      kind: r.kind as NotificationKind,
      postId: r.post_id,
      taskId: r.task_id,
      actorId: r.actor_id,
      actorName: r.actor_name,
      title: r.post_title ?? r.task_title ?? '',
      count: Number(r.count),
      createdAt: r.created_at,
      readAt: r.read_at,
      subject:
        r.task_id !== null
          ? { brandId: r.task_brand!, task: { visibility: r.visibility as TaskVisibility, ownerId: r.task_owner, assigneeId: r.task_assignee } }
          : { brandId: r.post_brand! },
    }));
  }

  async markRead(userId: number, ids: number[] | 'all', at: string) {
    if (ids !== 'all' && ids.length === 0) return 0;
    const result = await this.records.db
      .updateTable('notifications')
      .set({ read_at: at })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .$if(ids !== 'all', (q) => q.where('id', 'in', ids as number[]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
