import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import type { BulkWriter, Engine, RecordsDb } from './engine';

export type SqliteHandle = Database.Database;

const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

export const sqliteEngine: Engine = {
  kind: 'sqlite',
  isUniqueViolation: (err) => codeOf(err) === 'SQLITE_CONSTRAINT_UNIQUE' || codeOf(err) === 'SQLITE_CONSTRAINT_PRIMARYKEY',
  isForeignKeyViolation: (err) => codeOf(err) === 'SQLITE_CONSTRAINT_FOREIGNKEY',
  // A file on this machine is always within reach; its disk filling up is a storage error.
  isUnreachable: () => false,
  locksRows: false,
  greatest: (a, b) => sql<number>`max(${a}, ${b})`,
};

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Prepared once per call, run row by row inside one transaction: SQLite's fastest way in.
 * It holds the query builder's connection meanwhile, so it never runs inside a transaction
 * that the builder has open on the same handle.
 */
function sqliteBulk(handle: SqliteHandle, db: Kysely<unknown>): BulkWriter {
  return {
    async upsert(table, key, columns, rows, after) {
      await db.connection().execute(async () => write(table, key, columns, rows, after));
    },
    async empty(table) {
      await db.connection().execute(async () => handle.exec(`DELETE FROM ${quoted(table)}`));
    },
  };

  function write(table: string, key: readonly string[], columns: readonly string[], rows: readonly (readonly unknown[])[], after?: string): void {
      const values = columns.filter((c) => !key.includes(c));
      const insert = handle.prepare(
        `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
         ON CONFLICT (${key.map(quoted).join(', ')}) DO UPDATE SET ${values.map((c) => `${quoted(c)} = excluded.${quoted(c)}`).join(', ')}`,
      );
      handle.transaction(() => {
        for (const row of rows) insert.run(...row);
        if (after) handle.exec(after);
      })();
  }
}

/**
 * Opens a SQLite file in WAL mode with foreign keys on. A database made before the schema
 * moved to the query builder (it has `schema_migrations`) is first brought up to date with
 * the SQL files of `legacyDir`, the way it was then.
 */
export function openSqlite<T>(file: string, legacyDir?: string): RecordsDb<T> & { handle: SqliteHandle } {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const handle = new Database(file);
  handle.pragma('journal_mode = WAL');
  handle.pragma('synchronous = NORMAL');
  handle.pragma('foreign_keys = ON');
  handle.pragma('busy_timeout = 5000');
  if (legacyDir && hasLegacyHistory(handle)) applyLegacySql(handle, legacyDir);
  const db = new Kysely<T>({ dialect: new SqliteDialect({ database: handle }) });
  return { db, engine: sqliteEngine, bulk: sqliteBulk(handle, db as Kysely<unknown>), handle };
}

export function hasLegacyHistory(handle: SqliteHandle): boolean {
  return handle.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get() !== undefined;
}

/**
 * The SQL files of `dir` that the database has not seen yet, in order, each in its own
 * transaction, recorded in `schema_migrations`.
 */
export function applyLegacySql(handle: SqliteHandle, dir: string): string[] {
  handle.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set(handle.prepare('SELECT name FROM schema_migrations').pluck().all() as string[]);
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d+.*\.sql$/.test(f))
    .sort();
  const ran: string[] = [];
  const record = handle.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)');
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    // SQLite changes a column's definition by rebuilding its table, and dropping the old
    // table with foreign keys on would run every ON DELETE action of the rows that refer
    // to it. The switch only takes effect outside a transaction.
    const rebuilds = /^-- foreign_keys: off$/m.test(sql);
    if (rebuilds) handle.pragma('foreign_keys = OFF');
    try {
      handle.transaction(() => {
        handle.exec(sql);
        if (rebuilds && (handle.pragma('foreign_key_check') as unknown[]).length > 0) {
          throw new Error(`Migration ${file} left rows whose references point nowhere`);
        }
        record.run(file, new Date().toISOString());
      })();
    } finally {
      if (rebuilds) handle.pragma('foreign_keys = ON');
    }
    ran.push(file);
  }
  return ran;
}
