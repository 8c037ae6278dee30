import { EventEmitter } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { onTestFinished } from 'vitest';
import { toError } from '../../src/platform/errors';

/** A mail as the test SMTP server received it, parsed, with the envelope it came in. */
export interface Received {
  parsed: ParsedMail;
  /** The envelope's recipients. */
  to: string[];
  /** The raw message as it arrived. */
  raw: string;
}

/**
 * A real SMTP server (smtp-server) on a free loopback port, which keeps and parses what
 * nodemailer sends. `stop` and `start` take it away and bring it back on the same port;
 * `refuse` makes it answer every message with a temporary failure (451).
 */
export class TestSmtpServer {
  readonly received: Received[] = [];
  private readonly arrivals = new EventEmitter();
  private server: SMTPServer | undefined;
  private refusing = false;
  port = 0;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          if (this.refusing) {
            callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
            return;
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw)
            .then((parsed) => {
              this.received.push({ parsed, to: session.envelope.rcptTo.map((r) => r.address), raw });
              this.arrivals.emit('mail');
              callback();
            })
            .catch((err: unknown) => callback(toError(err)));
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the server: connections are refused until `start` again. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  refuse(on: boolean): void {
    this.refusing = on;
  }

  /** Resolves once `count` mails have arrived in all (rejects after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 10_000): Promise<Received[]> {
    if (this.received.length >= count) return this.received;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.arrivals.off('mail', check);
        reject(new Error(`${this.received.length} of ${count} mails arrived within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (this.received.length < count) return;
        clearTimeout(timer);
        this.arrivals.off('mail', check);
        resolve(this.received);
      };
      this.arrivals.on('mail', check);
    });
  }
}

/** An SMTP server for this test, stopped when it ends. */
export async function startSmtpForTest(): Promise<TestSmtpServer> {
  const smtp = new TestSmtpServer();
  await smtp.start();
  onTestFinished(() => smtp.stop());
  return smtp;
}
