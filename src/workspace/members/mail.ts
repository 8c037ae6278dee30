import type { Clock } from '../../platform/clock';
import { isolate } from '../../platform/mail/render';
import type { KindWriter } from '../mail/compose';
import { invitationExpiry } from './invitations';
import { isoTime } from '../shared/values';
import type { UserRecord } from '../shared/member';

/** What the invitation mail reads besides its recipient. */
export interface InvitationMailDeps {
  links: { issue(userId: number, purpose: 'invitation', now: number, ttlMs: number): Promise<string> };
  users: { get(id: number): Promise<UserRecord | undefined> };
  brands: { list(ids: number[]): Promise<{ name: string }[]> };
  clock: Clock;
}

/**
 * The invitation. Its link is made when the mail is written, so no usable token waits in
 * the outbox, and it ends any older link; it works until seven days after the invitation was
 * sent, the moment the team page shows. A mail whose invitation was replaced, accepted or
 * has run out says nothing.
 */
export function invitationMailWriter(deps: InvitationMailDeps): { invitation: KindWriter<UserRecord> } {
  return {
    async invitation(message, recipient, { t, link, when }) {
      if (recipient.invitedAt === null) return { skip: 'the member has already joined' };
      if (message.params.invitedAt !== recipient.invitedAt) return { skip: 'a newer invitation replaced this one' };
      const now = deps.clock.now();
      const expiresAt = invitationExpiry(recipient.invitedAt);
      if (expiresAt <= now) return { skip: 'the invitation ran out before its mail could be sent' };
      const token = await deps.links.issue(recipient.id, 'invitation', now, expiresAt - now);
      const inviter = typeof message.params.invitedBy === 'number' ? await deps.users.get(message.params.invitedBy) : undefined;
      // The recipient's own brands: nothing they will not see once they join.
      const brands = (await deps.brands.list(recipient.brandIds)).map((brand) => isolate(brand.name));
      const role = t(`workspace.role.${recipient.role}`);
      const invited = inviter
        ? t('mail.invitation.byName', { name: isolate(inviter.name), role })
        : t('mail.invitation.byNobody', { role });
      const list = new Intl.ListFormat(recipient.language, { style: 'long', type: 'conjunction' });
      const until = isolate(when(isoTime(expiresAt)));
      return {
        subject: t('mail.invitation.subject'),
        preview: invited,
        heading: t('mail.invitation.heading', { name: isolate(recipient.name) }),
        paragraphs: [
          invited,
          ...(brands.length > 0 ? [t(brands.length === 1 ? 'mail.invitation.brand' : 'mail.invitation.brands', { brands: list.format(brands) })] : []),
          t('mail.invitation.account', { email: isolate(recipient.email) }),
        ],
        action: { label: t('mail.invitation.action'), url: link(`/invite/${token}`) },
        notes: [t('mail.invitation.expires', { when: until }), t('mail.invitation.notYou')],
      };
    },
  };
}
