import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openRecords } from '../../src/stores';
import { createLogger } from '../../src/platform/logger';

const FILES = ['dashboard.db', 'workspace.db'];
let template: Promise<string> | undefined;

/** The records files of both applications, migrated once per test process and kept until it exits. */
function migratedFiles(): Promise<string> {
  template ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-sqlite-template-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    await (await openRecords({ dataDir: dir, database: undefined }, createLogger('silent'))).close();
    return dir;
  })();
  return template;
}

/**
 * Puts copies of migrated, empty records files into a new `dataDir`, as PostgreSQL tests copy
 * a migrated database: applying every step to new files cost each test several times what a
 * copy does. A folder that already holds records (a test of an upgrade or a restart) is left
 * as it is, and the server still brings whatever it finds up to date.
 */
export async function withMigratedSqlite(dataDir: string): Promise<void> {
  if (FILES.some((file) => fs.existsSync(path.join(dataDir, file)))) return;
  const from = await migratedFiles();
  fs.mkdirSync(dataDir, { recursive: true });
  for (const file of FILES) fs.copyFileSync(path.join(from, file), path.join(dataDir, file));
}
