import path from 'node:path';
import ejs from 'ejs';
import type { TFunction } from 'i18next';
import type { Language } from '../i18n';
import { VIEWS_DIR } from '../paths';

/**
 * What one mail says, as plain text in the recipient's language: the layout writes it as
 * HTML (escaped) and as the plain-text part, so both parts always say the same.
 */
export interface MailContent {
  subject: string;
  /** The line mail programs show beside the subject. */
  preview?: string;
  heading: string;
  paragraphs: string[];
  /** A list of things to look at (a digest's notifications). */
  items?: { text: string; url: string; meta?: string }[];
  /** The one thing to do, as a button and as its address. */
  action?: { label: string; url: string };
  /** Small print: why they got it, how long a link lasts. */
  notes?: string[];
  /** Where one click stops mail of this kind. */
  unsubscribe?: { label: string; url: string };
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

const LAYOUT = path.join(VIEWS_DIR, 'mail', 'layout.ejs');

/** First-strong isolate … pop: a name in another script keeps its own direction inside the sentence. */
export const isolate = (value: string) => `\u2068${value}\u2069`;

/** Who a mail comes from, in its header and footer: the workspace's unless a mail says otherwise. */
export interface MailFrame {
  product: string;
  footer: string;
}

/** The plain-text part: the same content, a blank line between blocks, links written out. */
function plainText(mail: MailContent, footer: string): string {
  const blocks = [mail.heading, ...mail.paragraphs];
  if (mail.items?.length) blocks.push(mail.items.map((item) => `- ${item.text}${item.meta ? ` (${item.meta})` : ''}\n  ${item.url}`).join('\n'));
  if (mail.action) blocks.push(`${mail.action.label}:\n${mail.action.url}`);
  blocks.push(...(mail.notes ?? []));
  blocks.push(`--\n${footer}${mail.unsubscribe ? `\n${mail.unsubscribe.label}: ${mail.unsubscribe.url}` : ''}`);
  return `${blocks.join('\n\n')}\n`;
}

/** One mail in `lang`, through the shared layout (right to left in Arabic). */
export async function renderMail(mail: MailContent, lang: Language, t: TFunction, frame: MailFrame = { product: t('mail.product'), footer: t('mail.footer') }): Promise<RenderedMail> {
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const html = await ejs.renderFile(LAYOUT, {
    mail,
    lang,
    dir,
    start: dir === 'rtl' ? 'right' : 'left',
    product: frame.product,
    footer: frame.footer,
    linkHint: t('mail.linkHint'),
  });
  return { subject: mail.subject, html, text: plainText(mail, frame.footer) };
}
