import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from './errors';

/**
 * Stored bytes by key. Everything outside this file knows keys only, never where or how
 * they are kept, so an S3-compatible store can take the local disk's place.
 */
export interface FileStore {
  /** Stores the stream under `key`, whole or not at all: a failed or cut stream leaves nothing. */
  put(key: string, source: Readable): Promise<{ size: number }>;
  /** The bytes of `key`, or of its inclusive byte range; undefined when there is no such file. */
  get(key: string, range?: { start: number; end: number }): Promise<Readable | undefined>;
  stat(key: string): Promise<{ size: number } | undefined>;
  /** Removes `key`; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored file, with when it was last written (milliseconds since the epoch). */
  entries(): AsyncIterable<FileEntry>;
}

export interface FileEntry {
  key: string;
  modifiedAt: number;
}

/** The disk is full: 507 Insufficient Storage. */
const FULL = new Set(['ENOSPC', 'EDQUOT']);
/** The folder cannot be written: gone, read-only, not a folder, not ours. */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'ENOENT', 'EISDIR', 'EIO', 'EMFILE', 'ENFILE']);

/**
 * A store that cannot take bytes, told apart from a client that went away: 507
 * `STORAGE_FULL` when the disk is full, else 500 `STORAGE_UNAVAILABLE`. The system error
 * is kept as `cause` for the log.
 */
export class StorageFailure extends HttpError {
  constructor(full: boolean, override readonly cause: unknown) {
    super(
      full ? 507 : 500,
      full ? 'The server has no room left to store files' : 'The server cannot store files right now',
      full ? 'STORAGE_FULL' : 'STORAGE_UNAVAILABLE',
    );
  }
}

/**
 * A failure of the disk itself (it has a system call and one of the codes above) as a
 * StorageFailure; anything else, such as a client that went away, as it is.
 */
export function storageFailure(err: unknown): unknown {
  const e = err as NodeJS.ErrnoException | null;
  if (!e?.syscall || !e.code) return err;
  if (FULL.has(e.code)) return new StorageFailure(true, err);
  if (UNWRITABLE.has(e.code)) return new StorageFailure(false, err);
  return err;
}

/** Keys are flat names of safe characters, so no key can name a place outside the store. */
const KEY = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;
const KEY_MAX = 200;

export function isFileKey(key: string): boolean {
  return key.length <= KEY_MAX && KEY.test(key);
}

function assertKey(key: string): void {
  if (!isFileKey(key)) throw new Error(`Not a file key: ${JSON.stringify(key)}`);
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Files in one folder on the local disk. A write goes to a partial file first and is
 * renamed into place once complete, so a reader never sees half a file; partial files left
 * by a process that died mid-write are cleared when the store opens, which is why one
 * folder belongs to one running server.
 */
export class LocalFileStore implements FileStore {
  private readonly partials: string;

  constructor(private readonly root: string) {
    this.partials = path.join(root, '.partial');
    fs.mkdirSync(root, { recursive: true });
    fs.rmSync(this.partials, { recursive: true, force: true });
    fs.mkdirSync(this.partials);
  }

  async put(key: string, source: Readable) {
    assertKey(key);
    const partial = path.join(this.partials, `${key}.${randomBytes(6).toString('hex')}`);
    try {
      await pipeline(source, fs.createWriteStream(partial, { flags: 'wx' }));
      const { size } = await fs.promises.stat(partial);
      await fs.promises.rename(partial, this.pathOf(key));
      return { size };
    } catch (err) {
      await fs.promises.rm(partial, { force: true }).catch(() => undefined);
      throw storageFailure(err);
    }
  }

  async get(key: string, range?: { start: number; end: number }) {
    if (!isFileKey(key)) return undefined;
    try {
      const handle = await fs.promises.open(this.pathOf(key), 'r');
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async stat(key: string) {
    if (!isFileKey(key)) return undefined;
    try {
      const stats = await fs.promises.stat(this.pathOf(key));
      return stats.isFile() ? { size: stats.size } : undefined;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string) {
    assertKey(key);
    try {
      await fs.promises.rm(this.pathOf(key), { force: true });
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
  }

  async *entries() {
    for (const entry of await fs.promises.readdir(this.root, { withFileTypes: true })) {
      if (!entry.isFile() || !isFileKey(entry.name)) continue;
      const stats = await fs.promises.stat(this.pathOf(entry.name)).catch(() => undefined);
      if (stats) yield { key: entry.name, modifiedAt: stats.mtimeMs };
    }
  }

  private pathOf(key: string): string {
    return path.join(this.root, key);
  }
}
