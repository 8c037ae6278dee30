import type { Config } from '../config';
import type { Logger } from '../platform/logger';
import type { Db } from '../platform/sqlite';

/** First-start work for application B, run by server.ts before it listens. */
export async function prepareWorkspace(_db: Db, _config: Config, _logger: Logger): Promise<void> {}
