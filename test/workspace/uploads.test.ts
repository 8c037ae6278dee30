import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from '../support/http';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { bytes, docx, executable, filesUnder, image, mp4, pdf, storedZip, xlsx } from '../support/files';
import { createHttpServer } from '../../src/platform/http-server';
import { captureLogs } from '../support/logs';
import { buildTeam, buildWorkspace, snapshot, type TestUser, type TestWorkspace } from '../support/workspace';

type Team = Awaited<ReturnType<typeof buildTeam>>;
interface Upload {
  data: Buffer;
  name: string;
  type?: string;
}

function upload(ws: TestWorkspace, by: TestUser | undefined, fields: Record<string, unknown>, files: Upload[]) {
  let req = request(ws.app).post('/api/assets');
  if (by) req = req.set('Authorization', `Bearer ${by.token}`);
  for (const [key, value] of Object.entries(fields)) req = req.field(key, String(value));
  for (const f of files) req = req.attach('files', f.data, { filename: f.name, contentType: f.type ?? 'application/octet-stream' });
  return req;
}

/** Nothing stored: no file in the upload folder, no row anywhere. */
async function expectNothingStored(ws: TestWorkspace, before: string) {
  expect(filesUnder(ws.config.uploadDir)).toEqual([]);
  expect(await snapshot(ws)).toBe(before);
}

async function team(env?: Record<string, string>) {
  const t = env ? await teamWith(env) : await buildTeam();
  const campaign = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Spring', brandId: t.brand.id })).body.campaign;
  return { ...t, campaign };
}

/** buildTeam's people on a workspace with other upload limits. */
async function teamWith(env: Record<string, string>): Promise<Team> {
  const ws = await buildWorkspace({ env });
  const [brand, other] = [await ws.brand('Mine'), await ws.brand('Theirs')];
  return {
    ws,
    brand,
    other,
    admin: await ws.user('superadmin'),
    manager: await ws.user('manager', { brandIds: [brand.id] }),
    contributor: await ws.user('contributor', { brandIds: [brand.id] }),
    colleague: await ws.user('contributor', { brandIds: [brand.id] }),
  };
}

