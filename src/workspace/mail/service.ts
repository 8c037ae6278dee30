import type { Clock } from '../../platform/clock';
import { Conflict, NotFound } from '../../platform/errors';
import type { MailStatus, OutboxMessage, OutboxRepository } from '../../platform/mail/outbox';
import { isSuperadmin, requireRole, type Actor } from '../access';

/** What a superadmin sees of a mail: where it went and how it fared, never what it said. */
export interface MailBody {
  id: number;
  to: string;
  subject: string;
  kind: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

export interface MailQuery {
  limit: number;
  before?: number;
  status?: MailStatus;
}

function toMailBody(message: OutboxMessage): MailBody {
  return {
    id: message.id,
    to: message.to,
    subject: message.subject,
    kind: message.kind,
    status: message.status,
    attempts: message.attempts,
    lastError: message.lastError,
    createdAt: message.createdAt,
    sentAt: message.sentAt,
  };
}

const SUPERADMINS_ONLY = 'Only superadmins see the outbox';

/** The outbox as superadmins look after it: what was sent, what is waiting, what failed. */
export class MailService {
  constructor(private readonly deps: { outbox: OutboxRepository; clock: Clock }) {}

  /** The newest first; `nextCursor` pages back (null at the oldest). */
  async list(actor: Actor, query: MailQuery): Promise<{ messages: MailBody[]; nextCursor: number | null }> {
    requireRole(actor, isSuperadmin, SUPERADMINS_ONLY);
    const page = await this.deps.outbox.list({ limit: query.limit + 1, beforeId: query.before, status: query.status });
    const messages = page.slice(0, query.limit).map(toMailBody);
    return { messages, nextCursor: page.length > query.limit ? messages[messages.length - 1].id : null };
  }

  /** A failed or skipped mail goes again at once, its attempts counted afresh. */
  async retry(actor: Actor, id: number): Promise<MailBody> {
    requireRole(actor, isSuperadmin, SUPERADMINS_ONLY);
    const result = await this.deps.outbox.retry(id, this.deps.clock.now());
    if (result === undefined) throw new NotFound('No such mail', 'MAIL_NOT_FOUND');
    if (result === false) throw new Conflict('Only a mail that failed or was skipped can be sent again', 'MAIL_NOT_RETRYABLE');
    return toMailBody(result);
  }
}
