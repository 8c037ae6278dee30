import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AVATAR_SIZE } from '../../src/workspace/avatars/service';
import { bytes, filesUnder, image, pdf } from '../support/files';
import { request } from '../support/http';
import { buildWorkspace, type TestUser, type TestWorkspace } from '../support/workspace';

function setAvatar(ws: TestWorkspace, user: TestUser, data: Buffer, name = 'me.png') {
  return ws.as(user).post('/api/auth/me/avatar').attach('file', data, { filename: name, contentType: 'image/png' });
}

/** Two brands; Lina works in both, with her second brand shared by Omar only. */
async function people() {
  const ws = await buildWorkspace();
  const [first, second, third] = [await ws.brand('First'), await ws.brand('Second'), await ws.brand('Third')];
  const lina = await ws.user('contributor', { brandIds: [first.id, second.id] });
  const omar = await ws.user('manager', { brandIds: [second.id] });
  const stranger = await ws.user('manager', { brandIds: [third.id] });
  const root = await ws.user('superadmin');
  return { ws, first, lina, omar, stranger, root };
}

describe('POST /api/auth/me/avatar', () => {
  it('when a member sends a picture, then it becomes a square WebP avatar of their own, not a brand asset', async () => {
    const { ws, lina } = await people();
    const res = await setAvatar(ws, lina, await image('png', 900, 400));
    expect(res.status).toBe(200);
    expect(res.body.user.avatar).toMatch(/^\/api\/avatars\/avatar-[0-9a-f]{32}\.webp$/);
    const picture = await ws.as(lina).get(res.body.user.avatar).parse(bytes);
    expect(picture.status).toBe(200);
    expect(picture.headers['content-type']).toBe('image/webp');
    expect(picture.headers['x-content-type-options']).toBe('nosniff');
    expect(await sharp(picture.body as Buffer).metadata()).toMatchObject({ format: 'webp', width: AVATAR_SIZE, height: AVATAR_SIZE });
    expect((await ws.as(lina).get('/api/assets')).body.assets).toEqual([]);
  });

  it('when colleagues look at the picture, then everyone sharing any brand with its person sees it and nobody else does', async () => {
    const { ws, lina, omar, stranger, root } = await people();
    const url = (await setAvatar(ws, lina, await image('png'))).body.user.avatar as string;
    expect((await ws.as(omar).get(url)).status).toBe(200);
    expect((await ws.as(root).get(url)).status).toBe(200);
    expect((await ws.as(stranger).get(url)).status).toBe(404);
    expect((await request(ws.app).get(url)).status).toBe(401);
    expect((await ws.as(omar).get('/api/avatars/avatar-00000000000000000000000000000000.webp')).status).toBe(404);
    expect((await ws.as(omar).get('/api/avatars/..%2fsecrets.json')).status).toBe(404);
  });

  it('when a new picture replaces one, or the picture is removed, then the old file goes and its address answers 404', async () => {
    const { ws, lina } = await people();
    const first = (await setAvatar(ws, lina, await image('png'))).body.user.avatar as string;
    const second = (await setAvatar(ws, lina, await image('jpeg'), 'me.jpg')).body.user.avatar as string;
    expect(second).not.toBe(first);
    expect((await ws.as(lina).get(first)).status).toBe(404);
    expect(filesUnder(ws.config.uploadDir)).toEqual([second.split('/').pop()]);
    const removed = await ws.as(lina).delete('/api/auth/me/avatar');
    expect(removed.status).toBe(200);
    expect(removed.body.user.avatar).toBeNull();
    expect(filesUnder(ws.config.uploadDir)).toEqual([]);
  });

  it('when the file is not a picture, is not multipart or comes with no file, then 415 or 400 and the avatar stays', async () => {
    const { ws, lina } = await people();
    const url = (await setAvatar(ws, lina, await image('png'))).body.user.avatar as string;
    const notImage = await setAvatar(ws, lina, pdf(), 'me.png');
    expect(notImage.status).toBe(415);
    expect(notImage.body.code).toBe('AVATAR_TYPE');
    expect((await ws.as(lina).post('/api/auth/me/avatar').send({ file: 'x' })).status).toBe(415);
    expect((await ws.as(lina).post('/api/auth/me/avatar').field('other', '1')).status).toBe(400);
    expect((await ws.as(lina).get('/api/auth/me')).body.user.avatar).toBe(url);
    expect(filesUnder(ws.config.uploadDir)).toHaveLength(1);
  });

  it('when the picture is larger than 10 MB, then 413', async () => {
    const { ws, lina } = await people();
    const res = await setAvatar(ws, lina, Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('FILE_TOO_LARGE');
  });

  it('when nobody is signed in, then 401', async () => {
    const { ws } = await people();
    expect((await request(ws.app).post('/api/auth/me/avatar').attach('file', await image('png'), 'a.png')).status).toBe(401);
  });
});
