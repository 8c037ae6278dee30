// The application as server.ts builds it (buildStores, then createApp), for the in-process
// benchmarks; `users` replaces the dashboard's user records (the Airtable emulator).
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createApp } = require('../dist/app.js');
const { loadConfig } = require('../dist/config.js');
const { systemClock } = require('../dist/platform/clock.js');
const { createLogger } = require('../dist/platform/logger.js');
const { buildStores } = require('../dist/stores.js');

export async function benchApp(env, { users } = {}) {
  const config = Object.freeze(loadConfig(env));
  const logger = createLogger(config.logLevel);
  const built = await buildStores(config, { logger, clock: systemClock });
  const stores = users ? { ...built, dashboardUsers: users } : built;
  const app = createApp({ config, clock: systemClock, logger, stores });
  return { app, stores, config };
}

/** What an in-process benchmark starts from: its own folders, quiet logs and fixed secrets. */
export function benchEnv(dir, more = {}) {
  return {
    DATA_DIR: dir,
    UPLOAD_DIR: path.join(dir, 'uploads'),
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123456789',
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef01234',
    ...more,
  };
}