describe('POST /api/assets', () => {
  it('when a contributor uploads a PNG, a JPEG, a PDF and a DOCX in one request, then 201 with four assets of the right types, sizes and thumbnails', async () => {
    const t = await team();
    const files = [
      { data: await image('png', 1200, 800), name: 'poster.png', type: 'image/png' },
      { data: await image('jpeg', 300, 900), name: 'flyer.jpg', type: 'image/jpeg' },
      { data: pdf(150_000), name: 'press kit.pdf', type: 'application/pdf' },
      { data: docx(), name: 'brief.docx' },
    ];
    const res = await upload(t.ws, t.contributor, { brandId: t.brand.id }, files);
    expect(res.status).toBe(201);
    expect(res.body.assets).toHaveLength(4);
    const [png, jpeg, doc, word] = res.body.assets;
    expect(png).toEqual({
      id: expect.any(Number),
      name: 'poster.png',
      mimeType: 'image/png',
      size: files[0].data.length,
      sizeMb: Math.round((files[0].data.length / 1048576) * 10) / 10,
      url: expect.stringMatching(/^\/api\/uploads\/[0-9a-f]{32}\.png$/),
      thumbnailUrl: expect.stringMatching(/^\/api\/uploads\/[0-9a-f]{32}\.thumb\.webp$/),
      downloadUrl: `/api/assets/${png.id}/download`,
      brandId: t.brand.id,
      campaignId: null,
      postId: null,
      uploadedBy: t.contributor.id,
      createdAt: '2026-01-15T12:00:00.000Z',
      // The uploader may delete their own file.
      can: { delete: true },
    });
    expect(jpeg).toMatchObject({ mimeType: 'image/jpeg', size: files[1].data.length, thumbnailUrl: expect.any(String) });
    expect(doc).toMatchObject({ name: 'press kit.pdf', mimeType: 'application/pdf', size: 150_000, sizeMb: 0.1, thumbnailUrl: null });
    expect(word).toMatchObject({ mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', thumbnailUrl: null });
    expect(filesUnder(t.ws.config.uploadDir)).toHaveLength(6);

    for (const [asset, width, height] of [
      [png, 320, 213],
      [jpeg, 107, 320],
    ] as const) {
      const thumb = await t.ws.as(t.contributor).get(asset.thumbnailUrl).parse(bytes);
      expect(thumb.status).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/webp');
      expect(await sharp(thumb.body as Buffer).metadata()).toMatchObject({ format: 'webp', width, height });
    }
    const original = await t.ws.as(t.contributor).get(png.url).parse(bytes);
    expect(Buffer.compare(original.body as Buffer, files[0].data)).toBe(0);
  });

  it('when images of every accepted kind and an MP4 and an XLSX are sent, then each is recognised from its bytes, whatever its name and type say', async () => {
    const t = await team();
    const files = [
      { data: await image('gif', 40, 40), name: 'a.bin' },
      { data: await image('webp', 40, 40), name: 'b', type: 'text/plain' },
      { data: await image('avif', 40, 40), name: 'c.jpg', type: 'image/jpeg' },
      { data: mp4(), name: 'd.mov' },
      { data: xlsx(), name: 'e.docx' },
    ];
    const res = await upload(t.ws, t.manager, { brandId: t.brand.id }, files);
    expect(res.status).toBe(201);
    expect(res.body.assets.map((a: { mimeType: string }) => a.mimeType)).toEqual([
      'image/gif',
      'image/webp',
      'image/avif',
      'video/mp4',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    expect(res.body.assets.map((a: { thumbnailUrl: string | null }) => a.thumbnailUrl !== null)).toEqual([true, true, true, false, false]);
  });

  it("when the upload names a campaign, then the assets take its brand and campaign", async () => {
    const t = await team();
    const res = await upload(t.ws, t.contributor, { campaignId: t.campaign.id }, [{ data: pdf(), name: 'plan.pdf' }]);
    expect(res.status).toBe(201);
    expect(res.body.assets[0]).toMatchObject({ brandId: t.brand.id, campaignId: t.campaign.id, postId: null });
  });

  it("when the upload names a post, then the assets join its attachments in order and the post's thumbnail is its first image's", async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'Opening', campaignId: t.campaign.id })).body.post;
    const res = await upload(t.ws, t.contributor, { postId: post.id }, [
      { data: pdf(), name: 'notes.pdf' },
      { data: await image('jpeg'), name: 'cover.jpg' },
      { data: await image('png'), name: 'second.png' },
    ]);
    expect(res.status).toBe(201);
    const [notes, cover, second] = res.body.assets;
    expect(notes).toMatchObject({ brandId: t.brand.id, campaignId: t.campaign.id, postId: post.id });
    const after = (await t.ws.as(t.contributor).get(`/api/posts/${post.id}`)).body.post;
    expect(after.attachments).toEqual([notes.id, cover.id, second.id]);
    expect(after.thumbnailUrl).toBe(cover.thumbnailUrl);
  });

  it("when a file's name holds ../, quotes, controls and Arabic letters, then the name is kept cleaned and the download names it safely", async () => {
    const t = await team();
    const name = '../../etc/"تقرير" السنة\t\u202e.pdf';
    const res = await upload(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name }]);
    expect(res.status).toBe(201);
    const asset = res.body.assets[0];
    expect(asset.name).toBe('"تقرير" السنة.pdf');
    expect(filesUnder(t.ws.config.uploadDir)).toEqual([asset.url.split('/').pop()]);

    const download = await t.ws.as(t.contributor).get(asset.downloadUrl).parse(bytes);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    const disposition = download.headers['content-disposition'];
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%!'()*._~-]+$/);
    expect(decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1])).toBe('"تقرير" السنة.pdf');
    expect(disposition).not.toMatch(/[\r\n]|\.\.\//);
  });

  it('when the name is too long, then it is cut to 200 characters and keeps its extension', async () => {
    const t = await team();
    const res = await upload(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name: `${'س'.repeat(300)}.pdf` }]);
    const kept: string = res.body.assets[0].name;
    expect(Array.from(kept)).toHaveLength(200);
    expect(kept.endsWith('س.pdf')).toBe(true);
  });

  describe('when the upload is refused, then nothing is stored', () => {
    it.each([
      ['an HTML page', () => Buffer.from('<!doctype html><script>alert(1)</script>'), 'page.html', 'text/html'],
      ['an SVG picture', () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'logo.svg', 'image/svg+xml'],
      ['an executable named .png', () => executable(), 'holiday.png', 'image/png'],
      ['a Linux program named .jpg', () => Buffer.concat([Buffer.from('\x7fELF', 'latin1'), Buffer.alloc(200)]), 'photo.jpg', 'image/jpeg'],
      ['a PNG signature over garbage', () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 1)]), 'broken.png', 'image/png'],
      ['a zip that is no Office document', () => storedZip({ 'readme.txt': 'hello' }), 'brief.docx', 'application/zip'],
      ['a Word document with macros', () => storedZip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w/>', 'word/vbaProject.bin': 'x' }), 'brief.docx', ''],
      ['plain text', () => Buffer.from('just some words, nothing else, but long enough to be sniffed properly'), 'notes.pdf', 'application/pdf'],
      ['an empty file', () => Buffer.alloc(0), 'empty.png', 'image/png'],
    ])('when one file is %s, then 415 FILE_TYPE', async (_label, make, name, type) => {
      const t = await team();
      const before = await snapshot(t.ws);
      const res = await upload(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: await image('png'), name: 'good.png' }, { data: make(), name, type }]);
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('FILE_TYPE');
      await expectNothingStored(t.ws, before);
    });

    it('when a file is larger than UPLOAD_MAX_MB, then 413 FILE_TOO_LARGE', async () => {
      const t = await team({ UPLOAD_MAX_MB: '0.1' });
      const before = await snapshot(t.ws);
      const res = await upload(t.ws, t.contributor, { brandId: t.brand.id }, [
        { data: pdf(50_000), name: 'small.pdf' },
        { data: pdf(110_000), name: 'big.pdf' },
      ]);
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('FILE_TOO_LARGE');
      await expectNothingStored(t.ws, before);
    });

    it('when the declared body is larger than every file allowed together, then 413 before anything is read', async () => {
      const t = await team({ UPLOAD_MAX_MB: '0.1', UPLOAD_MAX_FILES: '2' });
      const before = await snapshot(t.ws);
      const res = await upload(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(400_000), name: 'huge.pdf' }]);
      expect(res.status).toBe(413);
      await expectNothingStored(t.ws, before);
    });

    it('when more files than UPLOAD_MAX_FILES are sent, then 400 TOO_MANY_FILES', async () => {
      const t = await team({ UPLOAD_MAX_FILES: '2' });
      const before = await snapshot(t.ws);
      const res = await upload(t.ws, t.contributor, { brandId: t.brand.id }, [1, 2, 3].map((n) => ({ data: pdf(), name: `${n}.pdf` })));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('TOO_MANY_FILES');
      await expectNothingStored(t.ws, before);
    });

    it('when nobody is signed in, then 401', async () => {
      const t = await team();
      const before = await snapshot(t.ws);
      const res = await upload(t.ws, undefined, { brandId: t.brand.id }, [{ data: pdf(), name: 'x.pdf' }]);
      expect(res.status).toBe(401);
      await expectNothingStored(t.ws, before);
    });

    it("when the brand, campaign or post is another brand's, then 404, whether the fields come before or after the files", async () => {
      const t = await team();
      const theirCampaign = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Theirs', brandId: t.other.id })).body.campaign;
      const theirPost = (await t.ws.as(t.admin).post('/api/posts').send({ title: 'Theirs', brandId: t.other.id })).body.post;
      const before = await snapshot(t.ws);
      for (const fields of [{ brandId: t.other.id }, { campaignId: theirCampaign.id }, { postId: theirPost.id }, { brandId: 9999 }]) {
        expect((await upload(t.ws, t.contributor, fields, [{ data: pdf(), name: 'x.pdf' }])).status).toBe(404);
        const late = request(t.ws.app).post('/api/assets').set('Authorization', `Bearer ${t.contributor.token}`).attach('files', pdf(), 'x.pdf');
        const [key, value] = Object.entries(fields)[0];
        expect((await late.field(key, String(value))).status).toBe(404);
      }
      await expectNothingStored(t.ws, before);
    });

    it("when a contributor uploads into a colleague's post, then 403 NOT_POST_OWNER", async () => {
      const t = await team();
      const post = (await t.ws.as(t.colleague).post('/api/posts').send({ title: 'Theirs', brandId: t.brand.id })).body.post;
      const before = await snapshot(t.ws);
      const res = await upload(t.ws, t.contributor, { postId: post.id }, [{ data: pdf(), name: 'x.pdf' }]);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('NOT_POST_OWNER');
      await expectNothingStored(t.ws, before);
    });

    it.each([
      ['no brand, campaign or post', {}, 'BRAND_REQUIRED'],
      ['a brand other than the campaign’s', { brandId: 'OTHER', campaignId: 'CAMPAIGN' }, 'BRAND_MISMATCH'],
      ['an unknown field', { brandId: 'MINE', folder: '../x' }, 'VALIDATION'],
      ['a brandId that is not a number', { brandId: '1 OR 1=1' }, 'VALIDATION'],
    ])('when the fields have %s, then 400 %s', async (_label, fields, code) => {
      const t = await team();
      const ids: Record<string, number> = { OTHER: t.other.id, CAMPAIGN: t.campaign.id, MINE: t.brand.id };
      const sent = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, ids[v] ?? v]));
      const before = await snapshot(t.ws);
      const res = await upload(t.ws, t.admin, sent, [{ data: pdf(), name: 'x.pdf' }]);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(code);
      await expectNothingStored(t.ws, before);
    });

    it('when no file is sent, then 400 NO_FILES; when the body is not multipart, then 415 UPLOAD_FORMAT', async () => {
      const t = await team();
      const before = await snapshot(t.ws);
      const none = await request(t.ws.app).post('/api/assets').set('Authorization', `Bearer ${t.contributor.token}`).field('brandId', String(t.brand.id));
      expect(none.status).toBe(400);
      expect(none.body.code).toBe('NO_FILES');
      const json = await t.ws.as(t.contributor).post('/api/assets').send({ brandId: t.brand.id });
      expect(json.status).toBe(415);
      expect(json.body.code).toBe('UPLOAD_FORMAT');
      const otherField = await request(t.ws.app)
        .post('/api/assets')
        .set('Authorization', `Bearer ${t.contributor.token}`)
        .field('brandId', String(t.brand.id))
        .attach('file', pdf(), 'x.pdf');
      expect(otherField.status).toBe(400);
      await expectNothingStored(t.ws, before);
    });
  });

  describe('when the client goes away in the middle of the upload', () => {
    let server: http.Server | undefined;
    afterEach(() => server?.close());

    it('then the partial file is removed and no row is written', async () => {
      const t = await team();
      server = http.createServer(t.ws.app).listen(0, '127.0.0.1');
      await new Promise((r) => server!.once('listening', r));
      const { port } = server.address() as AddressInfo;
      const before = await snapshot(t.ws);
      const boundary = 'cut-here-7f3a';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="brandId"\r\n\r\n${t.brand.id}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
      const req = http.request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/assets',
        headers: { Authorization: `Bearer ${t.contributor.token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(5_000_000) },
      });
      req.on('error', () => {});
      req.write(head);
      req.write(pdf(1_000_000));
      await waitFor(() => filesUnder(t.ws.config.uploadDir).length > 0);
      req.destroy();
      await waitFor(() => filesUnder(t.ws.config.uploadDir).length === 0);
      await expectNothingStored(t.ws, before);
    });

    it('then it is logged once at info as an aborted request, with no error and no stack', async () => {
      const logs = captureLogs('info');
      const ws = await buildWorkspace({ logger: logs.logger });
      const brand = await ws.brand();
      const contributor = await ws.user('contributor', { brandIds: [brand.id] });
      server = createHttpServer(ws.app).listen(0, '127.0.0.1');
      await new Promise((r) => server!.once('listening', r));
      const { port } = server.address() as AddressInfo;
      const boundary = 'cut-here-9b2c';
      const req = http.request({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/assets',
        headers: { Authorization: `Bearer ${contributor.token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(5_000_000) },
      });
      req.on('error', () => {});
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="brandId"\r\n\r\n${brand.id}\r\n`);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
      req.write(pdf(1_000_000));
      await waitFor(() => filesUnder(ws.config.uploadDir).length > 0);
      req.destroy();
      await waitFor(() => logs.entries().some((e) => e.msg === 'request aborted'));
      await new Promise((r) => setTimeout(r, 200));
      const entries = logs.entries();
      expect(entries.filter((e) => (e.level as number) >= 50)).toEqual([]);
      expect(logs.text()).not.toMatch(/"stack"/);
      expect(entries.filter((e) => e.msg === 'request aborted')).toEqual([expect.objectContaining({ level: 30, aborted: true })]);
    });
  });
});

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
