import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ManualClock } from '../../src/platform/clock';
import { createLogger } from '../../src/platform/logger';
import { OutboxRepository, type NewMail, type OutboxTables } from '../../src/platform/mail/outbox';
import { fileTransport, smtpTransport } from '../../src/platform/mail/transport';
import { tempDir } from '../support/app';
import { captureLogs } from '../support/logs';
import { MailWorker, retryDelay, DEFAULT_RETRY, type Composer } from '../../src/platform/mail/worker';
import type { RecordsDb } from '../../src/platform/db/engine';
import { describeEngines, testRecords } from '../support/records';
import { startSmtpForTest, type TestSmtpServer } from '../support/smtp';

const FROM = 'Museum Platform <no-reply@museum.test>';

/** Writes each row from its params: a subject and a body, or a skip. */
const fromParams: Composer = async (message) => {
  const { skip, text } = message.params as { skip?: string; text?: string };
  if (skip) return { skip };
  return { mail: { to: message.to, subject: message.subject, text: text ?? '', html: `<p>${text ?? ''}</p>` } };
};

function mail(n: number, extra: Partial<NewMail> = {}): NewMail {
  return { kind: 'test', userId: null, to: `reader${n}@museum.test`, subject: `Mail ${n}`, params: { text: `Body ${n}` }, ...extra };
}

function worker(records: RecordsDb<OutboxTables>, smtp: TestSmtpServer | string, clock: ManualClock, compose: Composer = fromParams) {
  const w = new MailWorker({
    outbox: new OutboxRepository(records),
    transport: smtpTransport(typeof smtp === 'string' ? smtp : smtp.url, FROM, { connectionTimeout: 1_000, greetingTimeout: 1_000, socketTimeout: 2_000 }),
    compose,
    clock,
    logger: createLogger('silent'),
    host: 'museum.test',
  });
  onTestFinished(() => w.stop());
  return w;
}

async function outboxOf(kind: 'sqlite' | 'postgres') {
  const records = (await testRecords(kind)).workspace as unknown as RecordsDb<OutboxTables>;
  return { records, outbox: new OutboxRepository(records) };
}

describe('the file transport (no SMTP_URL)', () => {
  it('when a mail is sent, then an .eml file holds the whole message and an .html file its page, and the log names them without the link inside', async () => {
    const dir = path.join(tempDir(), 'outbox');
    const logs = captureLogs();
    const transport = fileTransport(dir, FROM, logs.logger);
    const secret = 'https://museum.test/reset-password?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    await transport.send({ to: 'salma@museum.test', subject: 'Reset', text: `Open ${secret}`, html: `<a href="${secret}">Open</a>`, messageId: '<outbox.1.2@museum.test>' });
    const files = fs.readdirSync(dir).sort();
    expect(files.map((f) => path.extname(f))).toEqual(['.eml', '.html']);
    const parsed = await simpleParser(fs.readFileSync(path.join(dir, files[0])));
    expect([parsed.subject, parsed.text?.trim(), parsed.messageId, parsed.to && 'text' in parsed.to ? parsed.to.text : '']).toEqual(['Reset', `Open ${secret}`, '<outbox.1.2@museum.test>', 'salma@museum.test']);
    expect(fs.readFileSync(path.join(dir, files[1]), 'utf8')).toBe(`<a href="${secret}">Open</a>`);
    expect(logs.text()).toContain(`file://${path.join(dir, files[1])}`);
    expect(logs.text()).not.toContain('token=');
  });
});

describe('retryDelay', () => {
  it('when attempts fail one after another, then the waits double from 30 s up to two hours', () => {
    expect([1, 2, 3, 4, 5, 8, 9, 20].map((n) => retryDelay(DEFAULT_RETRY, n) / 1000)).toEqual([30, 60, 120, 240, 480, 3840, 7200, 7200]);
  });
});

