import type { Clock } from '../../platform/clock';
import type { Language } from '../../platform/i18n';
import type { Logger } from '../../platform/logger';
import { dayBefore, wallClock } from '../../platform/time-zone';
import type { MailQueue } from '../mail/queue';
import type { NotificationSettingsRepository } from './repository';
import { deliveriesFor, digestKinds } from './service';
import { Periodic } from '../../platform/periodic';
import { isoTime } from '../shared/values';

/** The digest goes at this hour of each member's own morning. */
export const DIGEST_HOUR = 8;
const DIGEST_MINUTE_OF_DAY = DIGEST_HOUR * 60;

/** The digest's hour as a reader of `lang` writes it (08:00, ٠٨:٠٠). */
export function digestTime(lang: Language): string {
  return new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(Date.UTC(2026, 0, 1, DIGEST_HOUR));
}

/** How often the scheduler looks whose morning it is: a digest goes within this of 08:00. */
export const DIGEST_CHECK_MS = 60_000;

/**
 * Queues each member's daily digest once their wall clock passes 08:00, in their own time
 * zone. Every instance runs one; a member's digest is claimed by moving their digest day in
 * the transaction that writes the mail, so however many run, one digest goes per local day.
 * A member first met by the scheduler gets their first digest at the next 08:00, with all
 * that is unread until then. A digest of nothing unread is not written, but the day still
 * counts: the next one covers only what came after.
 */
export class DigestScheduler {
  private readonly periodic: Periodic;

  constructor(
    private readonly deps: { settings: NotificationSettingsRepository; mail: MailQueue; clock: Clock; logger: Logger; timeZone: string; everyMs?: number },
  ) {
    this.periodic = new Periodic({ run: () => this.runDue(), everyMs: deps.everyMs ?? DIGEST_CHECK_MS, logger: deps.logger, failure: 'the daily digests could not be looked at; trying again shortly' });
  }

  /** Queues every digest due at `now`; answers how many were written. */
  async runDue(now: number = this.deps.clock.now()): Promise<number> {
    const { settings, mail, logger } = this.deps;
    const members = await settings.digestMembers();
    const due: { member: (typeof members)[number]; day: string }[] = [];
    for (const member of members) {
      const wall = wallClock(member.timeZone ?? this.deps.timeZone, now);
      const past = wall.minutes >= DIGEST_MINUTE_OF_DAY;
      if (member.lastDay === null) await settings.startDigests(member.id, past ? wall.day : dayBefore(wall.day));
      else if (past && member.lastDay < wall.day) due.push({ member, day: wall.day });
    }
    if (due.length === 0) return 0;
    const deliveries = await settings.deliveries(due.map((d) => d.member.id));
    let written = 0;
    for (const { member, day } of due) {
      try {
        const claimed = await settings.claimDigest({
          userId: member.id,
          day,
          now: isoTime(now),
          kinds: digestKinds(deliveriesFor(deliveries, member.id)),
          mail: (span) => mail.mail('digest', member, { ...span }),
        });
        if (claimed && claimed.unread > 0) written += 1;
      } catch (err) {
        // The others' mornings go on; this one is tried again at the next look.
        logger.warn({ err, member: member.id }, 'a daily digest could not be queued; trying again shortly');
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
