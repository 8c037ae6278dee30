import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from './config';
import { dashboardMigrations } from './dashboard/migrations';
import type { DashboardTables } from './dashboard/tables';
import type { RecordsDb } from './platform/db/engine';
import { migrateToLatest } from './platform/db/migrate';
import { openPostgres, postgresEngine } from './platform/db/postgres';
import { openSqlite, type SqliteHandle } from './platform/db/sqlite';
import { MemorySessionStore, type SessionStore } from './dashboard/auth/session-store';
import { AirtableUserRecordStore } from './dashboard/users/airtable-repository';
import { SqliteIdMarks, SqliteUserRecordStore, type UserRecordStore } from './dashboard/users/repository';
import type { Clock } from './platform/clock';
import { LocalFileStore, type FileStore } from './platform/file-store';
import type { Logger } from './platform/logger';
import { MemoryAttemptCounter, type AttemptCounter } from './platform/rate-limit';
import { MIGRATIONS_DIR } from './platform/paths';
import { databaseSecrets, fileSecrets, secretsMigrations, type SecretKeeper, type SecretsTables } from './platform/secrets';
import { workspaceMigrations } from './workspace/migrations';
import type { WorkspaceTables } from './workspace/tables';

/** Both applications' records, on the engine the configuration names, with their schemas up to date. */
export interface Records {
  dashboard: RecordsDb<DashboardTables> & { handle?: SqliteHandle };
  workspace: RecordsDb<WorkspaceTables> & { handle?: SqliteHandle };
  /** Where generated secrets are kept: the shared database, or DATA_DIR on one machine. */
  secrets: SecretKeeper;
  /** Names the engines that do not answer now (empty when all do). */
  unreachable(): Promise<string[]>;
  close(): Promise<void>;
}

/** How long a health check waits for the database before it counts as out of reach. */
const HEALTH_TIMEOUT_MS = 2_000;

/**
 * SQLite files under DATA_DIR by default; with DATABASE_URL, one PostgreSQL database that
 * every instance shares, each application in a schema of its own, and nothing written to SQLite.
 */
export async function openRecords(config: Pick<Config, 'dataDir' | 'database'>, logger: Logger): Promise<Records> {
  if (config.database) {
    const pool = openPostgres(config.database.url, {
      max: config.database.poolMax,
      onError: (err) => logger.warn({ err }, 'a PostgreSQL connection failed while idle'),
    });
    const platform = { db: pool.db.withSchema('platform') as Kysely<SecretsTables>, engine: postgresEngine };
    const records: Records = {
      dashboard: { db: pool.db.withSchema('dashboard') as Kysely<DashboardTables>, engine: postgresEngine },
      workspace: { db: pool.db.withSchema('workspace') as Kysely<WorkspaceTables>, engine: postgresEngine },
      secrets: databaseSecrets(platform.db),
      unreachable: async () => ((await pool.ping(HEALTH_TIMEOUT_MS)) ? [] : ['database']),
      close: () => pool.close(),
    };
    await migrateToLatest(platform, secretsMigrations, 'platform');
    await migrate(records);
    return records;
  }
  const dashboard = openSqlite<DashboardTables>(path.join(config.dataDir, 'dashboard.db'), path.join(MIGRATIONS_DIR, 'dashboard'));
  const workspace = openSqlite<WorkspaceTables>(path.join(config.dataDir, 'workspace.db'), path.join(MIGRATIONS_DIR, 'workspace'));
  const records: Records = {
    dashboard,
    workspace,
    secrets: fileSecrets(config.dataDir),
    unreachable: async () => [],
    close: async () => {
      await dashboard.db.destroy();
      await workspace.db.destroy();
    },
  };
  await migrate(records);
  return records;
}

async function migrate(records: Records): Promise<void> {
  await migrateToLatest(records.dashboard, dashboardMigrations, 'dashboard');
  await migrateToLatest(records.workspace, workspaceMigrations, 'workspace');
}

/** Everything the applications keep, for the configuration: records, sessions, throttles, files. */
export interface Stores {
  records: Records;
  /** The dashboard's user records: Airtable's Users table when configured, else the records database. */
  dashboardUsers: UserRecordStore;
  dashboardSessions: SessionStore;
  attempts: AttemptCounter;
  files: FileStore;
  close(): Promise<void>;
}

export async function buildStores(config: Config, deps: { logger: Logger; clock: Clock }): Promise<Stores> {
  const records = await openRecords(config, deps.logger);
  const dashboardUsers = config.airtable
    ? new AirtableUserRecordStore({ ...config.airtable, ids: new SqliteIdMarks(records.dashboard.handle!) })
    : new SqliteUserRecordStore(records.dashboard.handle!);
  return {
    records,
    dashboardUsers,
    dashboardSessions: new MemorySessionStore(),
    attempts: new MemoryAttemptCounter(deps.clock),
    files: new LocalFileStore(config.uploadDir),
    close: () => records.close(),
  };
}
