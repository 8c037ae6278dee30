import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { describe, it, onTestFinished, type TestOptions } from 'vitest';
import { openRecords, type Records } from '../../src/stores';
import { createLogger } from '../../src/platform/logger';
import type { EngineKind, RecordsDb } from '../../src/platform/db/engine';
import { tempDir } from './app';
import { describePostgres, migratedDatabase } from './postgres';
import { withMigratedSqlite } from './sqlite-template';

export const ENGINES: readonly EngineKind[] = ['sqlite', 'postgres'];

/**
 * Runs `suite` once per engine, named after it: the same contract, on SQLite and on
 * PostgreSQL (skipped, or failed in CI, where PostgreSQL is missing). `options` (a longer
 * timeout) hold for every test of both.
 */
export function describeEngines(name: string, suite: (kind: EngineKind) => void, options: TestOptions = {}): void {
  describe(`${name} on SQLite`, options, () => suite('sqlite'));
  describePostgres(`${name} on PostgreSQL`, options, () => suite('postgres'));
}

/** The records of both applications on `kind`, empty and migrated, closed after the test. */
export async function testRecords(kind: EngineKind): Promise<Records> {
  const dataDir = tempDir();
  const database = kind === 'postgres' ? { url: await migratedDatabase(), poolMax: 10 } : undefined;
  if (!database) withMigratedSqlite(path.join(dataDir, 'data'));
  const records = await openRecords({ dataDir: path.join(dataDir, 'data'), database }, createLogger('silent'));
  onTestFinished(() => records.close());
  return records;
}

/** How many rows a table holds, on either engine. */
export async function rowCount<T>(records: RecordsDb<T>, table: keyof T & string): Promise<number> {
  const db = records.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const name: string = table;
  // Postgres answers count(*), a bigint, as a string; SQLite as a number.
  const row = await db.selectFrom(name).select(sql<number | string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** For the few tests that look at SQLite's own schema or add triggers in its dialect: skipped on the PostgreSQL run. */
export const itOnSqlite = it.skipIf(process.env.TEST_ENGINE === 'postgres');
