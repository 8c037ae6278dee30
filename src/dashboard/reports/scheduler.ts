import type { Clock } from '../../platform/clock';
import type { Logger } from '../../platform/logger';
import type { UserRecordStore } from '../users/repository';
import type { ReportRepository } from './repository';
import { FREQUENCIES } from '../domain';
import { dueDay } from './schedule';
import type { ReportsService } from './service';
import { Periodic } from '../../platform/periodic';

/** How often the scheduler looks which reports are due: a report goes within this of 07:00. */
export const REPORT_CHECK_MS = 60_000;

/**
 * Queues each report's mail once its scheduled day's 07:00 has passed on the dashboard's clock
 * (DASHBOARD_TIMEZONE). Every instance runs one; a report's day is claimed in the transaction
 * that writes its mail, so however many run, one mail goes per report and period. A report
 * whose recipient has no address then is passed over, and goes again at its next period.
 */
export class ReportScheduler {
  private readonly periodic: Periodic;

  constructor(
    private readonly deps: { reports: ReportRepository; service: ReportsService; users: UserRecordStore; clock: Clock; logger: Logger; timeZone: string; everyMs?: number },
  ) {
    this.periodic = new Periodic({ run: () => this.runDue(), everyMs: deps.everyMs ?? REPORT_CHECK_MS, logger: deps.logger, failure: 'the scheduled reports could not be looked at; trying again shortly' });
  }

  /** Queues every report due at `now`; answers how many mails were written. */
  async runDue(now: number = this.deps.clock.now()): Promise<number> {
    const { reports, service, users, logger, timeZone } = this.deps;
    let written = 0;
    for (const frequency of FREQUENCIES) {
      const day = dueDay(frequency, now, timeZone);
      const due = await reports.due(frequency, day);
      if (due.length === 0) continue;
      const recipients = new Map((await users.list()).map((u) => [u.id, u]));
      for (const report of due) {
        try {
          const recipient = recipients.get(report.userId);
          // Nobody to write to: the period is passed over, and nothing is written.
          const mail = recipient?.email ? service.mail(report, recipient, day) : undefined;
          if (!mail) {
            await reports.update(report.id, { lastPeriod: day });
            continue;
          }
          if (await reports.claim(report.id, day, mail, now)) written += 1;
        } catch (err) {
          // The other reports go on; this one is tried again at the next look.
          logger.warn({ err, report: report.id }, 'a scheduled report could not be queued; trying again shortly');
        }
      }
    }
    return written;
  }

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }
}
