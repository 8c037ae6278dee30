import path from 'node:path';
import type { Server } from 'node:http';
import { ConfigError, loadConfig, type Config } from './config';
import { createApp } from './app';
import { systemClock } from './platform/clock';
import { createHttpServer } from './platform/http-server';
import { createLogger } from './platform/logger';
import { resolveSecrets } from './platform/secrets';
import { isWeakPin, PIN_MIN_DIGITS, randomPin } from './dashboard/pins';
import { openDatabase } from './platform/sqlite';
import { MemorySessionStore } from './dashboard/auth/session-store';
import { sweepEvery } from './dashboard/auth/service';
import { AirtableUserRecordStore } from './dashboard/users/airtable-repository';
import { SqliteIdMarks, SqliteUserRecordStore } from './dashboard/users/repository';
import { prepareDashboard } from './dashboard/bootstrap';
import { prepareWorkspace } from './workspace/bootstrap';
import { SqliteAssetRepository } from './workspace/assets/repository';
import { removeOrphanFiles } from './workspace/assets/sweep';
import { LocalFileStore } from './platform/file-store';

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
  const secrets = resolveSecrets(config.dataDir, { jwtSecret: config.jwtSecret, sessionSecret: config.sessionSecret });
  if (!config.adminPin) {
    config.adminPin = randomPin(PIN_MIN_DIGITS);
    logger.info(`Dashboard administrator PIN for this run: ${config.adminPin} (set ADMIN_PIN to choose one)`);
  } else if (isWeakPin(config.adminPin)) {
    logger.warn(`ADMIN_PIN has fewer than ${PIN_MIN_DIGITS} digits and is easy to guess: choose a longer one`);
  }
  config.jwtSecret = secrets.jwtSecret;
  config.sessionSecret = secrets.sessionSecret;

  const dashboardDb = openDatabase(path.join(config.dataDir, 'dashboard.db'), 'dashboard');
  const users = config.airtable
    ? new AirtableUserRecordStore({ ...config.airtable, ids: new SqliteIdMarks(dashboardDb) })
    : new SqliteUserRecordStore(dashboardDb);
  const sessions = new MemorySessionStore();
  const workspaceDb = openDatabase(path.join(config.dataDir, 'workspace.db'), 'workspace');
  await prepareDashboard(dashboardDb, logger);
  await prepareWorkspace(workspaceDb, config.defaultAdmin, logger);
  await removeOrphanFiles(new LocalFileStore(config.uploadDir), new SqliteAssetRepository(workspaceDb), logger);

  const app = createApp({
    config,
    clock: systemClock,
    logger,
    dashboard: { db: dashboardDb, users, sessions },
    workspace: { db: workspaceDb },
  });
  const stopSweeping = sweepEvery(sessions, systemClock, 10 * 60 * 1000);

  const server: Server = createHttpServer(app).listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port, users: users.kind }, `Listening on http://localhost:${port}`);
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
      dashboardDb.close();
      workspaceDb.close();
      logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

void main();
