import type { FileStore } from '../../platform/file-store';
import type { Locks } from '../../platform/locks';
import type { Logger } from '../../platform/logger';
import type { AssetRepository } from './repository';
import { isAssetFileKey } from './service';

/** Keys checked against the database per query. */
const BATCH = 400;

/**
 * How old a file without an asset row must be before a sweep of a shared bucket takes it:
 * an upload under way on any instance has stored its files and not yet its rows, and no
 * upload request lasts anywhere near this long.
 */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
/** How often each instance offers to sweep a shared bucket; one of them does it each time. */
export const SHARED_SWEEP_EVERY_MS = 15 * 60 * 1000;
export const SHARED_SWEEP_LOCK = 'workspace:orphan-sweep';

/**
 * Repair of the file store after a crash. An upload's files are moved into place before its
 * rows are committed, and a deleted asset's row goes before its files, so a process killed
 * in between leaves files that no asset names; they are removed here. Half-written files
 * never reach the store's keys (LocalFileStore writes them aside and clears them when it
 * opens; S3 keeps no half object). A file of an upload still under way would look just the
 * same, so only files written before `writtenBefore` go: the local disk is swept at start,
 * before the server listens, when it holds no such file; a shared bucket, which uploads on
 * other instances write to, with ORPHAN_MIN_AGE_MS to spare. `stop` ends a sweep early.
 * Returns how many went.
 */
export async function removeOrphanFiles(
  files: FileStore,
  assets: AssetRepository,
  logger: Logger,
  opts: { writtenBefore?: number; stop?: AbortSignal } = {},
): Promise<number> {
  let removed = 0;
  let batch: string[] = [];
  const sweep = async () => {
    opts.stop?.throwIfAborted();
    const stored = await assets.storedKeys(batch);
    for (const key of batch) {
      if (stored.has(key)) continue;
      await files.delete(key);
      removed += 1;
    }
    batch = [];
  };
  for await (const { key, modifiedAt } of files.entries()) {
    // Only names this code gives files: whatever else is in the folder is not its to judge.
    if (!isAssetFileKey(key) || (opts.writtenBefore !== undefined && modifiedAt >= opts.writtenBefore)) continue;
    batch.push(key);
    if (batch.length === BATCH) await sweep();
  }
  await sweep();
  if (removed > 0) logger.warn({ removed }, 'removed stored files that no asset names (left by an interrupted upload or deletion)');
  return removed;
}

export interface SharedSweep {
  files: FileStore;
  assets: AssetRepository;
  locks: Locks;
  logger: Logger;
}

/**
 * One sweep of a bucket every instance shares, by whichever instance takes the lock first;
 * the others skip this turn. Answers how many files went, or undefined when another had the turn.
 */
export async function sweepSharedFiles(deps: SharedSweep, now: number): Promise<number | undefined> {
  const lease = await deps.locks.acquire(SHARED_SWEEP_LOCK);
  if (!lease) return undefined;
  try {
    return await removeOrphanFiles(deps.files, deps.assets, deps.logger, { writtenBefore: now - ORPHAN_MIN_AGE_MS, stop: lease.lost });
  } finally {
    await lease.release();
  }
}

/** Sweeps a shared bucket every SHARED_SWEEP_EVERY_MS while the server runs; answers what stops it. */
export function sweepSharedFilesEvery(deps: SharedSweep): () => void {
  const timer = setInterval(() => {
    sweepSharedFiles(deps, Date.now()).catch((err: unknown) => deps.logger.warn({ err }, 'the sweep of the shared bucket stopped; the next one goes on'));
  }, SHARED_SWEEP_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
