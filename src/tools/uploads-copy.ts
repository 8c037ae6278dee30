import fs from 'node:fs';
import type { Config } from '../config';
import { CopyRefused, runCommand } from './cli';
import { LocalFileStore } from '../platform/file-store';
import { S3FileStore } from '../platform/s3-file-store';

export { CopyRefused };

/**
 * Copies every file of UPLOAD_DIR into the empty bucket of S3_BUCKET, a line per hundred
 * files, then checks that every key is there with its size. A bucket that already holds
 * objects is refused before anything is written, so a second run cannot mix two stores.
 * Answers how many files and bytes went.
 */
export async function copyUploads(config: Config, progress: (line: string) => void): Promise<{ files: number; bytes: number }> {
  const s3 = bucketOf(config);
  if (!fs.existsSync(config.uploadDir)) throw new CopyRefused(`UPLOAD_DIR ${config.uploadDir} does not exist`);
  const source = new LocalFileStore(config.uploadDir);
  const target = new S3FileStore(s3);
  try {
    for await (const { key } of target.entries()) throw new CopyRefused(`The bucket ${s3.bucket} already holds objects (${key}, …): copy into an empty bucket`);
    const sizes = new Map<string, number>();
    for await (const { key } of source.entries()) {
      const body = await source.get(key);
      if (!body) continue;
      const { size } = await target.put(key, body);
      sizes.set(key, size);
      if (sizes.size % 100 === 0) progress(`${sizes.size} files copied`);
    }
    let bytes = 0;
    for (const [key, size] of sizes) {
      const stored = await target.stat(key);
      const local = await source.stat(key);
      if (!stored || !local || stored.size !== local.size || size !== local.size) throw new Error(`${key} arrived with ${stored?.size ?? 'no'} bytes of ${local?.size ?? size}`);
      bytes += size;
    }
    progress(`${sizes.size} files, ${bytes} bytes: every one checked in the bucket`);
    return { files: sizes.size, bytes };
  } finally {
    target.close();
  }
}

function bucketOf(config: Config): NonNullable<Config['s3']> {
  if (!config.s3) throw new CopyRefused('S3_BUCKET is not set: name the bucket to copy the uploads into');
  return config.s3;
}

async function main(): Promise<void> {
  await runCommand('uploads:copy', async (config, progress) => {
    const { files } = await copyUploads(config, progress);
    return `Copied ${files.toLocaleString('en')} files from ${config.uploadDir} into ${bucketOf(config).bucket}.`;
  });
}

if (require.main === module) void main();
