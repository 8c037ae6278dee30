import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp, type AppConfig } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { ManualClock } from '../../src/platform/clock';
import { createLogger, type Logger } from '../../src/platform/logger';
import Database from 'better-sqlite3';
import type { SqliteHandle } from '../../src/platform/db/sqlite';
import { MemorySessionStore } from '../../src/dashboard/auth/session-store';
import type { UserRecordStore } from '../../src/dashboard/users/repository';
import { buildStores, type Stores } from '../../src/stores';
import type { EngineKind } from '../../src/platform/db/engine';
import { afterThisTest } from './cleanups';
import { migratedDatabase } from './postgres';
import { withMigratedSqlite } from './sqlite-template';


export function tempDir(prefix = 'museum-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterThisTest(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function testConfig(env: Record<string, string> = {}): Config {
  const dir = tempDir();
  return loadConfig({ DATA_DIR: dir, UPLOAD_DIR: path.join(dir, 'uploads'), LOG_LEVEL: 'silent',
    ADMIN_PIN: '999999',
    JWT_SECRET: 'test-jwt-secret-0123456789abcdef0123456789',
    SESSION_SECRET: 'test-session-secret-0123456789abcdef012345',
    ...env,
   });
}

export interface TestDashboard {
  app: ReturnType<typeof createApp>;
  clock: ManualClock;
  users: UserRecordStore;
  sessions: MemorySessionStore;
  stores: Stores;
  /** Connections of their own to the SQLite files under the records, for tests that look at rows directly. */
  db: SqliteHandle;
  workspaceDb: SqliteHandle;
  config: AppConfig;
}

/**
 * The app on temporary stores built as server.ts builds them, with a clock the test moves.
 * `adminPin: null` leaves the administrator PIN unset.
 */
export async function buildApp(
  opts: { env?: Record<string, string>; users?: UserRecordStore; adminPin?: string | null; logger?: Logger; engine?: EngineKind } = {},
): Promise<TestDashboard> {
  const engine = opts.engine ?? testEngine();
  const base = testConfig({ ...(engine === 'postgres' ? { DATABASE_URL: await migratedDatabase() } : {}), ...opts.env });
  if (!base.database) withMigratedSqlite(base.dataDir);
  const config: AppConfig = Object.freeze({
    ...base,
    adminPin: opts.adminPin === undefined ? base.adminPin : (opts.adminPin ?? undefined),
    jwtSecret: base.jwtSecret!,
    sessionSecret: base.sessionSecret!,
  });
  const clock = new ManualClock();
  const logger = opts.logger ?? createLogger('silent');
  const built = await buildStores(config, { logger, clock });
  afterThisTest(() => built.close());
  const sessions = new MemorySessionStore();
  const stores: Stores = { ...built, dashboardUsers: opts.users ?? built.dashboardUsers, dashboardSessions: sessions };
  const app = createApp({ config, clock, logger, stores });
  return {
    app,
    clock,
    users: stores.dashboardUsers,
    sessions,
    stores,
    db: sqliteFile(engine, path.join(config.dataDir, 'dashboard.db')),
    workspaceDb: sqliteFile(engine, path.join(config.dataDir, 'workspace.db')),
    config,
  };
}

/**
 * The engine route tests run on: SQLite, or PostgreSQL for the run of the route suites that
 * proves the wiring there (TEST_ENGINE=postgres, set by the vitest project of that name).
 */
export function testEngine(): EngineKind {
  return process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
}

/** A second connection to a records file (WAL lets it read and write beside the app's), closed after the test. */
function sqliteFile(engine: EngineKind, file: string): SqliteHandle {
  if (engine !== 'sqlite') {
    return new Proxy({} as SqliteHandle, {
      get() {
        throw new Error('This test reads SQLite rows directly, so it runs on SQLite only');
      },
    });
  }
  const handle = new Database(file);
  handle.pragma('foreign_keys = ON');
  handle.pragma('busy_timeout = 5000');
  afterThisTest(() => handle.close());
  return handle;
}

/** The value of one cookie from a response's Set-Cookie headers. */
export function cookieFrom(res: { headers: Record<string, unknown> }, name: string): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  const line = list.find((c: string) => c.startsWith(`${name}=`));
  return line?.split(';')[0].slice(name.length + 1);
}

export function setCookieLine(res: { headers: Record<string, unknown> }, name: string): string | undefined {
  const raw = res.headers['set-cookie'];
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  return list.find((c: string) => c.startsWith(`${name}=`));
}
