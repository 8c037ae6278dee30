import type { i18n } from 'i18next';
import type { Kysely } from 'kysely';
import type { Language } from '../../platform/i18n';
import type { RecordsDb } from '../../platform/db/engine';
import { addToOutbox, OutboxRepository, type NewMail, type OutboxTables } from '../../platform/mail/outbox';
import type { MailKind } from '../domain';
import type { WorkspaceDb, WorkspaceRecords } from '../records';

/** The key of each kind's subject in the locales: the outbox list shows it before the mail is written. */
const SUBJECT_KEYS: Record<MailKind, string> = {
  invitation: 'mail.invitation.subject',
  password_reset: 'mail.passwordReset.subject',
  password_changed: 'mail.passwordChanged.subject',
  notification: 'mail.notification.subject',
  digest: 'mail.digest.subject',
};

/** Whom a mail goes to: a member, as they are when it is queued. */
export interface Recipient {
  id: number;
  email: string;
  language: Language;
  /** The zone the times in their mail are written in, when they chose one. */
  timeZone?: string | null;
}

/** The outbox in the workspace's records. */
export function workspaceOutbox(records: WorkspaceRecords): OutboxRepository {
  // The workspace's tables include the outbox's, column for column.
  return new OutboxRepository(records as unknown as RecordsDb<OutboxTables>);
}

/** Writes mails into the outbox with the workspace's `db`, which may be the transaction of the change that causes them. */
export function writeMails(db: WorkspaceDb, mails: readonly NewMail[], now: number): Promise<void> {
  // The workspace's tables include the outbox's, column for column.
  return addToOutbox(db as unknown as Kysely<OutboxTables>, mails, now);
}

/**
 * Makes the outbox rows of the workspace's mail. A row names its recipient and what the mail is
 * about; the words are written when it is sent, for the recipient as they are then. Rows that a
 * change causes go to the repository that writes the change, in its transaction.
 */
export class MailQueue {
  constructor(private readonly deps: { outbox: OutboxRepository; i18n: i18n; now: () => number }) {}

  /** The row of one mail to `recipient`, to write with the change that causes it. */
  mail(kind: MailKind, recipient: Recipient, params: Record<string, unknown> = {}): NewMail {
    const subject = this.deps.i18n.getFixedT(recipient.language)(SUBJECT_KEYS[kind]);
    return { kind, userId: recipient.id, to: recipient.email, subject, params };
  }

  /** Mail that no change goes with (a reset asked for): written on its own. */
  async send(mails: NewMail[]): Promise<void> {
    await this.deps.outbox.add(mails, this.deps.now());
  }
}
