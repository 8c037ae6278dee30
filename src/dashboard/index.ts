import { Router } from 'express';
import type { Clock } from '../platform/clock';
import { requireSameOrigin } from '../platform/csrf';
import type { Logger } from '../platform/logger';
import { loadDashboardSession, requireDashboardAdmin, requireDashboardSession, signedInToDashboard } from './auth/middleware';
import { authRoutes } from './auth/routes';
import { DashboardAuthService } from './auth/service';
import type { SessionStore } from './auth/session-store';
import type { Db } from '../platform/sqlite';
import { SqliteSeasonRepository, SqliteVisitRepository } from './data/repository';
import { dashboardDataRoutes, seasonsRoutes } from './data/routes';
import { DashboardDataService } from './data/service';
import { dashboardPages } from './pages/routes';
import type { UserRecordStore } from './users/repository';
import { usersRoutes } from './users/routes';
import { DashboardUsersService } from './users/service';

export interface DashboardDeps {
  db: Db;
  users: UserRecordStore;
  sessions: SessionStore;
  clock: Clock;
  logger: Logger;
  adminPin: string | undefined;
  cookieSecure: boolean;
}

/** Application A: its routes, under /auth, /api/users, /api/dashboard, /api/seasons and /dashboard, with its own session. */
export function createDashboard(deps: DashboardDeps) {
  const auth = new DashboardAuthService(deps);
  const users = new DashboardUsersService(deps);
  const data = new DashboardDataService({
    visits: new SqliteVisitRepository(deps.db),
    seasons: new SqliteSeasonRepository(deps.db),
    logger: deps.logger,
  });
  const session = loadDashboardSession(auth);
  const sameOrigin = requireSameOrigin(signedInToDashboard);

  const router = Router();
  router.use('/auth', session, authRoutes({ auth, clock: deps.clock, cookieSecure: deps.cookieSecure }));
  router.use('/api/users', session, requireDashboardAdmin, sameOrigin, usersRoutes(users));
  router.use('/api/dashboard', session, requireDashboardSession, sameOrigin, dashboardDataRoutes(data));
  router.use('/api/seasons', session, requireDashboardSession, sameOrigin, seasonsRoutes(data));
  router.use('/dashboard', session, dashboardPages());
  return { router, auth, users, data };
}
