import type { Logger } from '../platform/logger';
import type { Db } from '../platform/sqlite';

/** First-start work for application A (demo data on an empty store), run by server.ts before it listens. */
export async function prepareDashboard(_db: Db, _logger: Logger): Promise<void> {}
