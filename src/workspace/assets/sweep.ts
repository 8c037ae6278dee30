import type { FileStore } from '../../platform/file-store';
import type { Logger } from '../../platform/logger';
import type { AssetRepository } from './repository';
import { isAssetFileKey } from './service';

/** Keys checked against the database per query. */
const BATCH = 400;

/**
 * Start-up repair of the file store after a crash. An upload's files are moved into place
 * before its rows are committed, and a deleted asset's row goes before its files, so a
 * process killed in between leaves files that no asset names; they are removed here.
 * Half-written files never reach the store's keys (LocalFileStore writes them aside and
 * clears them when it opens). Run before the server listens, when no upload is in flight:
 * a file of an upload still under way would look just the same. Returns how many went.
 */
export async function removeOrphanFiles(files: FileStore, assets: AssetRepository, logger: Logger): Promise<number> {
  let removed = 0;
  let batch: string[] = [];
  const sweep = async () => {
    const stored = await assets.storedKeys(batch);
    for (const key of batch) {
      if (stored.has(key)) continue;
      await files.delete(key);
      removed += 1;
    }
    batch = [];
  };
  for await (const key of files.keys()) {
    // Only names this code gives files: whatever else is in the folder is not its to judge.
    if (!isAssetFileKey(key)) continue;
    batch.push(key);
    if (batch.length === BATCH) await sweep();
  }
  await sweep();
  if (removed > 0) logger.warn({ removed }, 'removed stored files that no asset names (left by an interrupted upload or deletion)');
  return removed;
}
