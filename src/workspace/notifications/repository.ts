import type { NewMail } from '../../platform/mail/outbox';
import { DEFAULT_NOTIFICATION_DELIVERIES, NOTIFICATION_KINDS, type NotificationDelivery, type NotificationKind, type TaskVisibility } from '../domain';
import type { Language } from '../domain';
import { writeMails } from '../mail/queue';
import type { WorkspaceDb, WorkspaceRecords } from '../records';

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
  /** The member it was made for. */
  userId: number;
  subject: NotificationSubject;
}

export type NewNotification = Pick<Notification, 'kind' | 'postId' | 'taskId' | 'actorId' | 'count' | 'createdAt'> & { userId: number };

/** A notification written, with its id. */
export interface AddedNotification {
  id: number;
  notification: NewNotification;
}

/** Mail that goes with new notifications, written in their transaction once each has its id. */
export interface NotificationMail {
  mails: (stored: readonly AddedNotification[]) => NewMail[];
  /** The moment the mails are queued at. */
  now: number;
}

export interface UnreadQuery {
  kinds: readonly NotificationKind[];
  /** Made after this moment (null: any time) … */
  after: string | null;
  /** … and up to this one. */
  upTo: string;
  limit: number;
}

export interface NotificationRepository {
  /** With `mail`, its rows are written in the same transaction as the notifications. Answers each row with its id. */
  add(rows: NewNotification[], mail?: NotificationMail): Promise<AddedNotification[]>;
  /** A member's newest notifications first, with what decides whether they may still see each. */
  list(userId: number, opts: { limit: number; unreadOnly: boolean }): Promise<StoredNotification[]>;
  /** One notification as it is now (read or not, its post's or task's title and brand). */
  get(id: number): Promise<StoredNotification | undefined>;
  /** A member's unread notifications of some kinds made in a span, oldest first. */
  unread(userId: number, query: UnreadQuery): Promise<StoredNotification[]>;
  /** How many `unread` would find, without a limit. */
  countUnread(userId: number, query: Omit<UnreadQuery, 'limit'>): Promise<number>;
  /** Marks the member's notifications read (all of them with 'all'); answers how many changed. */
  markRead(userId: number, ids: number[] | 'all', at: string): Promise<number>;
}

export type Deliveries = Record<NotificationKind, NotificationDelivery>;

/** A member whose daily digest may be due: where they are and when they last had one. */
export interface DigestMember {
  id: number;
  email: string;
  language: Language;
  /** null: the workspace's. */
  timeZone: string | null;
  /** The local day of their last digest; null when the schedulers have not met them yet. */
  lastDay: string | null;
}

/** How members want to hear of each kind of notification, and when each last had a digest. */
export interface NotificationSettingsRepository {
  /** Each member's choices, defaults filled in. */
  deliveries(userIds: readonly number[]): Promise<Map<number, Deliveries>>;
  /** Stores the given choices, leaving the other kinds as they were. */
  save(userId: number, changes: Partial<Deliveries>): Promise<void>;
  /** Every member, with their digest day. */
  digestMembers(): Promise<DigestMember[]>;
  /**
   * The first sight of a member: their digest counts as sent on `day`, so the next goes at the
   * next digest hour, with everything unread until then. Nothing happens when another instance
   * got there first.
   */
  startDigests(userId: number, day: string): Promise<void>;
  /**
   * Moves the member's digest day to `day` and its span's end to `now`, unless it already
   * reached `day` (another instance's turn came first: false). When notifications of `kinds`
   * made in the span are unread, the digest's mail (`mail` of the span) is written in the
   * same transaction. Answers the span and how many are unread in it.
   */
  claimDigest(claim: DigestClaim): Promise<{ span: DigestSpan; unread: number } | false>;
}

/** What a digest covers: notifications made after `after` (null: since the beginning) up to `upTo`. */
export interface DigestSpan {
  after: string | null;
  upTo: string;
}

