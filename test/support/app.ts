import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createApp, type AppConfig } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { ManualClock } from '../../src/platform/clock';
import { createLogger, type Logger } from '../../src/platform/logger';
import type { SqliteHandle } from '../../src/platform/db/sqlite';
import { MemorySessionStore } from '../../src/dashboard/auth/session-store';
import type { UserRecordStore } from '../../src/dashboard/users/repository';
import { buildStores, type Stores } from '../../src/stores';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

export function tempDir(prefix = 'museum-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
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
  /** The SQLite handles under the records, for tests that look at rows directly. */
  db: SqliteHandle;
  workspaceDb: SqliteHandle;
  config: AppConfig;
}

/**
 * The app on temporary stores built as server.ts builds them, with a clock the test moves.
 * `adminPin: null` leaves the administrator PIN unset.
 */
export async function buildApp(
  opts: { env?: Record<string, string>; users?: UserRecordStore; adminPin?: string | null; logger?: Logger } = {},
): Promise<TestDashboard> {
  const base = testConfig(opts.env);
  const config: AppConfig = Object.freeze({
    ...base,
    adminPin: opts.adminPin === undefined ? base.adminPin : (opts.adminPin ?? undefined),
    jwtSecret: base.jwtSecret!,
    sessionSecret: base.sessionSecret!,
  });
  const clock = new ManualClock();
  const logger = opts.logger ?? createLogger('silent');
  const built = await buildStores(config, { logger, clock });
  cleanups.push(() => built.close());
  const sessions = new MemorySessionStore();
  const stores: Stores = { ...built, dashboardUsers: opts.users ?? built.dashboardUsers, dashboardSessions: sessions };
  const app = createApp({ config, clock, logger, stores });
  return {
    app,
    clock,
    users: stores.dashboardUsers,
    sessions,
    stores,
    db: stores.records.dashboard.handle!,
    workspaceDb: stores.records.workspace.handle!,
    config,
  };
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
