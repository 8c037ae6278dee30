import fs from 'node:fs';
import path from 'node:path';
import { request } from '../support/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { captureLogs } from '../support/logs';
import { filesUnder, image, pdf } from '../support/files';
import { buildWorkspace, snapshot, type TestUser, type TestWorkspace } from '../support/workspace';

const DEV_FULL = '/dev/full';

afterEach(() => {
  vi.restoreAllMocks();
});

async function workspace() {
  const logs = captureLogs('error');
  const ws = await buildWorkspace({ logger: logs.logger });
  const brand = await ws.brand();
  const member = await ws.user('contributor', { brandIds: [brand.id] });
  return { ws, brand, member, logs };
}

function upload(ws: TestWorkspace, by: TestUser, brandId: number, files: { data: Buffer; name: string }[]) {
  let req = request(ws.app).post('/api/assets').set('Authorization', `Bearer ${by.token}`).field('brandId', String(brandId));
  for (const f of files) req = req.attach('files', f.data, { filename: f.name, contentType: 'application/octet-stream' });
  return req;
}

/**
 * From the `nth` file the store opens on, writes go to /dev/full, where the kernel answers
 * every write with ENOSPC, as a full disk does.
 */
function fillDiskFrom(nth: number) {
  const createWriteStream = fs.createWriteStream;
  let opened = 0;
  vi.spyOn(fs, 'createWriteStream').mockImplementation(((file: fs.PathLike, options?: Parameters<typeof fs.createWriteStream>[1]) => {
    if (!String(file).includes(`${path.sep}.partial${path.sep}`)) return createWriteStream(file, options);
    opened += 1;
    return opened >= nth ? createWriteStream(DEV_FULL, { flags: 'w' }) : createWriteStream(file, options);
  }));
}

describe('POST /api/assets when the disk fails', () => {
  it.skipIf(!fs.existsSync(DEV_FULL))('when the disk fills up during the second file, then 507 STORAGE_FULL as JSON, and neither the first file nor any row is kept', async () => {
    const { ws, brand, member, logs } = await workspace();
    const before = await snapshot(ws);
    fillDiskFrom(2);
    const res = await upload(ws, member, brand.id, [
      { data: pdf(50_000), name: 'first.pdf' },
      { data: pdf(50_000), name: 'second.pdf' },
    ]);
    expect(res.status).toBe(507);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: 'The server has no room left to store files', code: 'STORAGE_FULL', details: { requestId: expect.any(String) } });
    expect(filesUnder(ws.config.uploadDir)).toEqual([]);
    expect(await snapshot(ws)).toBe(before);
    expect(logs.entries().find((e) => e.level === 50)).toMatchObject({ reqId: res.body.details.requestId });
  });

  it.skipIf(!fs.existsSync(DEV_FULL))("when a picture's thumbnail cannot be written, then 507 and the picture itself is removed too", async () => {
    const { ws, brand, member } = await workspace();
    const before = await snapshot(ws);
    fillDiskFrom(2);
    const res = await upload(ws, member, brand.id, [{ data: await image('png', 400, 300), name: 'poster.png' }]);
    expect(res.status).toBe(507);
    expect(res.body.code).toBe('STORAGE_FULL');
    expect(filesUnder(ws.config.uploadDir)).toEqual([]);
    expect(await snapshot(ws)).toBe(before);
  });

  it('when the upload folder is no longer a folder, then 500 STORAGE_UNAVAILABLE as JSON with no stack, nothing is stored, and uploads work again once it is back', async () => {
    const { ws, brand, member, logs } = await workspace();
    const before = await snapshot(ws);
    const uploadDir = ws.config.uploadDir;
    fs.rmSync(uploadDir, { recursive: true });
    fs.writeFileSync(uploadDir, 'not a folder');

    const res = await upload(ws, member, brand.id, [{ data: pdf(), name: 'plan.pdf' }]);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'The server cannot store files right now', code: 'STORAGE_UNAVAILABLE', details: { requestId: expect.any(String) } });
    expect(JSON.stringify(res.body)).not.toMatch(/ENOTDIR|\/tmp\//);
    expect(await snapshot(ws)).toBe(before);
    const logged = logs.entries().find((e) => e.level === 50) as { err: { code: string; message: string }; reqId: string };
    expect(logged).toMatchObject({ reqId: res.body.details.requestId, err: { code: 'STORAGE_UNAVAILABLE', message: expect.stringContaining('ENOTDIR') } });

    fs.rmSync(uploadDir);
    fs.mkdirSync(path.join(uploadDir, '.partial'), { recursive: true });
    const again = await upload(ws, member, brand.id, [{ data: pdf(), name: 'plan.pdf' }]);
    expect(again.status).toBe(201);
    expect(filesUnder(uploadDir)).toEqual([again.body.assets[0].url.split('/').pop()]);
  });
});
