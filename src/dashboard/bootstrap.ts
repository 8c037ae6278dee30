import type { RecordsDb } from '../platform/db/engine';
import type { Logger } from '../platform/logger';
import { todayIn } from './dates';
import { demoSeasons, demoVisits } from './visits/demo';
import { SqlSeasonRepository } from './seasons/repository';
import { SqlVisitRepository } from './visits/repository';
import type { DashboardTables } from './tables';

/**
 * First-start work for application A, run by server.ts before it listens: an empty store
 * (no visits and no seasons) gets the demo data set, so a fresh install shows a living
 * dashboard, up to yesterday in the Dashboard's time zone. A store that holds anything is left
 * as it is; users are never touched.
 */
export async function prepareDashboard(records: RecordsDb<DashboardTables>, logger: Logger, timeZone: string, now: number = Date.now()): Promise<void> {
  const visits = new SqlVisitRepository(records);
  const seasons = new SqlSeasonRepository(records);
  if ((await visits.count()) > 0 || (await seasons.list()).length > 0) return;
  const started = Date.now();
  // The day as the Dashboard counts it, so that its "figures run to yesterday" is where the data ends.
  const today = todayIn(timeZone, now);
  const rows = await visits.upsert(demoVisits(today));
  for (const season of demoSeasons(today)) await seasons.create(season);
  logger.info({ rows, ms: Date.now() - started }, 'empty dashboard store: demo visit data and seasons created');
}
