import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from './config';
import { dashboardMigrations } from './dashboard/migrations';
import type { DashboardTables } from './dashboard/tables';
import type { RecordsDb } from './platform/db/engine';
import { migrateToLatest } from './platform/db/migrate';
import { openPostgres, postgresBulk, postgresEngine } from './platform/db/postgres';
import { openSqlite } from './platform/db/sqlite';
import { MemorySessionStore, type SessionStore } from './dashboard/auth/session-store';
import { AirtableUserRecordStore } from './dashboard/users/airtable-repository';
import { SqlIdMarks, SqlUserRecordStore, type UserRecordStore } from './dashboard/users/repository';
import type { Clock } from './platform/clock';
import { LocalFileStore, type FileStore } from './platform/file-store';
import { isObjectStoreUnreachable, ObjectStoreUnavailable, S3FileStore } from './platform/s3-file-store';
import type { Logger } from './platform/logger';
import { MemoryAttemptCounter, type AttemptCounter } from './platform/rate-limit';
import { MIGRATIONS_DIR } from './platform/paths';
import { databaseSecrets, fileSecrets, secretsMigrations, type SecretKeeper, type SecretsTables } from './platform/secrets';
import { workspaceMigrations } from './workspace/migrations';
import type { WorkspaceTables } from './workspace/tables';
import { RedisSessionStore } from './dashboard/auth/redis-session-store';
import { LocalNotices, RedisNotices, type Notices } from './platform/notices';
import { connectRedis, isRedisUnreachable, RedisUnavailable, type RedisConnection } from './platform/redis';
import { RedisAttemptCounter } from './platform/redis-attempts';
import { LocalLocks, RedisLocks, type Locks } from './platform/locks';
import { LocalEventBus, RedisEventBus, type EventBus } from './platform/events';
import type { CookieSessionStore } from './workspace/auth/middleware';
import { RedisCookieSessions } from './workspace/auth/redis-session-store';
import { randomUUID } from 'node:crypto';
import type { HttpError } from './platform/errors';
import { DatabaseUnavailable } from './platform/db/engine';

/** Both applications' records, on the engine the configuration names, with their schemas up to date. */
export interface Records {
  dashboard: RecordsDb<DashboardTables>;
  workspace: RecordsDb<WorkspaceTables>;
  /** Where generated secrets are kept: the shared database, or DATA_DIR on one machine. */
  secrets: SecretKeeper;
  /** Names the engines that do not answer now (empty when all do). */
  unreachable(): Promise<string[]>;
  /** Runs `work` while no other instance on these records runs work of the same name. */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T>;
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
    await migratePostgres(config.database.url);
    const pool = openPostgres(config.database.url, {
      max: config.database.poolMax,
      onError: (err) => logger.warn({ err }, 'a PostgreSQL connection failed while idle'),
      onStall: () => logger.warn('The database at DATABASE_URL stopped answering: requests that need it answer 503 until it does'),
      onRecover: () => logger.info('The database at DATABASE_URL answers again'),
    });
    const platform = { db: pool.db.withSchema('platform') as Kysely<SecretsTables>, engine: postgresEngine };
    const records: Records = {
      dashboard: { db: pool.db.withSchema('dashboard') as Kysely<DashboardTables>, engine: postgresEngine, bulk: postgresBulk(pool, 'dashboard') },
      workspace: { db: pool.db.withSchema('workspace') as Kysely<WorkspaceTables>, engine: postgresEngine, bulk: postgresBulk(pool, 'workspace') },
      secrets: databaseSecrets(platform.db),
      unreachable: async () => ((await pool.ping(HEALTH_TIMEOUT_MS)) ? [] : ['database']),
      exclusively: (name, work) => pool.exclusively(name, work),
      close: () => pool.close(),
    };
    return records;
  }
  const dashboard = openSqlite<DashboardTables>(path.join(config.dataDir, 'dashboard.db'), path.join(MIGRATIONS_DIR, 'dashboard'));
  const workspace = openSqlite<WorkspaceTables>(path.join(config.dataDir, 'workspace.db'), path.join(MIGRATIONS_DIR, 'workspace'));
  const records: Records = {
    dashboard,
    workspace,
    secrets: fileSecrets(config.dataDir),
    unreachable: async () => [],
    // SQLite files belong to one running server.
    exclusively: (_name, work) => work(),
    close: async () => {
      await dashboard.db.destroy();
      await workspace.db.destroy();
    },
  };
  await migrate(records);
  return records;
}

/** How long one schema step (or the wait for another instance's steps) may take. */
const MIGRATION_STATEMENT_MS = 10 * 60 * 1000;

/**
 * The schemas brought up to date on a pool of their own, whose statements are not bound by
 * a request's deadline: an instance started beside another waits on the migrator's lock
 * for as long as the other takes to apply the steps.
 */
async function migratePostgres(url: string): Promise<void> {
  const pool = openPostgres(url, { max: 2, onError: () => undefined, statementTimeoutMs: MIGRATION_STATEMENT_MS });
  try {
    await migrateToLatest({ db: pool.db.withSchema('platform'), engine: postgresEngine }, secretsMigrations, 'platform');
    await migrateToLatest({ db: pool.db.withSchema('dashboard') as Kysely<DashboardTables>, engine: postgresEngine }, dashboardMigrations, 'dashboard');
    await migrateToLatest({ db: pool.db.withSchema('workspace') as Kysely<WorkspaceTables>, engine: postgresEngine }, workspaceMigrations, 'workspace');
  } finally {
    await pool.close();
  }
}

