import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { request } from '../support/http';
import { describe, expect, it } from 'vitest';
import { LocalFileStore, type FileStore } from '../../src/platform/file-store';
import { SqlAssetRepository } from '../../src/workspace/assets/repository';
import { ORPHAN_MIN_AGE_MS, removeOrphanFiles, SHARED_SWEEP_LOCK, sweepSharedFiles } from '../../src/workspace/assets/sweep';
import { filesUnder, image, pdf } from '../support/files';
import { captureLogs } from '../support/logs';
import { describeS3, freshBucketEnv } from '../support/s3';
import { buildWorkspace } from '../support/workspace';

const newKey = (ext: string) => `${randomBytes(16).toString('hex')}.${ext}`;

async function workspaceWithAPicture() {
  const ws = await buildWorkspace();
  const brand = await ws.brand();
  const member = await ws.user('contributor', { brandIds: [brand.id] });
  const res = await request(ws.app)
    .post('/api/assets')
    .set('Authorization', `Bearer ${member.token}`)
    .field('brandId', String(brand.id))
    .attach('files', await image('png', 200, 100), 'poster.png');
  expect(res.status).toBe(201);
  const stored = filesUnder(ws.config.uploadDir);
  expect(stored).toHaveLength(2);
  return { ws, stored };
}

function sweep(ws: Awaited<ReturnType<typeof buildWorkspace>>) {
  const logs = captureLogs('warn');
  const removed = removeOrphanFiles(new LocalFileStore(ws.config.uploadDir), new SqlAssetRepository(ws.stores.records.workspace), logs.logger);
  return { removed, logs };
}

describe('removeOrphanFiles (run at start-up, before the server listens)', () => {
  it('when the store holds files that no asset names, then exactly those go, the files of assets stay, and the count is logged', async () => {
    const { ws, stored } = await workspaceWithAPicture();
    const orphans = [newKey('pdf'), newKey('thumb.webp'), newKey('png')];
    for (const key of orphans) fs.writeFileSync(path.join(ws.config.uploadDir, key), pdf(100));
    // Not named as uploads are: not the sweep's to remove.
    fs.writeFileSync(path.join(ws.config.uploadDir, 'README'), 'kept by hand');

    const { removed, logs } = sweep(ws);
    expect(await removed).toBe(3);
    expect(filesUnder(ws.config.uploadDir)).toEqual([...stored, 'README'].sort());
    expect(logs.entries()).toEqual([expect.objectContaining({ level: 40, removed: 3 })]);
  });

  it('when more orphans than one batch are left, then all of them go', async () => {
    const { ws, stored } = await workspaceWithAPicture();
    for (let i = 0; i < 450; i += 1) fs.writeFileSync(path.join(ws.config.uploadDir, newKey('pdf')), '');
    expect(await sweep(ws).removed).toBe(450);
    expect(filesUnder(ws.config.uploadDir)).toEqual(stored);
  });

  it('when every file belongs to an asset, then nothing is removed and nothing logged', async () => {
    const { ws, stored } = await workspaceWithAPicture();
    const { removed, logs } = sweep(ws);
    expect(await removed).toBe(0);
    expect(filesUnder(ws.config.uploadDir)).toEqual(stored);
    expect(logs.entries()).toEqual([]);
  });
});

describeS3('sweepSharedFiles (a bucket every instance shares, swept while the servers run)', () => {
  async function bucketWithAPicture() {
    const ws = await buildWorkspace({ env: await freshBucketEnv() });
    const brand = await ws.brand();
    const member = await ws.user('contributor', { brandIds: [brand.id] });
    const res = await request(ws.app)
      .post('/api/assets')
      .set('Authorization', `Bearer ${member.token}`)
      .field('brandId', String(brand.id))
      .attach('files', await image('png', 200, 100), 'poster.png');
    expect(res.status).toBe(201);
    const orphans = [newKey('pdf'), newKey('thumb.webp'), newKey('png')];
    for (const key of orphans) await ws.stores.files.put(key, Readable.from([pdf(100)]));
    await ws.stores.files.put('README', Readable.from([Buffer.from('kept by hand')]));
    const logs = captureLogs('warn');
    const deps = { files: ws.stores.files, assets: new SqlAssetRepository(ws.stores.records.workspace), locks: ws.stores.locks, logger: logs.logger };
    return { ws, deps, logs, stored: await keysIn(ws.stores.files), orphans };
  }

  async function keysIn(files: FileStore): Promise<string[]> {
    const keys: string[] = [];
    for await (const { key } of files.entries()) keys.push(key);
    return keys.sort();
  }

  it('when objects without an asset row are younger than an hour, then they stay: an upload on another instance may still be committing them', async () => {
    const { ws, deps, stored, logs } = await bucketWithAPicture();
    expect(await sweepSharedFiles(deps, Date.now())).toBe(0);
    expect(await keysIn(ws.stores.files)).toEqual(stored);
    expect(logs.entries()).toEqual([]);
  });

  it('when they are older than an hour, then exactly those go, the assets\' files and files not named as uploads stay, and the count is logged', async () => {
    const { ws, deps, stored, orphans, logs } = await bucketWithAPicture();
    expect(await sweepSharedFiles(deps, Date.now() + ORPHAN_MIN_AGE_MS + 60_000)).toBe(3);
    expect(await keysIn(ws.stores.files)).toEqual(stored.filter((key) => !orphans.includes(key)));
    expect(logs.entries()).toEqual([expect.objectContaining({ level: 40, removed: 3 })]);
  });

  it('when another instance holds the turn, then this one skips it and removes nothing', async () => {
    const { ws, deps, stored } = await bucketWithAPicture();
    const theirs = await ws.stores.locks.acquire(SHARED_SWEEP_LOCK);
    expect(await sweepSharedFiles(deps, Date.now() + ORPHAN_MIN_AGE_MS + 60_000)).toBeUndefined();
    expect(await keysIn(ws.stores.files)).toEqual(stored);
    await theirs!.release();
    expect(await sweepSharedFiles(deps, Date.now() + ORPHAN_MIN_AGE_MS + 60_000)).toBe(3);
  });
});
