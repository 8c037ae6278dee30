import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { setImmediate } from 'node:timers/promises';
import { foldForSearch } from '../text';
import type { BulkRows, Engine, RecordsDb } from './engine';

export type SqliteHandle = Database.Database;

const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

/** The SQL function that `searchFolded` calls, registered on every connection `openSqlite` makes. */
const SEARCH_FOLD = 'search_fold';

export const sqliteEngine: Engine = {
  kind: 'sqlite',
  isUniqueViolation: (err) => codeOf(err) === 'SQLITE_CONSTRAINT_UNIQUE' || codeOf(err) === 'SQLITE_CONSTRAINT_PRIMARYKEY',
  isForeignKeyViolation: (err) => codeOf(err) === 'SQLITE_CONSTRAINT_FOREIGNKEY',
  // A file on this machine is always within reach; its disk filling up is a storage error.
  isUnreachable: () => false,
  locksRows: false,
  greatest: (a, b) => sql<number>`max(${a}, ${b})`,
  searchFolded: (text) => sql<string | null>`${sql.raw(SEARCH_FOLD)}(${text})`,
};

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

const upsertSql = (table: string, key: readonly string[], columns: readonly string[], source: string) => {
  const values = columns.filter((c) => !key.includes(c));
  return `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) ${source}
    ON CONFLICT (${key.map(quoted).join(', ')}) DO UPDATE SET ${values.map((c) => `${quoted(c)} = excluded.${quoted(c)}`).join(', ')}`;
};

/**
 * Prepared once per call, run row by row inside one transaction: SQLite's fastest way in.
 * It holds the query builder's connection meanwhile, so it never runs inside a transaction
 * that the builder has open on the same handle.
 */
function sqliteBulk(handle: SqliteHandle, db: Kysely<unknown>): BulkRows {
  const alone = <T>(work: () => T): Promise<T> => db.connection().execute(async () => work());

  function write(table: string, key: readonly string[], columns: readonly string[], rows: readonly (readonly unknown[])[], after?: string): void {
    const insert = handle.prepare(upsertSql(table, key, columns, `VALUES (${columns.map(() => '?').join(', ')})`));
    handle.transaction(() => {
      for (const row of rows) insert.run(...row);
      if (after) handle.exec(after);
    })();
  }

  return {
    async upsert(table, key, columns, rows, after) {
      await alone(() => write(table, key, columns, rows, after));
    },
    // The staging table has the key too: a repeated key replaces the staged row at once.
    async stage(table, key, columns, rows) {
      await alone(() => write(table, key, columns, rows));
    },
    async move(from, into, key, columns, after) {
      const list = columns.map(quoted).join(', ');
      // "WHERE true" keeps SQLite from reading ON CONFLICT as part of the SELECT.
      const insert = handle.prepare(upsertSql(into, key, columns, `SELECT ${list} FROM ${quoted(from)} WHERE true`));
      return alone(() =>
        handle.transaction(() => {
          const moved = insert.run().changes;
          if (after) handle.exec(after);
          return moved;
        })(),
      );
    },
    /**
     * Each batch is its own statement, taken up after the last key of the one before, with a
     * turn of the event loop between: one statement over a million rows held up every other
     * request for about a second and a half, and an open iterator keeps the one connection
     * from any other query.
     */
    async read(table, key, columns, onBatch, batchSize = 10_000) {
      const list = columns.map(quoted).join(', ');
      const order = key.map(quoted).join(', ');
      const first = handle.prepare(`SELECT ${list} FROM ${quoted(table)} ORDER BY ${order} LIMIT ?`).raw();
      const next = handle
        .prepare(`SELECT ${list} FROM ${quoted(table)} WHERE (${order}) > (${key.map(() => '?').join(', ')}) ORDER BY ${order} LIMIT ?`)
        .raw();
      const keyAt = key.map((k) => columns.indexOf(k));
      let last: unknown[] | undefined;
      for (;;) {
        const after = last;
        const batch = (await alone(() => (after ? next.all(...keyAt.map((i) => after[i]), batchSize) : first.all(batchSize)))) as unknown[][];
        if (batch.length > 0) onBatch(batch);
        if (batch.length < batchSize) return;
        last = batch[batch.length - 1];
        await setImmediate();
      }
    },
    async empty(table) {
      await alone(() => handle.exec(`DELETE FROM ${quoted(table)}`));
    },
  };
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
  handle.function(SEARCH_FOLD, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? foldForSearch(text) : text));
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
