import type { Server } from 'node:http';
import { ConfigError, loadConfig, type Config } from './config';
import { createApp, type AppConfig } from './app';
import { systemClock } from './platform/clock';
import { createHttpServer } from './platform/http-server';
import { createLogger } from './platform/logger';
import { isWeakPin, PIN_MIN_DIGITS, randomPin } from './dashboard/pins';
import { sweepEvery } from './dashboard/auth/service';
import { prepareDashboard } from './dashboard/bootstrap';
import { prepareWorkspace } from './workspace/bootstrap';
import { SqlAssetRepository } from './workspace/assets/repository';
import { removeOrphanFiles } from './workspace/assets/sweep';
import { buildStores, type Stores } from './stores';
import { startBackground } from './background';

const SHUTDOWN_GRACE_MS = 10_000;
const IDLE_CLOSE_POLL_MS = 50;

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
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  let stores: Stores;
  try {
    stores = await buildStores(config, { logger, clock: systemClock });
  } catch (err) {
    logger.fatal({ err }, config.database ? 'The database at DATABASE_URL cannot be reached or set up' : 'The data store in DATA_DIR cannot be opened');
    process.exit(1);
  }
  const secrets = await stores.records.secrets.resolve({ jwtSecret: config.jwtSecret, sessionSecret: config.sessionSecret });
  let { adminPin } = config;
  if (!adminPin) {
    adminPin = randomPin(PIN_MIN_DIGITS);
    logger.info(`Dashboard administrator PIN for this run: ${adminPin} (set ADMIN_PIN to choose one)`);
  } else if (isWeakPin(adminPin)) {
    logger.warn(`ADMIN_PIN has fewer than ${PIN_MIN_DIGITS} digits and is easy to guess: choose a longer one`);
  }
  const appConfig: AppConfig = Object.freeze({ ...config, adminPin, ...secrets });

  const { dashboard, workspace } = stores.records;
  await prepareDashboard(dashboard, logger);
  await prepareWorkspace(workspace, config.defaultAdmin, logger);
  // Only this instance writes its own disk; in a shared bucket another instance may be mid-upload.
  if (!stores.filesShared) await removeOrphanFiles(stores.files, new SqlAssetRepository(workspace), logger);

  const app = createApp({ config: appConfig, clock: systemClock, logger, stores });
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

void main();