async function migrate(records: Pick<Records, 'dashboard' | 'workspace'>): Promise<void> {
  await migrateToLatest(records.dashboard, dashboardMigrations, 'dashboard');
  await migrateToLatest(records.workspace, workspaceMigrations, 'workspace');
}

/** Everything the applications keep, for the configuration: records, sessions, throttles, files. */
export interface Stores {
  records: Records;
  /** The dashboard's user records: Airtable's Users table when configured, else the records database. */
  dashboardUsers: UserRecordStore;
  dashboardSessions: SessionStore;
  /** The workspace's cookie sessions when kept outside the records (Redis); else the workspace keeps them in its records. */
  workspaceSessions?: CookieSessionStore;
  attempts: AttemptCounter;
  files: FileStore;
  /** Tells every instance that something it may cache changed. */
  notices: Notices;
  /** Work that runs once at a time across every instance. */
  locks: Locks;
  /** Events for the pages' live streams, heard by every instance, the last minutes of them kept. */
  events: EventBus;
  /** Whether the files are shared by every instance (an object store), rather than this machine's own. */
  filesShared: boolean;
  /** Names the configured engines that do not answer now (empty when all do). */
  unreachable(): Promise<string[]>;
  /** The 503 for an error that says an engine is out of reach, or undefined. */
  recognise(err: unknown): HttpError | undefined;
  close(): Promise<void>;
}

export async function buildStores(config: Config, deps: { logger: Logger; clock: Clock }): Promise<Stores> {
  const records = await openRecords(config, deps.logger);
  let redisNotices: RedisNotices | undefined;
  let redis: RedisConnection | undefined;
  let events: EventBus;
  try {
    redis = config.redisUrl ? await connectSharedState(config.redisUrl, deps.logger, () => redisNotices?.missedSome()) : undefined;
    if (redis) {
      redisNotices = new RedisNotices(redis.client, redis.subscriber, randomUUID(), (err, notice) =>
        deps.logger.warn({ err, notice }, 'a notice could not reach the other instances; they confirm their copies with the records instead'),
      );
      await redisNotices.start();
    }
    events = redis
      ? new RedisEventBus(redis.client, await redis.openSubscriber(), (err) => deps.logger.warn({ err }, 'an event for the live pages could not be sent: pages open now miss it until they load again'))
      : new LocalEventBus(deps.clock);
  } catch (err) {
    await redis?.close();
    await records.close();
    throw err;
  }
  const objects = config.s3
    ? new S3FileStore(config.s3, {
        onStall: () => deps.logger.warn('The bucket at S3_ENDPOINT stopped answering: requests that need it answer 503 until it does'),
        onRecover: () => deps.logger.info('The bucket at S3_ENDPOINT answers again'),
      })
    : undefined;
  const files = objects ?? new LocalFileStore(config.uploadDir);
  const dashboardUsers = config.airtable
    ? new AirtableUserRecordStore({ ...config.airtable, ids: new SqlIdMarks(records.dashboard) })
    : new SqlUserRecordStore(records.dashboard);
  return {
    records,
    dashboardUsers,
    dashboardSessions: redis ? new RedisSessionStore(redis.client, deps.clock) : new MemorySessionStore(),
    workspaceSessions: redis ? new RedisCookieSessions(redis.client) : undefined,
    attempts: redis ? new RedisAttemptCounter(redis.client) : new MemoryAttemptCounter(deps.clock),
    files,
    filesShared: objects !== undefined,
    notices: redisNotices ?? new LocalNotices(),
    locks: redis ? new RedisLocks(redis.client, config.lockLeaseMs) : new LocalLocks(),
    events,
    async unreachable() {
      const [database, shared, bucket] = await Promise.all([records.unreachable(), redis?.ping(HEALTH_TIMEOUT_MS), objects?.ping(HEALTH_TIMEOUT_MS)]);
      return [...database, ...(shared === false ? ['redis'] : []), ...(bucket === false ? ['s3'] : [])];
    },
    recognise(err) {
      if (records.workspace.engine.isUnreachable(err)) return new DatabaseUnavailable(err);
      if (redis && isRedisUnreachable(err)) return err instanceof RedisUnavailable ? err : new RedisUnavailable(err);
      if (objects && isObjectStoreUnreachable(err)) return err instanceof ObjectStoreUnavailable ? err : new ObjectStoreUnavailable(err);
      return undefined;
    },
    async close() {
      objects?.close();
      await redis?.close();
      await records.close();
    },
  };
}

/** Redis for the shared state; `missedSome` runs when the subscriber is back from a lost connection. */
async function connectSharedState(url: string, logger: Logger, missedSome: () => void): Promise<RedisConnection> {
  let lastLogged = 0;
  return connectRedis(url, {
    // A Redis that stays away reports an error per reconnection attempt: one line per 10 s is enough.
    onError: (err) => {
      if (Date.now() - lastLogged < 10_000) return;
      lastLogged = Date.now();
      logger.warn({ err }, 'Redis at REDIS_URL cannot be reached');
    },
    onReconnect: () => {
      logger.info('Redis at REDIS_URL answers again; caches reload');
      missedSome();
    },
    onStall: () => logger.warn('Redis at REDIS_URL stopped answering: requests that need it answer 503 until it does'),
    onRecover: () => {
      logger.info('Redis at REDIS_URL answers again; caches reload');
      missedSome();
    },
  });
}
