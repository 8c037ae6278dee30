import type { Readable } from 'node:stream';
import { Conflict } from '../../platform/errors';
import type { Lease } from '../../platform/locks';
import type { VisitRow } from '../domain';
import type { Day } from '../dates';
import { readVisitsCsv } from './csv';
import type { VisitRepository } from './repository';

/** Rows staged per statement: a few megabytes, and few enough round trips to a database server. */
const STAGE_BATCH_ROWS = 50_000;

/** An import between upload and commit; holds the one import slot until it ends either way. */
export class CsvImport {
  private rows = 0;
  private ended = false;

  constructor(
    private readonly visits: VisitRepository,
    /** What follows a committed import: the figures rebuilt, and open pages told. */
    private readonly committed: () => Promise<void>,
    private readonly maxBytes: number,
    /** The one import slot; an import that lost it stops before it writes again, as another may have it now. */
    private readonly lease: Lease,
    /** The last day a line may be dated: today in the dashboard's time zone. */
    private readonly lastDay: Day,
  ) {}

  /**
   * Reads and checks the whole file into the staging area; visits are not touched yet. One
   * batch goes in while the next is read, so a database server works while the CSV is parsed.
   */
  async stage(source: Readable): Promise<void> {
    await this.visits.clearStaging();
    let pending: Promise<void> = Promise.resolve();
    const onBatch = async (rows: VisitRow[]) => {
      await pending;
      this.lease.lost.throwIfAborted();
      pending = this.visits.stage(rows);
      // Awaited with the next batch or at the end; until then its failure must not count as unhandled.
      pending.catch(() => undefined);
    };
    try {
      this.rows = await readVisitsCsv(source, { maxBytes: this.maxBytes, batchSize: STAGE_BATCH_ROWS, lastDay: this.lastDay, onBatch });
    } catch (err) {
      // The file's own fault comes first; the batch still going in is let finish before anyone clears the staging area.
      await pending.catch(() => undefined);
      throw err;
    }
    await pending;
  }

  /** Moves the staged rows into visits in one transaction, then refreshes the in-memory copy. */
  async commit(): Promise<{ imported: number }> {
    if (this.ended) throw new Conflict('This import has already ended', 'IMPORT_ENDED');
    this.ended = true;
    try {
      this.lease.lost.throwIfAborted();
      await this.visits.commitStaged();
    } finally {
      await this.lease.release();
    }
    await this.committed();
    return { imported: this.rows };
  }

  /** Drops whatever was staged; does nothing once the import has ended. */
  async discard(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    try {
      // Another instance may hold the slot now, and the staging area with it.
      if (!this.lease.lost.aborted) await this.visits.clearStaging();
    } finally {
      await this.lease.release();
    }
  }
}
