import { onTestFinished } from 'vitest';
import { createI18n } from '../../src/platform/i18n';
import { createLogger } from '../../src/platform/logger';
import { smtpTransport } from '../../src/platform/mail/transport';
import { MailWorker } from '../../src/platform/mail/worker';
import { createDashboardMail } from '../../src/dashboard';
import { createWorkspaceMail } from '../../src/workspace';
import type { TestDashboard } from './app';
import { startSmtpForTest, type Received, type TestSmtpServer } from './smtp';

/** The outbox of a test app, sent by a worker to a real SMTP server of the test's own. */
export interface TestMail {
  smtp: TestSmtpServer;
  worker: MailWorker;
  /** Sends what is due and answers what the SMTP server received since the last call. */
  deliver(): Promise<Received[]>;
}

export async function mailFor(app: TestDashboard): Promise<TestMail> {
  const smtp = await startSmtpForTest();
  const { config, stores, clock } = app;
  const worker = new MailWorker({
    ...createWorkspaceMail({ records: stores.records.workspace, notices: stores.notices, clock, i18n: createI18n(), publicUrl: config.mail.publicUrl, timeZone: config.workspaceTimeZone, sessionSecret: config.sessionSecret }),
    transport: smtpTransport(smtp.url, config.mail.from),
    clock,
    logger: createLogger('silent'),
    host: 'museum.test',
  });
  onTestFinished(() => worker.stop());
  let seen = 0;
  return {
    smtp,
    worker,
    async deliver() {
      // The test server keeps a message before it accepts it, so every accepted mail is here once the drain ends.
      await worker.drain();
      const fresh = smtp.received.slice(seen);
      seen = smtp.received.length;
      return fresh;
    },
  };
}

/** The first address in a mail's text that starts with `prefix`. */
export function linkIn(mail: Received, prefix: string): string {
  const found = (mail.parsed.text ?? '').split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`No link starting with ${prefix} in: ${mail.parsed.text ?? ''}`);
  return found;
}

/** The dashboard's outbox of a test app (its scheduled reports), sent by a worker to a real SMTP server of the test's own. */
export async function dashboardMailFor(app: TestDashboard): Promise<TestMail> {
  const smtp = await startSmtpForTest();
  const { config, stores, clock } = app;
  const worker = new MailWorker({
    ...createDashboardMail({
      records: stores.records.dashboard,
      users: stores.dashboardUsers,
      clock,
      logger: createLogger('silent'),
      timeZone: config.dashboardTimeZone,
      locks: stores.locks,
      i18n: createI18n(),
      currency: config.dashboardCurrency,
      events: stores.events.channel('dashboard'),
      publicUrl: config.mail.publicUrl,
    }),
    transport: smtpTransport(smtp.url, config.mail.from),
    clock,
    logger: createLogger('silent'),
    host: 'museum.test',
  });
  onTestFinished(() => worker.stop());
  let seen = 0;
  return {
    smtp,
    worker,
    async deliver() {
      await worker.drain();
      const fresh = smtp.received.slice(seen);
      seen = smtp.received.length;
      return fresh;
    },
  };
}
