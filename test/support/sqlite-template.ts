import fs from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';

const FILES = ['dashboard.db', 'workspace.db'];

/**
 * Puts copies of migrated, empty records files (made once per run by the global setup) into a
 * new `dataDir`, as PostgreSQL tests copy a migrated database: applying every step to new files
 * cost each test several times what a copy does. A folder that already holds records (a test of
 * an upgrade or a restart) is left as it is, and the server still brings whatever it finds up to
 * date.
 */
export function withMigratedSqlite(dataDir: string): void {
  if (FILES.some((file) => fs.existsSync(path.join(dataDir, file)))) return;
  const from = inject('sqliteTemplate');
  fs.mkdirSync(dataDir, { recursive: true });
  for (const file of FILES) fs.copyFileSync(path.join(from, file), path.join(dataDir, file));
}
