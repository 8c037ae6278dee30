import { EVERYTHING, type Notices } from '../../platform/notices';
import type { UserRecord } from './repository';

/** The notice topic of a member's record or brands; without an id, every member's. */
export const MEMBER_TOPIC = 'workspace.user';

/**
 * Committed member records by id. Every signed-in request reads its member, and under load
 * that read cost more than the rest of the request; so they are kept here, and dropped on a
 * notice from whichever instance changed one (all of them on `everything`, which also
 * follows a lost connection to the other instances).
 */
export class MemberCache {
  private readonly records = new Map<number, UserRecord>();
  /** Moves with every notice: a read that began before one must not keep what it read. */
  private generation = 0;

  constructor(notices: Notices) {
    notices.subscribe((notice) => {
      if (notice.topic !== MEMBER_TOPIC && notice.topic !== EVERYTHING) return;
      this.generation += 1;
      if (notice.id === undefined) this.records.clear();
      else this.records.delete(notice.id);
    });
  }

  /** The cached record, or the one `load` reads, kept unless a notice came in meanwhile. */
  async read(id: number, load: () => Promise<UserRecord | undefined>): Promise<UserRecord | undefined> {
    const cached = this.records.get(id);
    if (cached) return cached;
    const generation = this.generation;
    const record = await load();
    if (record && generation === this.generation) this.records.set(id, record);
    return record;
  }
}
