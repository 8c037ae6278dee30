import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { ManualClock } from '../../src/platform/clock';
import { createLogger, type Logger } from '../../src/platform/logger';
import { openDatabase, type Db } from '../../src/platform/sqlite';
import { MemorySessionStore } from '../../src/dashboard/auth/session-store';
import { SqliteUserRecordStore, type UserRecordStore } from '../../src/dashboard/users/repository';

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
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
  db: Db;
  workspaceDb: Db;
  config: Config;
}

export function buildApp(
  opts: { env?: Record<string, string>; users?: UserRecordStore; adminPin?: string | null; logger?: Logger } = {},
): TestDashboard {
  const config = testConfig(opts.env);
  if (opts.adminPin !== undefined) config.adminPin = opts.adminPin ?? undefined;
  const db = openDatabase(path.join(config.dataDir, 'dashboard.db'), 'dashboard');
  cleanups.push(() => db.close());
  const workspaceDb = openDatabase(path.join(config.dataDir, 'workspace.db'), 'workspace');
  cleanups.push(() => workspaceDb.close());
  const clock = new ManualClock();
  const users = opts.users ?? new SqliteUserRecordStore(db);
  const sessions = new MemorySessionStore();
  const app = createApp({
    config,
    clock,
    logger: opts.logger ?? createLogger('silent'),
    dashboard: { db, users, sessions },
    workspace: { db: workspaceDb },
  });
  return { app, clock, users, sessions, db, workspaceDb, config };
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
