import { RecentLook } from '../../platform/recent';
import type { AccessStamp, AccessStampRepository } from './repository';

/**
 * How old the stamps an instance judges sessions by may be: a change to a user's access is
 * in force on every instance within this long, even when the shared session store missed it.
 */
export const ACCESS_CONFIRM_MS = 1_000;

const UNCHANGED: AccessStamp = { stamp: 0, ended: 0 };

/**
 * This instance's look at the access stamps: a session carries the stamp of the record it
 * copied, and a session whose stamp is behind its user's is refreshed from the record, or
 * ended when a new PIN or a deletion came since. One look serves every request for
 * ACCESS_CONFIRM_MS; this instance's own changes are seen at once.
 */
export class AccessStamps {
  private readonly look = new RecentLook<Map<number, AccessStamp>>(ACCESS_CONFIRM_MS);

  constructor(private readonly stamps: AccessStampRepository) {}

  /** As last looked at, at most ACCESS_CONFIRM_MS ago. */
  async recent(userId: number): Promise<AccessStamp> {
    return (await this.look.get(() => this.stamps.all())).get(userId) ?? UNCHANGED;
  }

  /** As they stand now, for a session about to be opened. */
  async now(): Promise<(userId: number) => AccessStamp> {
    this.look.forget();
    const all = await this.look.get(() => this.stamps.all());
    return (userId) => all.get(userId) ?? UNCHANGED;
  }

  async bump(userId: number, ending: boolean): Promise<number> {
    const stamp = await this.stamps.bump(userId, ending);
    this.look.forget();
    return stamp;
  }
}
