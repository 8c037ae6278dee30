import type { Clock } from '../../platform/clock';
import { NotFound } from '../../platform/errors';
import { canSeeBrand, canSeeTask, type Actor } from '../access';
import { NOTIFICATION_KINDS, type NotificationKind } from '../domain';
import type { MailQueue } from '../mail/queue';
import type { UserRepository } from '../members/repository';
import type { Deliveries, NewNotification, Notification, NotificationRepository, NotificationSettingsRepository, NotificationSubject, StoredNotification } from './repository';
import type { UnsubscribeLinks, UnsubscribeScope } from './unsubscribe';
import type { ChangeFeed } from '../events/changes';
import { isoTime } from '../shared/values';
import type { UserRecord } from '../shared/member';

/** How many notifications the list shows, and how many unread ones are counted at most. */
export const NOTIFICATIONS_SHOWN = 50;
const UNREAD_COUNTED = 500;

/** Something happened to a post or a task that `recipients` should hear of. */
export interface Happening {
  kind: NotificationKind;
  recipients: Iterable<number>;
  actorId: number;
  subject: NotificationSubject & ({ postId: number; taskId?: undefined } | { taskId: number; postId?: undefined });
}

/** How the features that cause notifications hand them over. */
export interface Notifier {
  notify(happening: Happening): Promise<void>;
  /**
   * The happenings of one request, told once per member and kind: a member told of several
   * (a bulk move) gets one notification that counts them, about the first.
   */
  notifyAll(happenings: readonly Happening[]): Promise<void>;
}

/** Whether `reader` may see the post or task a notification is about, as the lists decide it. */
export function maySee(reader: Actor, subject: NotificationSubject): boolean {
  return subject.task ? canSeeTask(reader, { brandId: subject.brandId, ...subject.task }) : canSeeBrand(reader, subject.brandId);
}

/** A notification as a member's list shows it. */
function listed({ subject: _, userId: __, ...notification }: StoredNotification): Notification {
  return notification;
}

/** The kinds a member hears of in the daily digest. */
export function digestKinds(deliveries: Deliveries): NotificationKind[] {
  return NOTIFICATION_KINDS.filter((kind) => deliveries[kind] === 'digest');
}

/** One member's choices among what `deliveries` answered, which holds every member it was asked about. */
export function deliveriesFor(found: ReadonlyMap<number, Deliveries>, userId: number): Deliveries {
  const deliveries = found.get(userId);
  if (deliveries === undefined) throw new Error(`No notification choices for member ${userId}, who was not asked about`);
  return deliveries;
}

/**
 * The notifications members receive in the app, and by mail when they asked for it. Nobody is
 * told of what they may not see: recipients who cannot see the post or task are left out when
 * it happens, and a notification whose subject has since moved out of the reader's sight is
 * not shown (nor mailed: see mail.ts).
 */
export class NotificationsService implements Notifier {
  constructor(
    private readonly deps: {
      notifications: NotificationRepository;
      settings: NotificationSettingsRepository;
      users: UserRepository;
      mail: MailQueue;
      live: ChangeFeed;
      clock: Clock;
    },
  ) {}

  async notify(happening: Happening): Promise<void> {
    await this.notifyAll([happening]);
  }

  async notifyAll(happenings: readonly Happening[]): Promise<void> {
    const told = happenings.map((h) => ({ ...h, recipients: [...new Set(h.recipients)].filter((id) => id !== h.actorId) }));
    const ids = new Set(told.flatMap((h) => h.recipients));
    const readers = new Map((await Promise.all([...ids].map((id) => this.deps.users.get(id)))).filter((u) => u !== undefined).map((u) => [u.id, u]));
    const now = this.deps.clock.now();
    const createdAt = isoTime(now);
    const rows = new Map<string, NewNotification>();
    for (const { kind, recipients, actorId, subject } of told) {
      for (const id of recipients) {
        const reader = readers.get(id);
        if (!reader || !maySee(reader, subject)) continue;
        const key = `${id} ${kind} ${actorId}`;
        const row = rows.get(key);
        if (row) row.count += 1;
        else rows.set(key, { userId: id, kind, postId: subject.postId ?? null, taskId: subject.taskId ?? null, actorId, count: 1, createdAt });
      }
    }
    const notifications = [...rows.values()];
    const deliveries = await this.deps.settings.deliveries([...new Set(notifications.map((n) => n.userId))]);
    const mailed = (n: NewNotification) => deliveries.get(n.userId)?.[n.kind] === 'email';
    // Each mail is a row written with its notification: what it says is decided when it is sent.
    const mail = notifications.some(mailed)
      ? {
          now,
          mails: (stored: readonly { id: number; notification: NewNotification }[]) =>
            stored.flatMap((s) => {
              // Every notification was made for one of the readers.
              const reader = readers.get(s.notification.userId);
              return reader && mailed(s.notification) ? [this.deps.mail.mail('notification', reader, { notificationId: s.id })] : [];
            }),
        }
      : undefined;
    const stored = await this.deps.notifications.add(notifications, mail);
    await this.deps.live.publish(...stored.map((s) => ({ type: 'notification' as const, memberId: s.notification.userId, id: s.id, by: s.notification.actorId })));
  }

