import fs from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import type { Config } from './config';
import type { Clock } from './platform/clock';
import { errorHandler, notFoundHandler } from './platform/errors';
import { createI18n } from './platform/i18n';
import type { Logger } from './platform/logger';
import { PUBLIC_DIR, ROOT } from './platform/paths';
import { createMetrics } from './platform/metrics';
import { serveAssets } from './platform/assets';
import { compressAnswers } from './platform/compression';
import { prelude } from './platform/prelude';
import { setupViews } from './platform/views';
import { apiDocsRoutes } from './platform/api-docs';
import { EventStreams } from './platform/sse';
import { createDashboard } from './dashboard';
import type { Stores } from './stores';
import { createWorkspace } from './workspace';
import { workspaceOutbox } from './workspace/mail/queue';

const CHART_JS_DIST = path.dirname(require.resolve('chart.js'));
const VENDOR_FILES = ['chart.umd.js', 'chart.umd.js.map'];
const API_VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** The unhashed names may change content at any deploy. */
const UNHASHED_MAX_AGE = '5m';

/** The settings once the server has decided what the environment left open. */
export type AppConfig = Readonly<Config> & { readonly jwtSecret: string; readonly sessionSecret: string };

export interface AppDeps {
  config: AppConfig;
  clock: Clock;
  logger: Logger;
  stores: Stores;
  /** The open event streams, which the server ends when it stops; a set of the app's own when not given. */
  streams?: EventStreams;
}

export function createApp(deps: AppDeps): Express {
  const { config, clock, logger, stores } = deps;
  const { attempts } = stores;
  const streams = deps.streams ?? new EventStreams();
  const app = express();
  app.disable('x-powered-by');
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  setupViews(app);

  // Measured only when someone may read it: without a token nothing is counted, and /metrics is as absent as any unknown path.
  const outbox = workspaceOutbox(stores.records.workspace);
  const metrics = config.metricsToken
    ? createMetrics(config.metricsToken, {
        openStreams: () => streams.size,
        mailWaiting: () => outbox.waiting(),
        engines: stores.engines,
        unreachable: () => stores.unreachable(),
        poolUse: stores.records.poolUse,
        redisTimes: stores.redisTimes,
      })
    : undefined;
  if (metrics) app.use(metrics.measure);

  const i18n = createI18n();
  app.use(prelude({ logger, i18n, cookieSecure: config.cookieSecure }));
  // Before the applications' routers: a scrape or a probe creates no session and counts against no limit.
  if (metrics) app.get('/metrics', metrics.endpoint);
  // Liveness: the process runs and its event loop turns. No engine is asked, so an engine
  // out of reach takes the instance out of the load balancer (/healthz) without a restart.
  app.get('/livez', (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ ok: true });
  });
  // A load balancer takes an instance out while an engine it needs does not answer.
  app.get('/healthz', async (_req, res) => {
    const failing = await stores.unreachable();
    res.set('Cache-Control', 'no-store');
    if (failing.length > 0) res.status(503).json({ ok: false, failing });
    else res.json({ ok: true });
  });
  // Pages link the hashed names, compressed once and kept for a year. The source names still
  // answer, briefly cached, for whatever holds an older link: the vendored files by the exact
  // paths once linked (found where Node itself finds the package), then the public folder.
  app.use('/static', serveAssets());
  for (const file of VENDOR_FILES) {
    app.get(`/static/vendor/chart.js/${file}`, (_req, res) => res.sendFile(path.join(CHART_JS_DIST, file), { maxAge: UNHASHED_MAX_AGE }));
  }
  app.use('/static', express.static(PUBLIC_DIR, { index: false, maxAge: UNHASHED_MAX_AGE }));
  app.use(compressAnswers());

  app.use(apiDocsRoutes({ title: 'Museum Platform API', version: API_VERSION }));

  const dashboard = createDashboard({
    records: stores.records.dashboard,
    users: stores.dashboardUsers,
    sessions: stores.dashboardSessions,
    clock,
    logger,
    adminPin: config.adminPin,
    cookieSecure: config.cookieSecure,
    secret: config.sessionSecret,
    attempts,
    locks: stores.locks,
    currency: config.dashboardCurrency,
    timeZone: config.dashboardTimeZone,
    i18n,
    events: stores.events.channel('dashboard'),
    streams,
  });
  app.use(dashboard.router);
  const settings = {
    jwtSecret: config.jwtSecret,
    sessionSecret: config.sessionSecret,
    cookieSecure: config.cookieSecure,
    upload: config.upload,
    publicUrl: config.mail.publicUrl,
    timeZone: config.workspaceTimeZone,
  };
  app.use(
    createWorkspace({
      records: stores.records.workspace,
      notices: stores.notices,
      cookieSessions: stores.workspaceSessions,
      files: stores.files,
      settings,
      clock,
      logger,
      attempts,
      i18n,
      events: stores.events.channel('workspace'),
      streams,
    })
      .router,
  );

  app.get('/', (_req, res) => {
    res.page('home', { title: res.locals.t('home.title') });
  });

  app.use(notFoundHandler);
  app.use(
    errorHandler(
      logger,
      (_req, res, status, message) => {
        res.page('error', { title: String(status), status, message }, status);
      },
      (err) => stores.recognise(err),
    ),
  );
  return app;
}
