import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../src/config';
import { LocalFileStore, type FileStore } from '../../src/platform/file-store';
import { isObjectStoreUnreachable, S3FileStore } from '../../src/platform/s3-file-store';
import { tempDir } from '../support/app';
import { cuttableRelay } from '../support/net';
import { describeS3, freshBucketEnv, s3Endpoint } from '../support/s3';

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
  for await (const { key } of store.entries()) keys.push(key);
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

describeS3('S3FileStore when the store stops answering', () => {
  it("when the store freezes in the middle of a download's body, then the body fails as out of reach within 5 s; a reader that pauses is not cut", async () => {
    const s3 = new URL(s3Endpoint());
    const relay = await cuttableRelay(s3.hostname, Number(s3.port));
    const store = new S3FileStore(loadConfig({ DATA_DIR: tempDir(), ...(await freshBucketEnv(`http://127.0.0.1:${relay.port}`)) }).s3!);
    onTestFinished(() => store.close());
    const data = randomBytes(8 * 1024 * 1024);
    await store.put('long.bin', Readable.from([data]));

    // A slow reader: nothing read for longer than the store may stay silent, then all of it.
    const slow = (await store.get('long.bin'))!;
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect((await buffer(slow)).equals(data)).toBe(true);

    const body = (await store.get('long.bin'))!;
    body.once('data', () => relay.freeze());
    const started = Date.now();
    const err = await buffer(body).catch((e: unknown) => e);
    expect(isObjectStoreUnreachable(err)).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    relay.thaw();
  });
});
