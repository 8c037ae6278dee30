import path from 'node:path';
import type { AppConfig } from './app';
import type { Clock } from './platform/clock';
import { createI18n } from './platform/i18n';
import type { Logger } from './platform/logger';
import { fileTransport, smtpTransport, type MailTransport } from './platform/mail/transport';
import { MailWorker } from './platform/mail/worker';
import type { Stores } from './stores';
import { createWorkspaceDigests, createWorkspaceMail } from './workspace';
import { createDashboardMail, createDashboardReports } from './dashboard';
import { SqlAssetRepository } from './workspace/assets/repository';
import { sweepSharedFilesEvery } from './workspace/assets/sweep';

/** Where mail goes: the SMTP server of SMTP_URL, or .eml files under DATA_DIR/outbox. */
export function mailTransport(config: Pick<AppConfig, 'mail' | 'dataDir'>, logger: Logger): MailTransport {
  if (config.mail.smtpUrl) return smtpTransport(config.mail.smtpUrl, config.mail.from);
  return fileTransport(path.join(config.dataDir, 'outbox'), config.mail.from, logger);
}

/**
 * The work a server does besides answering requests: sending both applications' outboxes,
 * queuing each member's morning digest and the dashboard's scheduled reports, sweeping a
 * shared bucket.
 */
export function startBackground(deps: { config: AppConfig; stores: Stores; clock: Clock; logger: Logger; transport?: MailTransport; dashboardTransport?: MailTransport }): { stop(): Promise<void> } {
  const { config, stores, clock, logger } = deps;
  const transport = deps.transport ?? mailTransport(config, logger);
  const i18n = createI18n();
  const mail = createWorkspaceMail({
    records: stores.records.workspace,
    notices: stores.notices,
    clock,
    i18n,
    publicUrl: config.mail.publicUrl,
    timeZone: config.workspaceTimeZone,
    sessionSecret: config.sessionSecret,
  });
  // The project's own tests shorten the outbox's claims with the locks' leases, to see a killed sender's mail go.
  const worker = new MailWorker({ ...mail, transport, clock, logger, host: new URL(config.mail.publicUrl).hostname, leaseMs: config.lockLeaseMs });
  worker.start();
  const digests = createWorkspaceDigests({ records: stores.records.workspace, clock, i18n, logger, timeZone: config.workspaceTimeZone });
  digests.start();
  // The dashboard keeps its own outbox in its own records: a report's period is claimed in the
  // transaction that writes its mail, and the two applications' records may be apart.
  const dashboardDeps = {
    records: stores.records.dashboard,
    users: stores.dashboardUsers,
    clock,
    logger,
    i18n,
    timeZone: config.dashboardTimeZone,
    locks: stores.locks,
    currency: config.dashboardCurrency,
    events: stores.events.channel('dashboard'),
  };
  const dashboardWorker = new MailWorker({
    ...createDashboardMail({ ...dashboardDeps, publicUrl: config.mail.publicUrl }),
    transport: deps.dashboardTransport ?? mailTransport(config, logger),
    clock,
    logger,
    host: new URL(config.mail.publicUrl).hostname,
  });
  dashboardWorker.start();
  const reports = createDashboardReports(dashboardDeps);
  reports.start();
  // A crash mid-upload on any instance leaves objects without rows in a shared bucket; the local disk is swept at start.
  const stopSweeping = stores.filesShared
    ? sweepSharedFilesEvery({ files: stores.files, assets: new SqlAssetRepository(stores.records.workspace), locks: stores.locks, logger })
    : () => undefined;
  const { smtpUrl } = config.mail;
  if (transport.kind === 'files') logger.info(`Mail is written to ${path.join(config.dataDir, 'outbox')} as .eml files (set SMTP_URL to send it)`);
  // A transport the caller gave has no SMTP_URL to name.
  else if (smtpUrl !== undefined) logger.info({ smtp: new URL(smtpUrl).host }, 'Mail goes out through the SMTP server of SMTP_URL');
  return {
    async stop() {
      stopSweeping();
      await Promise.all([digests.stop(), reports.stop(), worker.stop(), dashboardWorker.stop()]);
    },
  };
}
