// The outbox drained against a local SMTP server (smtp-server, in this process): 10,000 queued
// mails on SQLite, each claimed under a lease, written through the shared layout and sent by
// the worker, against nodemailer sending the same rendered mails through the same pooled
// transport in a bare loop, in the same run. Mails per second for both, and their ratio.
// Runs on dist/ (`npm run bench` builds it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { SMTPServer } from 'smtp-server';

const require = createRequire(import.meta.url);
const { systemClock } = require('../dist/platform/clock.js');
const { createLogger } = require('../dist/platform/logger.js');
const { createI18n } = require('../dist/platform/i18n.js');
const { openRecords } = require('../dist/stores.js');
const { addToOutbox, OutboxRepository } = require('../dist/platform/mail/outbox.js');
const { renderMail } = require('../dist/platform/mail/render.js');
const { smtpTransport } = require('../dist/platform/mail/transport.js');
const { MailWorker } = require('../dist/platform/mail/worker.js');

const MAILS = 10_000;
/** Sends the bare loop keeps in flight: as many as the worker's batch. */
const IN_FLIGHT = 20;
const FROM = 'Museum Platform <no-reply@museum.test>';

/** A server that takes every message and counts it. */
async function smtpServer() {
  let received = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received += 1;
        callback();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${server.server.address().port}`, received: () => received, close: () => new Promise((r) => server.close(r)) };
}

/** The mail both paths send: a notification-sized message in the shared layout. */
function content(n) {
  return {
    subject: `Omar asks you to review “Spring lanterns ${n}”`,
    heading: `Omar asks you to review “Spring lanterns ${n}”`,
    paragraphs: ['The post is waiting for your review on the board.'],
    action: { label: 'Open the post', url: `https://workspace.example.org/workspace?post=${n}` },
    unsubscribe: { label: 'Stop these mails', url: 'https://workspace.example.org/api/mail/unsubscribe?token=x' },
  };
}

async function bareLoop(smtp, rendered) {
  const transport = smtpTransport(smtp.url, FROM);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < MAILS) {
        const n = next++;
        await transport.send({ to: `reader${n}@museum.test`, ...rendered[n % rendered.length], messageId: `<bare.${n}@museum.test>` });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  return MAILS / seconds;
}

async function outboxDrain(smtp, i18n) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-bench-mail-'));
  const records = await openRecords({ dataDir: dir }, createLogger('silent'));
  const rows = Array.from({ length: MAILS }, (_, n) => ({ kind: 'bench', userId: null, to: `reader${n}@museum.test`, subject: content(n).subject, params: { n } }));
  for (let i = 0; i < rows.length; i += 1_000) await addToOutbox(records.workspace.db, rows.slice(i, i + 1_000), Date.now());
  const t = i18n.getFixedT('en');
  const worker = new MailWorker({
    outbox: new OutboxRepository(records.workspace),
    transport: smtpTransport(smtp.url, FROM),
    compose: async (message) => ({ mail: { to: message.to, ...(await renderMail(content(message.params.n), 'en', t)) } }),
    clock: systemClock,
    logger: createLogger('silent'),
    host: 'museum.test',
  });
  const started = performance.now();
  const handled = await worker.drain();
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  const sent = (await new OutboxRepository(records.workspace).list({ limit: 1, status: 'pending' })).length === 0;
  await records.close();
  fs.rmSync(dir, { recursive: true, force: true });
  if (handled !== MAILS || !sent) throw new Error(`the outbox handled ${handled} of ${MAILS} mails`);
  return MAILS / seconds;
}

async function main() {
  const i18n = createI18n();
  const t = i18n.getFixedT('en');
  // The bare loop sends already written mails: what nodemailer alone costs.
  const rendered = await Promise.all(Array.from({ length: 50 }, (_, n) => renderMail(content(n), 'en', t)));
  const smtp = await smtpServer();
  const results = [];
  // Two rounds each, taken in turn, so that both see the same moments of a busy machine.
  for (let round = 0; round < 2; round += 1) {
    results.push({ round, bare: await bareLoop(smtp, rendered), outbox: await outboxDrain(smtp, i18n) });
  }
  await smtp.close();
  console.log(`load average: ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  console.log('| round | nodemailer bare loop (mails/s) | outbox drained by the worker (mails/s) | outbox / bare |');
  console.log('|---|---|---|---|');
  for (const r of results) console.log(`| ${r.round + 1} | ${r.bare.toFixed(0)} | ${r.outbox.toFixed(0)} | ${((r.outbox / r.bare) * 100).toFixed(0)}% |`);
  if (smtp.received() !== 4 * MAILS) throw new Error(`the server received ${smtp.received()} of ${4 * MAILS} mails`);
}

main().catch((/** @type {unknown} */ err) => {
  console.error(err);
  process.exit(1);
});
