import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { LocalFileStore } from '../../src/platform/file-store';
import { S3FileStore } from '../../src/platform/s3-file-store';
import { copyUploads, CopyRefused } from '../../src/tools/uploads-copy';
import { tempDir } from '../support/app';
import { describeS3, freshBucketEnv } from '../support/s3';

async function setup(files: number) {
  const dir = tempDir();
  const uploadDir = path.join(dir, 'uploads');
  const local = new LocalFileStore(uploadDir);
  const written = new Map<string, Buffer>();
  for (let i = 0; i < files; i += 1) {
    const data = randomBytes(1000 + i * 97);
    const key = `${randomBytes(8).toString('hex')}.pdf`;
    await local.put(key, Readable.from([data]));
    written.set(key, data);
  }
  const config = loadConfig({ DATA_DIR: dir, UPLOAD_DIR: uploadDir, ...(await freshBucketEnv()) });
  return { config, written };
}

describeS3('npm run uploads:copy', () => {
  it('when the bucket is empty, then every file arrives byte for byte, with a progress line per hundred and a checked total', async () => {
    const { config, written } = await setup(120);
    const lines: string[] = [];
    expect(await copyUploads(config, (line) => lines.push(line))).toEqual({ files: 120, bytes: [...written.values()].reduce((a, b) => a + b.length, 0) });
    expect(lines[0]).toBe('100 files copied');
    expect(lines.at(-1)).toMatch(/^120 files, \d+ bytes: every one checked/);
    const bucket = new S3FileStore(config.s3!);
    for (const [key, data] of written) expect((await buffer((await bucket.get(key))!)).equals(data)).toBe(true);
    bucket.close();
  });

  it('when the bucket already holds objects, then it is refused and nothing more is written', async () => {
    const { config } = await setup(3);
    const bucket = new S3FileStore(config.s3!);
    await bucket.put('someone-elses.pdf', Readable.from([Buffer.from('x')]));
    await expect(copyUploads(config, () => undefined)).rejects.toBeInstanceOf(CopyRefused);
    const keys: string[] = [];
    for await (const { key } of bucket.entries()) keys.push(key);
    expect(keys).toEqual(['someone-elses.pdf']);
    bucket.close();
  });

  it('when S3_BUCKET is not set or UPLOAD_DIR is missing, then it is refused', async () => {
    const dir = tempDir();
    await expect(copyUploads(loadConfig({ DATA_DIR: dir, UPLOAD_DIR: path.join(dir, 'u') }), () => undefined)).rejects.toBeInstanceOf(CopyRefused);
    const missing = loadConfig({ DATA_DIR: dir, UPLOAD_DIR: path.join(dir, 'nowhere'), ...(await freshBucketEnv()) });
    expect(fs.existsSync(missing.uploadDir)).toBe(false);
    await expect(copyUploads(missing, () => undefined)).rejects.toBeInstanceOf(CopyRefused);
  });
});
