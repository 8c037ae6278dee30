import type { Clock } from '../../platform/clock';
import { canSeeBrand, canSeeTask, isoTime, type Actor } from '../access';
import type { NotificationKind } from '../domain';
import type { UserRepository } from '../members/repository';
import type { Notification, NotificationRepository, NotificationSubject } from './repository';

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

  async notify({ kind, recipients, actorId, subject }: Happening): Promise<void> {
    const ids = [...new Set(recipients)].filter((id) => id !== actorId);
    const readers = (await Promise.all(ids.map((id) => this.deps.users.get(id)))).filter((u) => u !== undefined);
    const createdAt = isoTime(this.deps.clock.now());
    await this.deps.notifications.add(
      readers
        .filter((reader) => maySee(reader, subject))
        .map((reader) => ({ userId: reader.id, kind, postId: subject.postId ?? null, taskId: subject.taskId ?? null, actorId, createdAt })),
    );
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