  async list(actor: Actor): Promise<{ notifications: Notification[]; unread: number }> {
    const [recent, unread] = await Promise.all([
      this.deps.notifications.list(actor.id, { limit: NOTIFICATIONS_SHOWN, unreadOnly: false }),
      this.deps.notifications.list(actor.id, { limit: UNREAD_COUNTED, unreadOnly: true }),
    ]);
    return { notifications: recent.filter((n) => maySee(actor, n.subject)).map(listed), unread: await this.unread(actor, unread) };
  }

  /**
   * What the reader's live page hears of notification `id` (or, without one, of a change to how
   * many they have unread): the notification as their list shows it, and their unread count;
   * undefined when it is not theirs or not one their list shows.
   */
  async live(reader: Actor, id?: number): Promise<{ notification: Notification | null; unread: number } | undefined> {
    const stored = id === undefined ? undefined : await this.deps.notifications.get(id);
    if (id !== undefined && (!stored || stored.userId !== reader.id || !maySee(reader, stored.subject))) return undefined;
    return { notification: stored ? listed(stored) : null, unread: await this.unread(reader) };
  }

  async markRead(actor: Actor, which: number[] | 'all'): Promise<number> {
    const marked = await this.deps.notifications.markRead(actor.id, which, isoTime(this.deps.clock.now()));
    // The member's other pages show the new count.
    if (marked > 0) await this.deps.live.publish({ type: 'notification', memberId: actor.id, by: actor.id });
    return marked;
  }

  /** How many of the reader's notifications are unread, of those their list shows. */
  private async unread(reader: Actor, unread?: StoredNotification[]): Promise<number> {
    const list = unread ?? (await this.deps.notifications.list(reader.id, { limit: UNREAD_COUNTED, unreadOnly: true }));
    return list.filter((n) => maySee(reader, n.subject)).length;
  }
}

/** A member's notification settings as the API shows them: every kind, and the zone their days run in. */
export interface NotificationSettingsBody {
  settings: Deliveries;
  timeZone: string;
}

export interface NotificationSettingsChange {
  settings?: Partial<Deliveries>;
  timeZone?: string;
}

const linkInvalid = () => new NotFound('This unsubscribe link does not work', 'UNSUBSCRIBE_LINK_INVALID');

/** How each member hears of their notifications, changed by themselves or by one click in a mail. */
export class NotificationSettingsService {
  constructor(private readonly deps: { settings: NotificationSettingsRepository; users: UserRepository; links: UnsubscribeLinks; timeZone: string }) {}

  /** Each member sees and changes only their own: the routes hand over the signed-in member. */
  async get(user: UserRecord): Promise<NotificationSettingsBody> {
    const deliveries = deliveriesFor(await this.deps.settings.deliveries([user.id]), user.id);
    return { settings: deliveries, timeZone: user.timeZone ?? this.deps.timeZone };
  }

  /**
   * The time zone is part of the profile and is written with it; the choices are written
   * after. Each write sets values rather than toggling them, so a request that fails between
   * the two leaves nothing a retry would not put right.
   */
  async update(user: UserRecord, change: NotificationSettingsChange): Promise<NotificationSettingsBody> {
    let member = user;
    if (change.timeZone !== undefined && change.timeZone !== user.timeZone) {
      const updated = await this.deps.users.update(user.id, { timeZone: change.timeZone });
      if (typeof updated !== 'object') throw new NotFound('This account no longer exists');
      member = updated;
    }
    if (change.settings) await this.deps.settings.save(user.id, change.settings);
    return this.get(member);
  }

  /** The member an unsubscribe link was made for, and what it stops; undefined when it is not a genuine link. */
  async unsubscribeTarget(token: string): Promise<{ user: UserRecord; scope: UnsubscribeScope } | undefined> {
    const request = this.deps.links.read(token);
    const user = request && (await this.deps.users.get(request.userId));
    if (!request || !user || !this.deps.links.verify(token, user)) return undefined;
    return { user, scope: request.scope };
  }

  /**
   * One click in a mail: that kind comes in the app only from now on; for the digest, every
   * kind it gathered. Clicking again changes nothing more.
   */
  async unsubscribe(token: string): Promise<{ user: UserRecord; scope: UnsubscribeScope }> {
    const target = await this.unsubscribeTarget(token);
    if (!target) throw linkInvalid();
    const { user, scope } = target;
    const kinds = scope === 'digest' ? digestKinds(deliveriesFor(await this.deps.settings.deliveries([user.id]), user.id)) : [scope];
    await this.deps.settings.save(user.id, Object.fromEntries(kinds.map((kind) => [kind, 'app'])));
    return target;
  }
}
