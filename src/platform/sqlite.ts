import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS_DIR } from './paths';

export type Db = Database.Database;

/**
 * Opens a database in WAL mode with foreign keys on and applies the ordered SQL files of
 * `migrations/<name>/` that it has not seen yet, each in its own transaction.
 */
export function openDatabase(file: string, migrations: string): Db {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, path.join(MIGRATIONS_DIR, migrations));
  return db;
}

export function migrate(db: Db, dir: string): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set(db.prepare('SELECT name FROM schema_migrations').pluck().all() as string[]);
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d+.*\.sql$/.test(f))
    .sort();
  const ran: string[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)');
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    // SQLite changes a column's definition by rebuilding its table, and dropping the old
    // table with foreign keys on would run every ON DELETE action of the rows that refer
    // to it. The switch only takes effect outside a transaction.
    const rebuilds = /^-- foreign_keys: off$/m.test(sql);
    if (rebuilds) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(sql);
        if (rebuilds && (db.pragma('foreign_key_check') as unknown[]).length > 0) {
          throw new Error(`Migration ${file} left rows whose references point nowhere`);
        }
        record.run(file, new Date().toISOString());
      })();
    } finally {
      if (rebuilds) db.pragma('foreign_keys = ON');
    }
    ran.push(file);
  }
  return ran;
}

export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}