describeEngines('the mail outbox', (kind) => {
  it('when mails are added and the worker drains, then each arrives once over SMTP with a text and an HTML part and a Message-ID of its row, and the rows are sent', async () => {
    const smtp = await startSmtpForTest();
    const clock = new ManualClock();
    const { records, outbox } = await outboxOf(kind);
    await outbox.add([mail(1), mail(2)], clock.now());
    expect(await worker(records, smtp, clock).drain()).toBe(2);
    const received = await smtp.waitFor(2);
    expect(received.map((r) => [r.to, r.parsed.subject, r.parsed.text?.trim(), r.parsed.html]).sort()).toEqual([
      [['reader1@museum.test'], 'Mail 1', 'Body 1', '<p>Body 1</p>'],
      [['reader2@museum.test'], 'Mail 2', 'Body 2', '<p>Body 2</p>'],
    ]);
    const rows = await outbox.list({ limit: 10 });
    expect(rows.map((r) => [r.status, r.attempts, r.sentAt])).toEqual([
      ['sent', 1, new Date(clock.now()).toISOString()],
      ['sent', 1, new Date(clock.now()).toISOString()],
    ]);
    expect(received.map((r) => r.parsed.messageId).sort()).toEqual(rows.map((r) => `<outbox.${r.id}.${clock.now()}@museum.test>`).sort());
    expect(received[0].parsed.from?.value).toEqual([{ name: 'Museum Platform', address: 'no-reply@museum.test' }]);
    // Nothing is due any more: draining again sends nothing.
    expect(await worker(records, smtp, clock).drain()).toBe(0);
    expect(smtp.received).toHaveLength(2);
  });

  it('when the SMTP server is away, then the mail waits with the error, is tried again after 30 s and then less often, and arrives once when the server is back', async () => {
    const smtp = await startSmtpForTest();
    await smtp.stop();
    const clock = new ManualClock();
    const { records, outbox } = await outboxOf(kind);
    await outbox.add([mail(1)], clock.now());
    const w = worker(records, smtp, clock);
    await w.drain();
    let [row] = await outbox.list({ limit: 1 });
    expect([row.status, row.attempts]).toEqual(['pending', 1]);
    expect(row.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(row.nextAttemptAt).toBe(new Date(clock.now() + 30_000).toISOString());
    clock.advance(29_000);
    expect(await w.drain()).toBe(0);
    clock.advance(1_000);
    expect(await w.drain()).toBe(1);
    [row] = await outbox.list({ limit: 1 });
    expect(row.nextAttemptAt).toBe(new Date(clock.now() + 60_000).toISOString());
    await smtp.start();
    clock.advance(60_000);
    expect(await w.drain()).toBe(1);
    await smtp.waitFor(1);
    [row] = await outbox.list({ limit: 1 });
    expect([row.status, row.attempts, row.lastError]).toEqual(['sent', 3, null]);
    expect(smtp.received).toHaveLength(1);
  });

  it('when the server refuses for more than a day, then the mail fails for good; a retry puts it back and it goes', async () => {
    const smtp = await startSmtpForTest();
    smtp.refuse(true);
    const clock = new ManualClock();
    const { records, outbox } = await outboxOf(kind);
    await outbox.add([mail(1)], clock.now());
    const w = worker(records, smtp, clock);
    for (let i = 0; i < 30; i += 1) {
      await w.drain();
      clock.advance(2 * 3600_000);
    }
    const [failed] = await outbox.list({ limit: 1 });
    expect(failed.status).toBe('failed');
    expect(failed.lastError).toMatch(/451/);
    expect(failed.attempts).toBeGreaterThan(10);
    expect(failed.attempts).toBeLessThan(25);
    smtp.refuse(false);
    const again = await outbox.retry(failed.id, clock.now());
    expect(again).toMatchObject({ status: 'pending', attempts: 0 });
    expect(await outbox.retry(failed.id, clock.now())).toBe(false);
    expect(await outbox.retry(failed.id + 1000, clock.now())).toBeUndefined();
    await w.drain();
    await smtp.waitFor(1);
    expect((await outbox.list({ limit: 1 }))[0].status).toBe('sent');
  });

  it('when the writer has nothing left to say, then the row is skipped and nothing is sent', async () => {
    const smtp = await startSmtpForTest();
    const clock = new ManualClock();
    const { records, outbox } = await outboxOf(kind);
    await outbox.add([mail(1, { params: { skip: 'the reader left' } }), mail(2)], clock.now());
    await worker(records, smtp, clock).drain();
    await smtp.waitFor(1);
    expect((await outbox.list({ limit: 10 })).map((r) => r.status)).toEqual(['sent', 'skipped']);
    expect(smtp.received.map((r) => r.parsed.subject)).toEqual(['Mail 2']);
  });

  it('when a worker claims mails and dies before sending, then another takes them once the lease ends, and each arrives once', async () => {
    const smtp = await startSmtpForTest();
    const clock = new ManualClock();
    const { records, outbox } = await outboxOf(kind);
    await outbox.add([mail(1), mail(2), mail(3)], clock.now());
    // The dead worker's claim: leased for 90 s, never settled.
    expect(await outbox.claim(clock.now(), clock.now() + 90_000, 2)).toHaveLength(2);
    const w = worker(records, smtp, clock);
    expect(await w.drain()).toBe(1);
    clock.advance(90_000);
    expect(await w.drain()).toBe(2);
    await smtp.waitFor(3);
    expect(smtp.received.map((r) => r.parsed.subject).sort()).toEqual(['Mail 1', 'Mail 2', 'Mail 3']);
    expect((await outbox.list({ limit: 10 })).map((r) => r.attempts).sort()).toEqual([1, 2, 2]);
  });

  it('when the SMTP server accepts connections but never answers, then the attempt fails within its timeouts and the mail waits for the next one', async () => {
    const silent = net.createServer(() => {
      // Never greets: a frozen server.
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => silent.close(() => resolve())));
    const port = (silent.address() as net.AddressInfo).port;
    const clock = new ManualClock();
    const { records, outbox } = await outboxOf(kind);
    await outbox.add([mail(1)], clock.now());
    const started = Date.now();
    await worker(records, `smtp://127.0.0.1:${port}`, clock).drain();
    expect(Date.now() - started).toBeLessThan(5_000);
    const [row] = await outbox.list({ limit: 1 });
    expect([row.status, row.attempts]).toEqual(['pending', 1]);
    expect(row.lastError).toMatch(/timeout|greeting/i);
  });
});

describeEngines('the mail outbox drained by several workers at once', (kind) => {
  it('when four workers drain 60 mails side by side, then each mail arrives exactly once', async () => {
    const smtp = await startSmtpForTest();
    const clock = new ManualClock();
    const { records, outbox } = await outboxOf(kind);
    await outbox.add(Array.from({ length: 60 }, (_, i) => mail(i)), clock.now());
    const workers = Array.from({ length: 4 }, () => worker(records, smtp, clock));
    const handled = await Promise.all(workers.map((w) => w.drain()));
    expect(handled.reduce((a, b) => a + b, 0)).toBe(60);
    await smtp.waitFor(60);
    expect(new Set(smtp.received.map((r) => r.parsed.subject)).size).toBe(60);
    expect(smtp.received).toHaveLength(60);
  });
});
