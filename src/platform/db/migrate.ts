import { sql, type ColumnDataType, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { DEFAULT_MIGRATION_TABLE as MIGRATION_TABLE, Migrator } from 'kysely/migration';
import type { EngineKind, RecordsDb } from './engine';

/** One step of a schema, written once with the query builder for both engines. */
export type SchemaStep = (db: Kysely<any>, kind: EngineKind) => Promise<void>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a migration builds tables that no table type describes yet

/**
 * The column types that the two engines name differently. SQLite stores moments and days as
 * ISO text (which sorts as time does); PostgreSQL gives them their own types.
 */
export function columnTypes(kind: EngineKind): { moment: ColumnDataType; day: ColumnDataType; real: ColumnDataType; flag: ColumnDataType } {
  return kind === 'postgres'
    ? { moment: 'timestamptz', day: 'date', real: 'double precision', flag: 'boolean' }
    : { moment: 'text', day: 'text', real: 'real', flag: 'integer' };
}

/** An id that is never handed out twice: AUTOINCREMENT in SQLite, an identity column in PostgreSQL. */
export function idColumn(kind: EngineKind) {
  return (col: ColumnDefinitionBuilder) =>
    kind === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement();
}

/**
 * Applies the steps not yet applied, in name order, each in its own transaction. On
 * PostgreSQL the application's tables live in their own schema, and the query builder's
 * migrator holds an advisory lock meanwhile, so instances started together apply each step once.
 */
export async function migrateToLatest<T>(records: Pick<RecordsDb<T>, 'db' | 'engine'>, steps: Record<string, SchemaStep>, schema: string | undefined): Promise<string[]> {
  const db = records.db as unknown as Kysely<unknown>;
  const { engine } = records;
  if (await allApplied(db, Object.keys(steps))) return [];
  if (engine.kind === 'postgres' && schema) await createSchema(db, schema);
  const migrator = new Migrator({
    db,
    migrationTableSchema: engine.kind === 'postgres' ? schema : undefined,
    provider: {
      getMigrations: async () =>
        Object.fromEntries(Object.entries(steps).map(([name, step]) => [name, { up: (trx: Kysely<unknown>) => step(trx, engine.kind) }])),
    },
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error('A migration failed', { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Whether the migrator's own table already lists every step: the usual case at a start, read
 * in one query instead of the migrator's schema and table checks, lock and transaction (which
 * cost a start some 100 ms on PostgreSQL). A missing table means a new database.
 */
async function allApplied(db: Kysely<unknown>, names: string[]): Promise<boolean> {
  try {
    const history = db as unknown as Kysely<Record<typeof MIGRATION_TABLE, { name: string }>>;
    const rows = await history.selectFrom(MIGRATION_TABLE).select('name').execute();
    const applied = new Set(rows.map((row) => row.name));
    // A step the code does not know (a newer version's) goes to the migrator, which refuses it.
    return applied.size === names.length && names.every((name) => applied.has(name));
  } catch {
    return false;
  }
}

/** CREATE SCHEMA that tolerates another instance creating the same schema at the same moment. */
async function createSchema(db: Kysely<unknown>, schema: string): Promise<void> {
  try {
    await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(schema)}`.execute(db);
  } catch (err) {
    // 42P06 duplicate schema, 23505 the catalogue's own unique index: the other instance won.
    const code = (err as { code?: unknown } | null)?.code;
    if (code !== '42P06' && code !== '23505') throw err;
  }
}

/**
 * Whether a SQLite database was made before the schema moved to the query builder: its SQL
 * history (brought up to date when it was opened) already made what a first step would make.
 */
export async function madeByLegacySql(db: Kysely<any>, kind: EngineKind): Promise<boolean> { // eslint-disable-line @typescript-eslint/no-explicit-any -- as SchemaStep
  if (kind !== 'sqlite') return false;
  const found = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`.execute(db);
  return found.rows.length > 0;
}
