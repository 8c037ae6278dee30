import { EVERYTHING, type Notices } from '../../platform/notices';
import { MEMBER_CONFIRM_MS, MEMBER_TOPIC, type UserRecord } from '../shared/member';

/**
 * Committed member records by id. Every signed-in request reads its member, and under load
 * that read cost more than the rest of the request; so they are kept here for a short
 * while, and dropped sooner on a notice from whichever instance changed one (all of them on
 * `everything`, which also follows a lost connection to the other instances).
 */
export class MemberCache {
  private readonly records = new Map<number, { record: UserRecord; readAt: number }>();
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

  /** The cached record while it stands, else the one `load` reads, kept unless a notice came in meanwhile. */
  async read(id: number, load: () => Promise<UserRecord | undefined>): Promise<UserRecord | undefined> {
    const cached = this.records.get(id);
    if (cached && Date.now() - cached.readAt < MEMBER_CONFIRM_MS) return cached.record;
    const generation = this.generation;
    const readAt = Date.now();
    const record = await load();
    if (!record) this.records.delete(id);
    else if (generation === this.generation) this.records.set(id, { record, readAt });
    return record;
  }
}
