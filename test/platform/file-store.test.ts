import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../src/config';
import { LocalFileStore, type FileStore } from '../../src/platform/file-store';
import { S3FileStore } from '../../src/platform/s3-file-store';
import { tempDir } from '../support/app';
import { describeS3, freshBucketEnv } from '../support/s3';

async function s3Store(): Promise<S3FileStore> {
  const store = new S3FileStore(loadConfig({ DATA_DIR: tempDir(), ...(await freshBucketEnv()) }).s3!);
  onTestFinished(() => store.close());
  return store;
}

const stores: [string, () => Promise<FileStore>, typeof describe][] = [
  ['the local disk', async () => new LocalFileStore(path.join(tempDir(), 'uploads')), describe],
  ['an S3-compatible bucket', s3Store, describeS3],
];

/** A stream that sends `head` and then fails, as a client that goes away mid-upload. */
function cutStream(head: Buffer): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(head);
      } else {
        this.destroy(new Error('the client went away'));
      }
    },
  });
}

async function keysOf(store: FileStore): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.keys()) keys.push(key);
  return keys.sort();
}

for (const [where, make, describeStore] of stores) {
  describeStore(`FileStore on ${where}`, () => {
    it('when a stream of several megabytes is stored, then it reads back byte for byte, and its size is known', async () => {
      const store = await make();
      const data = randomBytes(6 * 1024 * 1024 + 123);
      const chunks = Array.from({ length: Math.ceil(data.length / 65536) }, (_, i) => data.subarray(i * 65536, (i + 1) * 65536));
      expect(await store.put('big.bin', Readable.from(chunks))).toEqual({ size: data.length });
      expect(await store.stat('big.bin')).toEqual({ size: data.length });
      expect((await buffer((await store.get('big.bin'))!)).equals(data)).toBe(true);
    });

    it('when a range is asked for, then exactly those bytes come back', async () => {
      const store = await make();
      const data = randomBytes(1000);
      await store.put('ranged.bin', Readable.from([data]));
      expect((await buffer((await store.get('ranged.bin', { start: 10, end: 19 }))!)).equals(data.subarray(10, 20))).toBe(true);
    });

    it('when the stream fails midway, then nothing is stored under the key', async () => {
      const store = await make();
      await expect(store.put('cut.bin', cutStream(randomBytes(100_000)))).rejects.toThrow();
      expect(await store.stat('cut.bin')).toBeUndefined();
      expect(await keysOf(store)).toEqual([]);
    });

    it('when a key is missing, then get and stat answer undefined and delete is no error', async () => {
      const store = await make();
      expect(await store.get('missing.bin')).toBeUndefined();
      expect(await store.stat('missing.bin')).toBeUndefined();
      await expect(store.delete('missing.bin')).resolves.toBeUndefined();
    });

    it('when files and their thumbnails are deleted, then both are gone and the rest stays', async () => {
      const store = await make();
      for (const key of ['a.jpg', 'a.thumb.webp', 'b.pdf']) await store.put(key, Readable.from([Buffer.from(key)]));
      expect(await keysOf(store)).toEqual(['a.jpg', 'a.thumb.webp', 'b.pdf']);
      await store.delete('a.jpg');
      await store.delete('a.thumb.webp');
      expect(await keysOf(store)).toEqual(['b.pdf']);
    });
  });
}
