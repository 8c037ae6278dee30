import type { Clock } from '../clock';
import type { Logger } from '../logger';
import type { OutboxMessage, OutboxRepository } from './outbox';
import type { MailTransport, OutgoingMail } from './transport';

/** What a kind makes of an outbox row when its turn comes: a message, or why there is none to send. */
export type Composed = { mail: Omit<OutgoingMail, 'messageId'> } | { skip: string };

export type Composer = (message: OutboxMessage) => Promise<Composed>;

/** When a row that could not be sent is tried again: soon at first, then less often, for a day. */
export interface RetryPolicy {
  firstMs: number;
  maxMs: number;
  /** Counted from the row's creation: past it, a failure is final. */
  giveUpAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { firstMs: 30_000, maxMs: 2 * 3600_000, giveUpAfterMs: 24 * 3600_000 };

export interface MailWorkerOptions {
  outbox: OutboxRepository;
  transport: MailTransport;
  compose: Composer;
  clock: Clock;
  logger: Logger;
  /** The host named in Message-IDs (the public address's). */
  host: string;
  retry?: RetryPolicy;
  /** How often an idle worker looks for due rows. */
  pollMs?: number;
  /**
   * How long a claimed row stays this worker's: longer than a send can take (every SMTP step
   * has its own timeout), so that only a worker that died leaves a row for another to take.
   */
  leaseMs?: number;
  /** Rows claimed at once, and sent side by side. */
  batch?: number;
}

/** The delay before attempt `attempts + 1`, doubling from `firstMs` up to `maxMs`. */
export function retryDelay(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.firstMs * 2 ** Math.max(0, attempts - 1), policy.maxMs);
}

/**
 * Sends what the outbox holds. Each row is claimed under a lease, composed for its recipient at
 * that moment (so what they may no longer see is not sent), sent, and marked; a failure puts it
 * back with a later time. A message may go twice only when an instance dies between the
 * server's acceptance and the mark (at least once, never lost).
 */
export class MailWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private readonly retry: RetryPolicy;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly batch: number;

  constructor(private readonly o: MailWorkerOptions) {
    this.retry = o.retry ?? DEFAULT_RETRY;
    this.pollMs = o.pollMs ?? 1_000;
    this.leaseMs = o.leaseMs ?? 90_000;
    this.batch = o.batch ?? 20;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops looking for rows and waits for the sends under way; the transport is closed. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    this.o.transport.close();
  }

  /** Sends every row due now, batch after batch, and answers how many rows it handled. */
  async drain(): Promise<number> {
    let handled = 0;
    for (;;) {
      const claimed = await this.o.outbox.claim(this.o.clock.now(), this.o.clock.now() + this.leaseMs, this.batch);
      await Promise.all(claimed.map((message) => this.deliver(message)));
      handled += claimed.length;
      if (claimed.length < this.batch) return handled;
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.drain()
        .catch((err: unknown) => this.o.logger.warn({ err }, 'the mail outbox could not be read; trying again shortly'))
        .then(() => {
          this.running = undefined;
          this.schedule(this.pollMs);
        });
    }, delayMs);
    this.timer.unref();
  }

  private async deliver(message: OutboxMessage): Promise<void> {
    const { outbox, clock, logger } = this.o;
    try {
      const composed = await this.o.compose(message);
      if ('skip' in composed) {
        await outbox.finish(message.id, 'skipped', clock.now(), undefined);
        logger.info({ mail: message.id, kind: message.kind, reason: composed.skip }, 'a mail was not sent: nothing left to say');
        return;
      }
      await this.o.transport.send({ ...composed.mail, messageId: `<outbox.${message.id}.${Date.parse(message.createdAt)}@${this.o.host}>` });
      await outbox.finish(message.id, 'sent', clock.now(), composed.mail.subject);
    } catch (err) {
      const error = err instanceof Error ? err.message.slice(0, 500) : 'unknown error';
      const now = clock.now();
      const retryAt = now + retryDelay(this.retry, message.attempts);
      const giveUp = retryAt - Date.parse(message.createdAt) > this.retry.giveUpAfterMs;
      await outbox.putBack(message.id, error, giveUp ? undefined : retryAt).catch((putBackErr: unknown) => {
        // The lease ends by itself, and the row is taken again then.
        logger.warn({ err: putBackErr, mail: message.id }, 'a mail that was not sent could not be put back; its lease will free it');
      });
      logger.warn({ mail: message.id, kind: message.kind, attempts: message.attempts, error, final: giveUp }, giveUp ? 'a mail could not be sent and will not be tried again' : 'a mail could not be sent; it will be tried again');
    }
  }
}
