import type { i18n, TFunction } from 'i18next';
import type { OutboxMessage } from '../../platform/mail/outbox';
import { renderMail, type MailContent } from '../../platform/mail/render';
import type { Composed, Composer } from '../../platform/mail/worker';
import type { MailKind } from '../domain';
import type { Recipient } from './queue';

/** What a kind's writer has at hand: the recipient's language, and addresses on the public site. */
export interface MailWriting {
  t: TFunction;
  /** `path` (starting with /) on PUBLIC_URL. */
  link: (path: string) => string;
  /** A moment as the recipient reads it, in their language and time zone. */
  when: (iso: string) => string;
  /**
   * A string with plural forms (zero, one, two, few, many, other, as the locales hold them),
   * the form chosen for `count` in the recipient's language, which also writes its digits.
   */
  tn: (key: string, count: number, vars?: Record<string, string>) => string;
}

/** What one kind says to its recipient, decided when its turn comes; `skip` when nothing is left to say. */
export type KindWriter<R extends Recipient> = (message: OutboxMessage, recipient: R, writing: MailWriting) => Promise<MailContent | { skip: string }>;

/** RFC 8058: a mail program offers one-click unsubscribe, which POSTs to the address. */
function unsubscribeHeaders(content: MailContent): Record<string, string> | undefined {
  if (!content.unsubscribe) return undefined;
  return { 'List-Unsubscribe': `<${content.unsubscribe.url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

/**
 * The workspace's mail: each row is written when its turn comes, for the member it goes to as
 * they are then (their address, language and what they may see), so a member who left or lost
 * access is told nothing.
 */
export function workspaceComposer<R extends Recipient>(deps: {
  users: { get(id: number): Promise<R | undefined> };
  i18n: i18n;
  publicUrl: string;
  timeZone: string;
  writers: Partial<Record<MailKind, KindWriter<R>>>;
}): Composer {
  return async (message): Promise<Composed> => {
    const write = deps.writers[message.kind as MailKind];
    if (!write) return { skip: `nothing writes mail of the kind ${message.kind}` };
    const recipient = message.userId === null ? undefined : await deps.users.get(message.userId);
    if (!recipient) return { skip: 'its recipient is no longer a member' };
    const lang = recipient.language;
    const t = deps.i18n.getFixedT(lang);
    const dates = new Intl.DateTimeFormat(lang === 'ar' ? 'ar' : 'en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: recipient.timeZone ?? deps.timeZone });
    const plurals = new Intl.PluralRules(lang);
    const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
    const tn = (key: string, count: number, vars: Record<string, string> = {}) => t(`${key}.${plurals.select(count)}`, { ...vars, count: numbers.format(count) });
    const content = await write(message, recipient, { t, link: (path) => `${deps.publicUrl}${path}`, when: (iso) => dates.format(new Date(iso)), tn });
    if ('skip' in content) return content;
    const rendered = await renderMail(content, lang, t);
    return { mail: { to: recipient.email, ...rendered, headers: unsubscribeHeaders(content) } };
  };
}