export interface DigestClaim {
  userId: number;
  day: string;
  now: string;
  kinds: readonly NotificationKind[];
  mail: (span: DigestSpan) => NewMail;
}

function selectStored(db: WorkspaceDb) {
  return db
    .selectFrom('notifications as n')
    .leftJoin('posts as p', 'p.id', 'n.post_id')
    .leftJoin('tasks as t', 't.id', 'n.task_id')
    .leftJoin('users as a', 'a.id', 'n.actor_id')
    .select([
      'n.id', 'n.user_id', 'n.kind', 'n.post_id', 'n.task_id', 'n.actor_id', 'n.count', 'n.created_at', 'n.read_at', 'a.name as actor_name',
      'p.title as post_title', 'p.brand_id as post_brand',
      't.title as task_title', 't.brand_id as task_brand', 't.visibility', 't.owner_id as task_owner', 't.assignee_id as task_assignee',
    ]);
}

/** A notification as selectStored reads it, with what it is about. */
type StoredRow = Awaited<ReturnType<ReturnType<typeof selectStored>['executeTakeFirstOrThrow']>>;

function toStored(r: StoredRow): StoredNotification {
  return {
    id: r.id,
    userId: r.user_id,
    kind: r.kind,
    postId: r.post_id,
    taskId: r.task_id,
    actorId: r.actor_id,
    actorName: r.actor_name,
    title: r.post_title ?? r.task_title ?? '',
    count: r.count,
    createdAt: r.created_at,
    readAt: r.read_at,
    subject: subjectOf(r),
  };
}

/** A notification is about a post or a task, which takes its notifications with it when deleted. */
function subjectOf(r: StoredRow): NotificationSubject {
  if (r.task_id !== null) {
    if (r.task_brand === null || r.visibility === null) throw new Error(`Notification ${r.id}: task ${r.task_id} is not there`);
    return { brandId: r.task_brand, task: { visibility: r.visibility, ownerId: r.task_owner, assigneeId: r.task_assignee } };
  }
  if (r.post_brand === null) throw new Error(`Notification ${r.id} is about neither a post nor a task`);
  return { brandId: r.post_brand };
}

