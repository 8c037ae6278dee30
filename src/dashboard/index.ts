import { Router } from 'express';
import type { Clock } from '../platform/clock';
import { DeviceCookies } from '../platform/device-cookie';
import type { Logger } from '../platform/logger';
import type { AttemptCounter } from '../platform/rate-limit';
import type { Locks } from '../platform/locks';
import { dashboardAccess } from './auth/middleware';
import { authRoutes, DEVICE_COOKIE } from './auth/routes';
import { DashboardAuthService } from './auth/service';
import type { SessionStore } from './auth/session-store';
import type { RecordsDb } from '../platform/db/engine';
import type { DashboardTables } from './tables';
import { analyticsRoutes } from './analytics/routes';
import { AnalyticsService } from './analytics/service';
import { SqlSeasonRepository } from './seasons/repository';
import { seasonsRoutes } from './seasons/routes';
import { SeasonsService } from './seasons/service';
import { SqlVisitRepository } from './visits/repository';
import { visitsRoutes } from './visits/routes';
import { VisitsService } from './visits/service';
import { dashboardPages } from './pages/routes';
import { KyselyAuditRepository } from './audit/repository';
import { auditRoutes } from './audit/routes';
import { AuditTrail } from './audit/service';
import { SqlAccessStamps, type UserRecordStore } from './users/repository';
import { AccessStamps } from './users/access-stamps';
import { usersRoutes } from './users/routes';
import { DashboardUsersService } from './users/service';
import type { i18n } from 'i18next';
import type { Composer } from '../platform/mail/worker';
import type { OutboxRepository } from '../platform/mail/outbox';
import { reportComposer } from './reports/mail';
import { dashboardOutbox, SqlReportRepository } from './reports/repository';
import { reportsRoutes } from './reports/routes';
import { ReportScheduler } from './reports/scheduler';
import { ReportsService } from './reports/service';
import { SqlAnnotationRepository } from './annotations/repository';
import { annotationsRoutes } from './annotations/routes';
import { AnnotationsService } from './annotations/service';
import { SqlSavedViewRepository } from './views/repository';
import { savedViewsRoutes } from './views/routes';
import { SavedViewsService } from './views/service';
import type { EventChannel } from '../platform/events';
import type { EventStreams } from '../platform/sse';
import { DashboardLive, figuresFeed } from './events/live';
import { dashboardEventsRoutes } from './events/routes';

/** How long another instance's import or season change may take to show here, on a shared database. */
const FRESH_FOR_MS = 250;

export interface DashboardDeps {
  records: RecordsDb<DashboardTables>;
  users: UserRecordStore;
  sessions: SessionStore;
  clock: Clock;
  logger: Logger;
  adminPin: string | undefined;
  cookieSecure: boolean;
  /** Signs the device cookies of browsers that signed in. */
  secret: string;
  attempts: AttemptCounter;
  locks: Locks;
  /** ISO 4217 code the pages format revenue in. */
  currency: string;
  /** IANA zone of the dashboard's "today" (DASHBOARD_TIMEZONE). */
  timeZone: string;
  /** Reports are written in their recipient's language. */
  i18n: i18n;
  /** Where a change of the figures goes out to every instance's open pages. */
  events: EventChannel;
  /** The server's open event streams. */
  streams: EventStreams;
}

/**
 * The figures, the seasons and the visits over a records store. The routes and the reports'
 * mail each hold one set: the mail's is read once a week or month, and the version check
 * brings either up to date.
 */
function dashboardData(deps: Pick<DashboardDeps, 'records' | 'logger' | 'clock' | 'timeZone' | 'locks' | 'events' | 'currency'>, trail: AuditTrail) {
  // A version check on SQLite costs microseconds; across the network to PostgreSQL, a round trip per request.
  const freshForMs = deps.records.engine.kind === 'postgres' ? FRESH_FOR_MS : 0;
  const live = figuresFeed(deps.events);
  const visitRows = new SqlVisitRepository(deps.records);
  const seasons = new SeasonsService({ seasons: new SqlSeasonRepository(deps.records), trail, live, freshForMs });
  const figures = new AnalyticsService({ visits: visitRows, seasons, logger: deps.logger, clock: deps.clock, timeZone: deps.timeZone, freshForMs });
  const visits = new VisitsService({ visits: visitRows, figures, trail, currency: deps.currency, locks: deps.locks, live });
  return { seasons, figures, visits };
}

