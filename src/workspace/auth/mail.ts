import type { Clock } from '../../platform/clock';
import { isolate } from '../../platform/mail/render';
import type { KindWriter } from '../mail/compose';
import type { Recipient } from '../mail/queue';
import type { SqlLinkTokens } from './links';
import { RESET_LINK_TTL_MS } from './service';

/**
 * The mails about a member's password. A reset link is made when its mail is written, so no
 * usable token waits in the outbox, and a newer mail's link ends an older one's.
 */
export function passwordMailWriters(deps: { links: SqlLinkTokens; clock: Clock }): { password_reset: KindWriter<Recipient>; password_changed: KindWriter<Recipient> } {
  return {
    async password_reset(_message, recipient, { t, link }) {
      const token = await deps.links.issue(recipient.id, 'password_reset', deps.clock.now(), RESET_LINK_TTL_MS);
      return {
        subject: t('mail.passwordReset.subject'),
        preview: t('mail.passwordReset.expires'),
        heading: t('mail.passwordReset.heading'),
        paragraphs: [t('mail.passwordReset.body', { email: isolate(recipient.email) })],
        action: { label: t('mail.passwordReset.action'), url: link(`/reset-password?token=${token}`) },
        notes: [t('mail.passwordReset.expires')],
      };
    },
    async password_changed(message, recipient, { t, link, when }) {
      const at = typeof message.params.at === 'string' ? message.params.at : message.createdAt;
      return {
        subject: t('mail.passwordChanged.subject'),
        heading: t('mail.passwordChanged.heading'),
        paragraphs: [t('mail.passwordChanged.body', { email: isolate(recipient.email), when: isolate(when(at)) }), t('mail.passwordChanged.notYou')],
        action: { label: t('mail.passwordChanged.action'), url: link('/login') },
      };
    },
  };
}
