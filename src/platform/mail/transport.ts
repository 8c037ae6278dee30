import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger';

/** One message as the outbox hands it over: both parts already rendered, headers already chosen. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable for one outbox row, so that a receiver can tell a retried message from a new one. */
  messageId: string;
  headers?: Record<string, string>;
  /** Files that go with it (a report's rows as CSV), made when the mail is written. */
  attachments?: { filename: string; content: string | Buffer; contentType: string }[];
}

/** Where mail leaves the server: an SMTP server, or files on this machine. */
export interface MailTransport {
  readonly kind: 'smtp' | 'files';
  /** Resolves once the message is accepted (by the SMTP server, or written); rejects otherwise. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * How long SMTP may take at each step: a server that stops answering (frozen, or a network
 * that drops packets) fails the attempt, and the outbox tries again later.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** Messages sent at once through one transport, over a few reused connections. */
const SMTP_CONNECTIONS = 5;

export function smtpTransport(url: string, from: string, timeouts = SMTP_TIMEOUTS): MailTransport {
  // What the URL says wins; these fill in what it leaves out.
  const transporter = nodemailer.createTransport({ url, ...timeouts, pool: true, maxConnections: SMTP_CONNECTIONS });
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({ from, ...mail, disableFileAccess: true, disableUrlAccess: true });
    },
    close: () => transporter.close(),
  };
}

/**
 * Mail written as files into `directory` (one machine with nothing configured): each message as
 * an .eml file, which any mail program opens, and its HTML part beside it, which a browser
 * opens from the link the log gives. Written under a temporary name and then renamed, so that
 * a half-written file never looks like a message.
 */
export function fileTransport(directory: string, from: string, logger: Logger): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const write = async (file: string, data: Buffer | string) => {
    await fs.writeFile(`${file}.part`, data);
    await fs.rename(`${file}.part`, file);
  };
  return {
    kind: 'files',
    async send(mail) {
      const info = await transporter.sendMail({ from, ...mail, disableFileAccess: true, disableUrlAccess: true });
      await fs.mkdir(directory, { recursive: true });
      const base = path.join(directory, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`);
      await write(`${base}.html`, mail.html);
      await write(`${base}.eml`, info.message as Buffer);
      // The files, never their contents: a message may hold a link that opens an account.
      logger.info({ to: mail.to, file: `${base}.eml` }, `Mail "${mail.subject}" to ${mail.to}: open ${pathToFileURL(`${base}.html`).href} in a browser`);
    },
    close: () => transporter.close(),
  };
}