function auditTrail(deps: Pick<DashboardDeps, 'records' | 'clock' | 'logger'>): AuditTrail {
  return new AuditTrail({ audit: new KyselyAuditRepository(deps.records), clock: deps.clock, logger: deps.logger });
}

function reportsService(deps: Pick<DashboardDeps, 'records' | 'users' | 'clock' | 'timeZone' | 'i18n'>): ReportsService {
  return new ReportsService({
    reports: new SqlReportRepository(deps.records),
    users: deps.users,
    views: new SqlSavedViewRepository(deps.records),
    clock: deps.clock,
    timeZone: deps.timeZone,
    i18n: deps.i18n,
  });
}

/** Application A: its routes, under /auth, /api/users, /api/dashboard, /api/seasons and /dashboard, with its own session. */
export function createDashboard(deps: DashboardDeps) {
  const stamps = new AccessStamps(new SqlAccessStamps(deps.records));
  const trail = auditTrail(deps);
  const auth = new DashboardAuthService({ ...deps, stamps, trail });
  const users = new DashboardUsersService({ ...deps, stamps, trail });
  const { seasons, figures, visits } = dashboardData(deps, trail);
  const views = new SavedViewsService({ views: new SqlSavedViewRepository(deps.records), clock: deps.clock, today: () => figures.today() });
  const notes = new AnnotationsService({
    notes: new SqlAnnotationRepository(deps.records),
    clock: deps.clock,
    museums: () => figures.museums(),
    trail,
  });
  const live = new DashboardLive({ channel: deps.events, streams: deps.streams, auth, logger: deps.logger });
  const devices = new DeviceCookies({ name: DEVICE_COOKIE, path: '/auth', secret: deps.secret, secure: deps.cookieSecure, clock: deps.clock });
  const router = Router();
  router.use('/auth', dashboardAccess(auth, 'anyone'), authRoutes({ auth, devices, attempts: deps.attempts, clock: deps.clock, cookieSecure: deps.cookieSecure }));
  router.use('/api/users', dashboardAccess(auth, 'admin'), usersRoutes({ users, attempts: deps.attempts, clock: deps.clock }));
  router.use('/api/dashboard/views', dashboardAccess(auth, 'session'), savedViewsRoutes(views));
  router.use('/api/dashboard/annotations', dashboardAccess(auth, 'session'), annotationsRoutes(notes));
  router.use('/api/dashboard/events', dashboardAccess(auth, 'session'), dashboardEventsRoutes(live));
  router.use('/api/dashboard/reports', dashboardAccess(auth, 'session'), reportsRoutes(reportsService(deps)));
  router.use('/api/dashboard', dashboardAccess(auth, 'session'), analyticsRoutes(figures, views), visitsRoutes(visits, figures, views, deps.i18n));
  router.use('/api/seasons', dashboardAccess(auth, 'session'), seasonsRoutes(seasons));
  router.use('/api/audit', dashboardAccess(auth, 'admin'), auditRoutes(trail));
  router.use('/dashboard', dashboardAccess(auth, 'anyone'), dashboardPages(deps.currency, figures));
  return { router };
}

/** What the dashboard's mail worker needs: its outbox, and the writer of its reports. */
export function createDashboardMail(
  deps: Pick<DashboardDeps, 'records' | 'users' | 'clock' | 'logger' | 'timeZone' | 'locks' | 'i18n' | 'currency' | 'events'> & { publicUrl: string },
): { outbox: OutboxRepository; compose: Composer } {
  return {
    outbox: dashboardOutbox(deps.records),
    compose: reportComposer({
      reports: new SqlReportRepository(deps.records),
      users: deps.users,
      views: new SqlSavedViewRepository(deps.records),
      data: dashboardData(deps, auditTrail(deps)),
      i18n: deps.i18n,
      publicUrl: deps.publicUrl,
      timeZone: deps.timeZone,
      currency: deps.currency,
    }),
  };
}

/** The scheduled reports' scheduler, which each instance runs beside its mail workers. */
export function createDashboardReports(deps: Pick<DashboardDeps, 'records' | 'users' | 'clock' | 'logger' | 'timeZone' | 'i18n'>): ReportScheduler {
  return new ReportScheduler({
    reports: new SqlReportRepository(deps.records),
    service: reportsService(deps),
    users: deps.users,
    clock: deps.clock,
    logger: deps.logger,
    timeZone: deps.timeZone,
  });
}