export class SqlNotificationRepository implements NotificationRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async add(rows: NewNotification[], mail?: NotificationMail) {
    if (rows.length === 0) return [];
    const values = rows.map((n) => ({ user_id: n.userId, kind: n.kind, post_id: n.postId, task_id: n.taskId, actor_id: n.actorId, count: n.count, created_at: n.createdAt, read_at: null }));
    return this.records.db.transaction().execute(async (trx) => {
      // One member is told once per kind and actor in a call, so these name each row alike on both engines, whatever order RETURNING keeps.
      const inserted = await trx.insertInto('notifications').values(values).returning(['id', 'user_id', 'kind', 'actor_id']).execute();
      const idOf = new Map(inserted.map((r) => [`${r.user_id} ${r.kind} ${r.actor_id}`, r.id]));
      const stored = rows.map((notification) => {
        const id = idOf.get(`${notification.userId} ${notification.kind} ${notification.actorId}`);
        if (id === undefined) throw new Error(`No notification row came back for member ${notification.userId}, ${notification.kind}`);
        return { id, notification };
      });
      if (mail) await writeMails(trx, mail.mails(stored), mail.now);
      return stored;
    });
  }

  async list(userId: number, opts: { limit: number; unreadOnly: boolean }) {
    const rows = await selectStored(this.records.db)
      .where('n.user_id', '=', userId)
      .$if(opts.unreadOnly, (q) => q.where('n.read_at', 'is', null))
      .orderBy('n.id', 'desc')
      .limit(opts.limit)
      .execute();
    return rows.map(toStored);
  }

  async get(id: number) {
    const row = await selectStored(this.records.db).where('n.id', '=', id).executeTakeFirst();
    return row && toStored(row);
  }

  async unread(userId: number, query: UnreadQuery) {
    if (query.kinds.length === 0) return [];
    const rows = await selectStored(this.records.db)
      .where('n.user_id', '=', userId)
      .where('n.read_at', 'is', null)
      .where('n.kind', 'in', [...query.kinds])
      .$call((q) => (query.after === null ? q : q.where('n.created_at', '>', query.after)))
      .where('n.created_at', '<=', query.upTo)
      .orderBy('n.id')
      .limit(query.limit)
      .execute();
    return rows.map(toStored);
  }

  async countUnread(userId: number, query: Omit<UnreadQuery, 'limit'>) {
    return countUnread(this.records.db, userId, query);
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

/** How many of a member's notifications are unread, of some kinds, made in a span. */
async function countUnread(db: WorkspaceDb, userId: number, query: Omit<UnreadQuery, 'limit'>): Promise<number> {
  if (query.kinds.length === 0) return 0;
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .where('kind', 'in', [...query.kinds])
    .$call((q) => (query.after === null ? q : q.where('created_at', '>', query.after)))
    .where('created_at', '<=', query.upTo)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const isKind = (kind: string): kind is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(kind);

export class SqlNotificationSettings implements NotificationSettingsRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async deliveries(userIds: readonly number[]) {
    const found = new Map(userIds.map((id) => [id, { ...DEFAULT_NOTIFICATION_DELIVERIES }]));
    if (userIds.length === 0) return found;
    const rows = await this.records.db
      .selectFrom('notification_settings')
      .select(['user_id', 'kind', 'delivery'])
      .where('user_id', 'in', [...userIds])
      .execute();
    for (const row of rows) {
      // A kind the workspace no longer has leaves the others as they are.
      const deliveries = found.get(row.user_id);
      if (deliveries && isKind(row.kind)) deliveries[row.kind] = row.delivery;
    }
    return found;
  }

  async save(userId: number, changes: Partial<Deliveries>) {
    const rows = Object.entries(changes).map(([kind, delivery]) => ({ user_id: userId, kind, delivery }));
    if (rows.length === 0) return;
    await this.records.db
      .insertInto('notification_settings')
      .values(rows)
      .onConflict((oc) => oc.columns(['user_id', 'kind']).doUpdateSet((eb) => ({ delivery: eb.ref('excluded.delivery') })))
      .execute();
  }

  async digestMembers() {
    const rows = await this.records.db
      .selectFrom('users as u')
      .leftJoin('notification_digests as d', 'd.user_id', 'u.id')
      .select(['u.id', 'u.email', 'u.language', 'u.time_zone', 'd.last_day'])
      .orderBy('u.id')
      .execute();
    return rows.map((r) => ({ id: r.id, email: r.email, language: r.language, timeZone: r.time_zone, lastDay: r.last_day }));
  }

  async startDigests(userId: number, day: string) {
    await this.records.db
      .insertInto('notification_digests')
      .values({ user_id: userId, last_day: day, last_at: null })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }

  async claimDigest({ userId, day, now, kinds, mail }: DigestClaim) {
    return this.records.db.transaction().execute(async (trx) => {
      // Held to the end on PostgreSQL: another instance's claim waits, then finds the day taken.
      const mark = await trx
        .selectFrom('notification_digests')
        .select(['last_day', 'last_at'])
        .where('user_id', '=', userId)
        .$if(this.records.engine.locksRows, (q) => q.forUpdate())
        .executeTakeFirst();
      if (!mark || mark.last_day >= day) return false as const;
      await trx.updateTable('notification_digests').set({ last_day: day, last_at: now }).where('user_id', '=', userId).execute();
      const span = { after: mark.last_at, upTo: now };
      const unread = await countUnread(trx, userId, { kinds, ...span });
      if (unread > 0) await writeMails(trx, [mail(span)], Date.parse(now));
      return { span, unread };
    });
  }
}
