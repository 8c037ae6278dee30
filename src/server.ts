import type { Server } from 'node:http';
import { ConfigError, loadConfig, type Config } from './config';
import { createApp, type AppConfig } from './app';
import { systemClock } from './platform/clock';
import { createHttpServer } from './platform/http-server';
import { createLogger, type Logger } from './platform/logger';
import { isWeakPin, PIN_MIN_DIGITS, randomPin } from './dashboard/pins';
import { sweepEvery } from './dashboard/auth/service';
import { prepareDashboard } from './dashboard/bootstrap';
import { prepareWorkspace } from './workspace/bootstrap';
import { SqlAssetRepository } from './workspace/assets/repository';
import { removeOrphanFiles } from './workspace/assets/sweep';
import { buildStores, type Stores } from './stores';
import { startBackground } from './background';
import { EventStreams } from './platform/sse';
import { refuseOldNode } from './platform/node-version';

const SHUTDOWN_GRACE_MS = 10_000;
const IDLE_CLOSE_POLL_MS = 50;
/** Tries of the start-up work while it fails because an engine did not answer; pauses grow to at most 5 s between them. */
const START_TRIES = 6;
const START_PAUSE_MAX_MS = 5_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

async function main(): Promise<void> {
  refuseOldNode();
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  let stores: Stores;
  try {
    stores = await buildStores(config, { logger, clock: systemClock });
  } catch (err) {
    logger.fatal({ err }, config.database ? 'The database at DATABASE_URL cannot be reached or set up' : 'The data store in DATA_DIR cannot be opened');
    process.exit(1);
  }
  let secrets: Awaited<ReturnType<typeof prepare>>;
  try {
    secrets = await retried(() => prepare(config, stores, logger), (err) => stores.recognise(err) !== undefined, logger);
  } catch (err) {
    logger.fatal({ err }, 'The start-up work (secrets, demo data, the default superadmin) could not be done');
    await stores.close().catch(() => undefined);
    process.exit(1);
  }
  let { adminPin } = config;
  if (!adminPin) {
    adminPin = randomPin(PIN_MIN_DIGITS);
    logger.info(`Dashboard administrator PIN for this run: ${adminPin} (set ADMIN_PIN to choose one)`);
  } else if (isWeakPin(adminPin)) {
    logger.warn(`ADMIN_PIN has fewer than ${PIN_MIN_DIGITS} digits and is easy to guess: choose a longer one`);
  }
  const appConfig: AppConfig = Object.freeze({ ...config, adminPin, ...secrets });

  const streams = new EventStreams();
  const app = createApp({ config: appConfig, clock: systemClock, logger, stores, streams });
  const stopSweeping = sweepEvery(stores.dashboardSessions, systemClock, 10 * 60 * 1000);
  const background = startBackground({ config: appConfig, stores, clock: systemClock, logger });

  const server: Server = createHttpServer(app).listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port, users: stores.dashboardUsers.kind, records: config.database ? 'postgres' : 'sqlite' }, `Listening on http://localhost:${port}`);
  });
  server.on('error', (err) => {
    logger.fatal({ err }, 'server failed to start');
    process.exit(1);
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    // Live streams never finish by themselves: each is told to reconnect at once (to another instance) and ended.
    streams.closeAll();
    stopSweeping();
    const force = setTimeout(() => {
      logger.warn('requests still open after the grace period; closing them');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    // A keep-alive connection whose request was in flight at the signal would otherwise hold
    // the close open until its idle timeout once that request is answered. Polling while
    // stopping costs nothing per request, unlike a hook on every answer.
    const closeIdle = setInterval(() => server.closeIdleConnections(), IDLE_CLOSE_POLL_MS);
    closeIdle.unref();
    server.close(() => {
      clearInterval(closeIdle);
      // Mail being sent is finished first: a message cut off now would only go again later.
      void background
        .stop()
        .then(() => stores.close())
        .finally(() => {
          logger.info('stopped');
          process.exit(0);
        });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/**
 * What must be in place before the server listens: the shared secrets, the dashboard's demo
 * data and the workspace's superadmin (once, however many instances start together on one
 * database: the others wait for the first and find it done), and the local disk's repair.
 */
async function prepare(config: Config, stores: Stores, logger: Logger) {
  const secrets = await stores.records.secrets.resolve({ jwtSecret: config.jwtSecret, sessionSecret: config.sessionSecret });
  const { dashboard, workspace } = stores.records;
  await stores.records.exclusively('start-up', async () => {
    await prepareDashboard(dashboard, logger, config.dashboardTimeZone);
    await prepareWorkspace(workspace, config.defaultAdmin, logger);
  });
  // Only this instance writes its own disk; a shared bucket is swept while the server runs.
  if (!stores.filesShared) await removeOrphanFiles(stores.files, new SqlAssetRepository(workspace), logger);
  return secrets;
}

/**
 * Runs `work` again while it fails `transient`ly (an engine that did not answer: a database
 * still starting, or slow under several instances starting at once), pausing longer each
 * time; a lasting or other failure is thrown, for one clear line and a non-zero exit.
 */
async function retried<T>(work: () => Promise<T>, transient: (err: unknown) => boolean, logger: Logger): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= START_TRIES || !transient(err)) throw err;
      const pauseMs = Math.min(1_000 * 2 ** (attempt - 1), START_PAUSE_MAX_MS);
      logger.warn({ err, attempt, pauseMs }, 'The start-up work waited in vain for an engine; trying again');
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`The server could not start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
