import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Config } from '../config';
import { isFileKey } from '../platform/file-store';
import { CopyRefused, runCommand } from './cli';

export { CopyRefused };

/** The SQLite databases of DATA_DIR, each copied with SQLite's online backup. */
export const DATABASES = ['dashboard.db', 'workspace.db'];

const ALL_PAGES = 0x7fffffff;

/** What SQLite keeps beside a database while it is open: the backup's copy holds all of it. */
const COMPANIONS = ['-wal', '-shm', '-journal'];

export interface BackupResult {
  /** The folder written: `<folder>/<UTC date and time>`, with `data` and `uploads` in it. */
  dir: string;
  dataDir: string;
  uploadDir: string;
  /** Upload files copied. */
  files: number;
  bytes: number;
}

/** A UTC date and time that sorts as it reads and is a valid file name everywhere: 2026-11-26T14-05-09Z. */
export function backupName(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z').replaceAll(':', '-');
}

const isInside = (dir: string, parent: string) => {
  const relative = path.relative(parent, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** Refusals before anything is written: what this backup cannot copy, or cannot write to. */
function checkBackup(config: Config, folder: string | undefined): string {
  if (!folder) throw new CopyRefused('Name the folder to write the backup into: npm run backup -- <folder>');
  const cannot: string[] = [];
  if (config.database) cannot.push('the records are in PostgreSQL (DATABASE_URL): back them up with pg_dump');
  if (config.s3) cannot.push(`the uploads are in the bucket ${config.s3.bucket} (S3_BUCKET): keep them with the bucket's versioning`);
  if (cannot.length > 0) throw new CopyRefused(`This backup copies the embedded SQLite store and UPLOAD_DIR only, and ${cannot.join('; and ')}. Nothing was written.`);
  for (const file of DATABASES) {
    if (!fs.existsSync(path.join(config.dataDir, file))) throw new CopyRefused(`There is no ${file} in DATA_DIR (${config.dataDir}) to back up`);
  }
  const target = path.resolve(folder);
  for (const [name, dir] of [
    ['DATA_DIR', config.dataDir],
    ['UPLOAD_DIR', config.uploadDir],
  ]) {
    if (isInside(target, dir)) throw new CopyRefused(`The backup folder ${target} lies inside ${name} (${dir}): choose a folder outside it, ideally on another disk`);
  }
  try {
    fs.mkdirSync(target, { recursive: true });
    fs.accessSync(target, fs.constants.W_OK);
  } catch (err) {
    throw new CopyRefused(`The backup folder ${target} cannot be written to (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  return target;
}

/**
 * A consistent copy of one database while the server may be writing to it. SQLite's online
 * backup, asked to copy every page in one step: in WAL mode that step reads one snapshot
 * while the server goes on writing beside it, and a backup in small steps would start over
 * at each write of the server, for ever under a steady load.
 */
async function backupDatabase(source: string, target: string): Promise<void> {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // The most pages better-sqlite3 takes for one step: all that remain.
    await db.backup(target, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  // Opened for writing though only read: closed, it leaves no -wal or -shm file beside it.
  const copy = new Database(target, { fileMustExist: true });
  try {
    const check = copy.pragma('integrity_check', { simple: true }) as string;
    if (check !== 'ok') throw new Error(`the copy of ${path.basename(source)} fails SQLite's integrity check: ${check}`);
  } finally {
    copy.close();
  }
}

/** Every other file of DATA_DIR (the generated secrets, the mail written as files), skipping `skip`. */
function copyDataFiles(from: string, to: string, skip: (file: string) => boolean): void {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (skip(source)) continue;
    if (entry.isDirectory()) copyDataFiles(source, path.join(to, entry.name), skip);
    else if (entry.isFile()) fs.copyFileSync(source, path.join(to, entry.name));
  }
}

/**
 * The stored files of UPLOAD_DIR not copied yet (a file is never changed once stored, only
 * replaced by a new key); half-written uploads (.partial) are not stored files. A file
 * removed while the copy runs is passed over.
 */
async function copyUploads(from: string, to: string, copied: Map<string, number>): Promise<void> {
  fs.mkdirSync(to, { recursive: true });
  if (!fs.existsSync(from)) return;
  for (const entry of await fs.promises.readdir(from, { withFileTypes: true })) {
    if (!entry.isFile() || !isFileKey(entry.name) || copied.has(entry.name)) continue;
    try {
      await fs.promises.copyFile(path.join(from, entry.name), path.join(to, entry.name), fs.constants.COPYFILE_FICLONE);
      copied.set(entry.name, (await fs.promises.stat(path.join(to, entry.name))).size);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/**
 * Copies the embedded store while the server runs: both SQLite databases (each one
 * consistent snapshot), the rest of DATA_DIR, and UPLOAD_DIR, into `<folder>/<UTC date and
 * time>/data` and `/uploads`. Pointing DATA_DIR and UPLOAD_DIR at those two restores it.
 *
 * The uploads are copied before the databases and once more after: a file is written
 * before the row that names it, so every file a copied row names was there for one of the
 * two passes (unless it was deleted in between, as its row then soon would be).
 */
export async function backup(config: Config, folder: string | undefined, progress: (line: string) => void, now = new Date()): Promise<BackupResult> {
  const root = checkBackup(config, folder);
  const dir = path.join(root, backupName(now));
  try {
    fs.mkdirSync(dir);
  } catch (err) {
    throw new CopyRefused(`${dir} cannot be made (${(err as NodeJS.ErrnoException).code ?? String(err)}): one backup a second at most`);
  }
  const dataDir = path.join(dir, 'data');
  const uploadDir = path.join(dir, 'uploads');
  const copied = new Map<string, number>();
  await copyUploads(config.uploadDir, uploadDir, copied);
  fs.mkdirSync(dataDir);
  for (const file of DATABASES) {
    await backupDatabase(path.join(config.dataDir, file), path.join(dataDir, file));
    progress(`${file}: copied and checked (${fs.statSync(path.join(dataDir, file)).size.toLocaleString('en')} bytes)`);
  }
  const own = new Set(DATABASES.flatMap((file) => [file, ...COMPANIONS.map((suffix) => file + suffix)]).map((file) => path.join(config.dataDir, file)));
  copyDataFiles(config.dataDir, dataDir, (file) => own.has(file) || isInside(file, config.uploadDir));
  await copyUploads(config.uploadDir, uploadDir, copied);
  const bytes = [...copied.values()].reduce((a, b) => a + b, 0);
  progress(`UPLOAD_DIR: ${copied.size.toLocaleString('en')} files, ${bytes.toLocaleString('en')} bytes`);
  return { dir, dataDir, uploadDir, files: copied.size, bytes };
}

async function main(): Promise<void> {
  await runCommand(
    'backup',
    async (config, progress) => {
      const done = await backup(config, process.argv[2], progress);
      return `Backed up into ${done.dir}. To restore, stop the server and start it with DATA_DIR=${done.dataDir} UPLOAD_DIR=${done.uploadDir} (or copy those two folders into place).`;
    },
  );
}

if (require.main === module) void main();
