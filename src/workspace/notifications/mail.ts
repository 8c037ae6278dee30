import { isolate } from '../../platform/mail/render';
import type { KindWriter, MailWriting } from '../mail/compose';
import type { Notification, NotificationRepository, NotificationSettingsRepository } from './repository';
import { digestTime } from './digest';
import { deliveriesFor, digestKinds, maySee } from './service';
import type { UnsubscribeLinks, UnsubscribeScope } from './unsubscribe';
import type { UserRecord } from '../shared/member';

/** The most a digest lists; the rest are counted, and wait under the bell. */
export const DIGEST_ITEMS_MAX = 50;
/** The most a digest reads, to count what it does not list. */
const DIGEST_READ_MAX = 500;

/** The page that shows what a notification is about: the board for several posts, as the bell does. */
export function notificationPath(n: Pick<Notification, 'count' | 'postId' | 'taskId'>): string {
  if (n.count > 1) return '/workspace';
  return n.postId !== null ? `/workspace?post=${n.postId}` : `/workspace/tasks?task=${n.taskId}`;
}

/** The bell's sentence ("Salma sent 20 posts to review"), the name and the title each kept in their own direction. */
export function notificationSentence(n: Notification, { t, tn }: Pick<MailWriting, 't' | 'tn'>): string {
  const vars = { actor: isolate(n.actorName ?? t('workspace.notifications.someone')), title: isolate(n.title) };
  const counted = `workspace.notifications.many.${n.kind}`;
  return n.count > 1 && t(`${counted}.other`) !== `${counted}.other` ? tn(counted, n.count, vars) : t(`workspace.notifications.kinds.${n.kind}`, vars);
}

/**
 * The mails about notifications: one at once for a kind a member asked for by mail, and the
 * daily digest. Each is written when its turn comes, for its recipient as they are then, and
 * says nothing they may no longer see; a notification already read in the app is not mailed.
 */
export function notificationMailWriters(deps: {
  notifications: NotificationRepository;
  settings: NotificationSettingsRepository;
  links: UnsubscribeLinks;
}): { notification: KindWriter<UserRecord>; digest: KindWriter<UserRecord> } {
  const deliveriesOf = async (user: UserRecord) => deliveriesFor(await deps.settings.deliveries([user.id]), user.id);
  const unsubscribe = (recipient: UserRecord, scope: UnsubscribeScope, label: string, { link }: MailWriting) => ({
    label,
    url: link(`/api/mail/unsubscribe?token=${deps.links.token(recipient, scope)}`),
  });

  return {
    async notification(message, recipient, writing) {
      const { t, link, when } = writing;
      const id = message.params.notificationId;
      const n = typeof id === 'number' ? await deps.notifications.get(id) : undefined;
      if (!n || n.userId !== recipient.id) return { skip: 'its notification is gone' };
      if (n.readAt !== null) return { skip: 'its notification was read in the app first' };
      if (!maySee(recipient, n.subject)) return { skip: 'its recipient may no longer see what it is about' };
      if ((await deliveriesOf(recipient))[n.kind] !== 'email') return { skip: 'its recipient no longer wants this kind by mail' };
      const sentence = notificationSentence(n, writing);
      const kind = t(`workspace.notificationSettings.kinds.${n.kind}`);
      const target = n.count > 1 ? 'board' : n.postId !== null ? 'post' : 'task';
      return {
        subject: sentence,
        heading: sentence,
        paragraphs: [t('mail.notification.when', { when: isolate(when(n.createdAt)) })],
        action: { label: t(`mail.notification.open.${target}`), url: link(notificationPath(n)) },
        notes: [t('mail.notification.why', { kind: isolate(kind), settings: isolate(link('/workspace/settings')) })],
        unsubscribe: unsubscribe(recipient, n.kind, t('mail.notification.unsubscribe', { kind: isolate(kind) }), writing),
      };
    },

    async digest(message, recipient, writing) {
      const { t, tn, link, when } = writing;
      const { after, upTo } = message.params;
      if ((after !== null && typeof after !== 'string') || typeof upTo !== 'string') return { skip: 'it names no span of notifications' };
      const found = await deps.notifications.unread(recipient.id, { kinds: digestKinds(await deliveriesOf(recipient)), after, upTo, limit: DIGEST_READ_MAX });
      const shown = found.filter((n) => maySee(recipient, n.subject));
      if (shown.length === 0) return { skip: 'nothing it would list is still unread and in its recipient’s sight' };
      const listed = shown.slice(0, DIGEST_ITEMS_MAX);
      const more = shown.length - listed.length;
      return {
        subject: t('mail.digest.subject'),
        preview: tn('mail.digest.count', shown.length),
        heading: t('mail.digest.heading'),
        paragraphs: [tn('mail.digest.count', shown.length), ...(more > 0 ? [tn('mail.digest.more', more)] : [])],
        items: listed.map((n) => ({ text: notificationSentence(n, writing), url: link(notificationPath(n)), meta: when(n.createdAt) })),
        action: { label: t('mail.digest.action'), url: link('/workspace') },
        notes: [t('mail.digest.why', { time: isolate(digestTime(recipient.language)), settings: isolate(link('/workspace/settings')) })],
        unsubscribe: unsubscribe(recipient, 'digest', t('mail.digest.unsubscribe'), writing),
      };
    },
  };
}
