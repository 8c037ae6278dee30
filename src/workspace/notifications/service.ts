import type { Clock } from '../../platform/clock';
import { canSeeBrand, canSeeTask, isoTime, type Actor } from '../access';
import type { NotificationKind } from '../domain';
import type { UserRepository } from '../members/repository';
import type { NewNotification, Notification, NotificationRepository, NotificationSubject } from './repository';

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
function maySee(reader: Actor, subject: NotificationSubject): boolean {
  return subject.task ? canSeeTask(reader, { brandId: subject.brandId, ...subject.task }) : canSeeBrand(reader, subject.brandId);
}

/**
 * The notifications members receive in the app. Nobody is told of what they may not see:
 * recipients who cannot see the post or task are left out when it happens, and a
 * notification whose subject has since moved out of the reader's sight is not shown.
 */
export class NotificationsService implements Notifier {
  constructor(private readonly deps: { notifications: NotificationRepository; users: UserRepository; clock: Clock }) {}

  async notify(happening: Happening): Promise<void> {
    await this.notifyAll([happening]);
  }

  async notifyAll(happenings: readonly Happening[]): Promise<void> {
    const told = happenings.map((h) => ({ ...h, recipients: [...new Set(h.recipients)].filter((id) => id !== h.actorId) }));
    const ids = new Set(told.flatMap((h) => h.recipients));
    const readers = new Map((await Promise.all([...ids].map((id) => this.deps.users.get(id)))).filter((u) => u !== undefined).map((u) => [u.id, u]));
    const createdAt = isoTime(this.deps.clock.now());
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
    await this.deps.notifications.add([...rows.values()]);
  }

  async list(actor: Actor): Promise<{ notifications: Notification[]; unread: number }> {
    const [recent, unread] = await Promise.all([
      this.deps.notifications.list(actor.id, { limit: NOTIFICATIONS_SHOWN, unreadOnly: false }),
      this.deps.notifications.list(actor.id, { limit: UNREAD_COUNTED, unreadOnly: true }),
    ]);
    const shown = (list: typeof recent) => list.filter((n) => maySee(actor, n.subject));
    return { notifications: shown(recent).map(({ subject: _, ...n }) => n), unread: shown(unread).length };
  }

  async markRead(actor: Actor, which: number[] | 'all'): Promise<number> {
    return this.deps.notifications.markRead(actor.id, which, isoTime(this.deps.clock.now()));
  }
}
