import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request, type HttpResponse } from '../support/http';
import { afterEach, describe, expect, it } from 'vitest';
import { bytes, docx, filesUnder, image, mp4, pdf, xlsx } from '../support/files';
import { buildTeam, snapshot, type TestUser, type TestWorkspace } from '../support/workspace';
import { itOnSqlite } from '../support/records';

interface AssetBody {
  id: number;
  url: string;
  thumbnailUrl: string | null;
  downloadUrl: string;
  [key: string]: unknown;
}

async function team() {
  const t = await buildTeam();
  const campaign = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Spring', brandId: t.brand.id })).body.campaign;
  return { ...t, campaign };
}

async function uploaded(ws: TestWorkspace, by: TestUser, fields: Record<string, number>, files: { data: Buffer; name: string }[]): Promise<AssetBody[]> {
  let req = request(ws.app).post('/api/assets').set('Authorization', `Bearer ${by.token}`);
  for (const [key, value] of Object.entries(fields)) req = req.field(key, String(value));
  for (const f of files) req = req.attach('files', f.data, f.name);
  const res = await req;
  expect(res.status).toBe(201);
  return res.body.assets;
}

/** A name as the plain `filename` parameter carries it: what Latin-1 cannot hold becomes "?". */
const latin1 = (name: string) => name.replace(/[\u0100-\uffff]/g, '?');

const ids = (res: HttpResponse) => res.body.assets.map((a: { id: number }) => a.id);

describe('GET /api/assets', () => {
  it('when assets exist in several brands, campaigns and posts, then each sees only their brands, newest first, filterable and paginated', async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'P', campaignId: t.campaign.id })).body.post;
    const [loose] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name: 'a.pdf' }]);
    t.ws.clock.advance(1000);
    const [inCampaign] = await uploaded(t.ws, t.manager, { campaignId: t.campaign.id }, [{ data: pdf(), name: 'b.pdf' }]);
    t.ws.clock.advance(1000);
    const [inPost] = await uploaded(t.ws, t.contributor, { postId: post.id }, [{ data: pdf(), name: 'c.pdf' }]);
    t.ws.clock.advance(1000);
    const [theirs] = await uploaded(t.ws, t.admin, { brandId: t.other.id }, [{ data: pdf(), name: 'd.pdf' }]);

    expect(ids(await t.ws.as(t.contributor).get('/api/assets'))).toEqual([inPost.id, inCampaign.id, loose.id]);
    expect(ids(await t.ws.as(t.admin).get('/api/assets'))).toEqual([theirs.id, inPost.id, inCampaign.id, loose.id]);
    expect(ids(await t.ws.as(t.contributor).get(`/api/assets?campaignId=${t.campaign.id}`))).toEqual([inPost.id, inCampaign.id]);
    expect(ids(await t.ws.as(t.contributor).get(`/api/assets?postId=${post.id}`))).toEqual([inPost.id]);
    expect(ids(await t.ws.as(t.contributor).get(`/api/assets?brandId=${t.other.id}`))).toEqual([]);
    expect(ids(await t.ws.as(t.admin).get(`/api/assets?brandId=${t.other.id}`))).toEqual([theirs.id]);
    expect(ids(await t.ws.as(t.admin).get('/api/assets?limit=2&offset=1'))).toEqual([inPost.id, inCampaign.id]);
  });

  it.each(['limit=0', 'limit=201', 'offset=-1', 'brandId=abc', 'kind=image'])('when the query is %s, then 400', async (query) => {
    const t = await team();
    expect((await t.ws.as(t.contributor).get(`/api/assets?${query}`)).status).toBe(400);
  });

  it('when nobody is signed in, then 401', async () => {
    const t = await team();
    expect((await request(t.ws.app).get('/api/assets')).status).toBe(401);
  });
});

describe('GET /api/assets with search and filters', () => {
  it('when q is part of a name in another case, then only the files whose names hold it come back; % and _ match only themselves', async () => {
    const t = await team();
    const files = ['Poster_Final.PDF', 'poster-draft.pdf', '100% growth.pdf', 'Report.pdf', 'ملصق المعرض.pdf'];
    const stored = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, files.map((name) => ({ data: pdf(), name })));
    const idOf = (name: string) => stored.find((a) => a.name === name)!.id;
    const names = async (q: string) =>
      ((await t.ws.as(t.contributor).get(`/api/assets?q=${encodeURIComponent(q)}`)).body.assets as { name: string }[]).map((a) => a.name).sort();

    expect(await names('POSTER')).toEqual(['Poster_Final.PDF', 'poster-draft.pdf']);
    expect(await names('_')).toEqual(['Poster_Final.PDF']);
    expect(await names('%')).toEqual(['100% growth.pdf']);
    expect(await names('r%d')).toEqual([]);
    expect(await names('ملصق')).toEqual(['ملصق المعرض.pdf']);
    expect(await names('  report ')).toEqual(['Report.pdf']);
    expect(await names('')).toHaveLength(files.length);
    expect(ids(await t.ws.as(t.contributor).get('/api/assets?q=poster&limit=1'))).toEqual([idOf('poster-draft.pdf')]);
  });

  it('when type is image, video, pdf or document, then only files of that kind come back', async () => {
    const t = await team();
    const [png, jpeg, film, doc, word, sheet] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [
      { data: await image('png'), name: 'a.png' },
      { data: await image('jpeg'), name: 'b.jpg' },
      { data: mp4(), name: 'c.mp4' },
      { data: pdf(), name: 'd.pdf' },
      { data: docx(), name: 'e.docx' },
      { data: xlsx(), name: 'f.xlsx' },
    ]);
    const of = async (type: string) => (ids(await t.ws.as(t.contributor).get(`/api/assets?type=${type}`)) as number[]).sort((a, b) => a - b);
    expect(await of('image')).toEqual([png.id, jpeg.id]);
    expect(await of('video')).toEqual([film.id]);
    expect(await of('pdf')).toEqual([doc.id]);
    expect(await of('document')).toEqual([word.id, sheet.id]);
  });

  it('when campaignId, uploadedBy, type and q are combined, then a file must match them all, and only in the brands the caller sees', async () => {
    const t = await team();
    const [mineInCampaign] = await uploaded(t.ws, t.contributor, { campaignId: t.campaign.id }, [{ data: pdf(), name: 'brief.pdf' }]);
    const [mineLoose] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name: 'brief-loose.pdf' }]);
    const [colleagues] = await uploaded(t.ws, t.colleague, { campaignId: t.campaign.id }, [{ data: pdf(), name: 'brief-colleague.pdf' }]);
    const [picture] = await uploaded(t.ws, t.contributor, { campaignId: t.campaign.id }, [{ data: await image('png'), name: 'brief.png' }]);
    await uploaded(t.ws, t.admin, { brandId: t.other.id }, [{ data: pdf(), name: 'brief-theirs.pdf' }]);
    const get = async (query: string) => (ids(await t.ws.as(t.manager).get(`/api/assets?${query}`)) as number[]).sort((a, b) => a - b);

    expect(await get(`uploadedBy=${t.contributor.id}`)).toEqual([mineInCampaign.id, mineLoose.id, picture.id]);
    expect(await get(`uploadedBy=${t.contributor.id}&campaignId=${t.campaign.id}`)).toEqual([mineInCampaign.id, picture.id]);
    expect(await get(`uploadedBy=${t.contributor.id}&campaignId=${t.campaign.id}&type=pdf`)).toEqual([mineInCampaign.id]);
    expect(await get(`campaignId=${t.campaign.id}&q=colleague`)).toEqual([colleagues.id]);
    expect(await get('q=theirs')).toEqual([]);
    expect(await get(`uploadedBy=${t.admin.id}`)).toEqual([]);
  });

  it.each(['type=svg', 'type=', 'type=image&type=pdf', 'uploadedBy=abc', 'uploadedBy=0', 'q=a&q=b', `q=${'x'.repeat(201)}`])('when the query is %s, then 400', async (query) => {
    const t = await team();
    const res = await t.ws.as(t.contributor).get(`/api/assets?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
  });
});

describe('DELETE /api/assets', () => {
  const bulkDelete = (ws: TestWorkspace, by: TestUser, body: unknown) => ws.as(by).delete('/api/assets').send(body as object);

  it('when the uploader deletes several of their files, one attached to a post, then {ok, deleted}, the rows and files go and the post keeps the rest', async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'P', brandId: t.brand.id })).body.post;
    const [picture, notes] = await uploaded(t.ws, t.contributor, { postId: post.id }, [
      { data: await image('png'), name: 'a.png' },
      { data: pdf(), name: 'b.pdf' },
    ]);
    const [loose, kept] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [
      { data: pdf(), name: 'c.pdf' },
      { data: pdf(), name: 'd.pdf' },
    ]);
    expect(filesUnder(t.ws.config.uploadDir)).toHaveLength(5);

    const res = await bulkDelete(t.ws, t.contributor, { ids: [picture.id, loose.id, loose.id] });

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, deleted: 2 });
    expect((ids(await t.ws.as(t.contributor).get('/api/assets')) as number[]).sort((a, b) => a - b)).toEqual([notes.id, kept.id]);
    expect(filesUnder(t.ws.config.uploadDir).sort()).toEqual([notes, kept].map((a) => a.url.split('/').pop()).sort());
    expect((await t.ws.as(t.contributor).get(`/api/posts/${post.id}`)).body.post).toMatchObject({ attachments: [notes.id], thumbnailUrl: null });
  });

  it("when a manager or a superadmin deletes others' files, then 200", async () => {
    const t = await team();
    const [a, b, c] = await uploaded(t.ws, t.colleague, { brandId: t.brand.id }, [
      { data: pdf(), name: 'a.pdf' },
      { data: pdf(), name: 'b.pdf' },
      { data: pdf(), name: 'c.pdf' },
    ]);
    expect((await bulkDelete(t.ws, t.manager, { ids: [a.id, b.id] })).body).toEqual({ ok: true, deleted: 2 });
    expect((await bulkDelete(t.ws, t.admin, { ids: [c.id] })).body).toEqual({ ok: true, deleted: 1 });
    expect(filesUnder(t.ws.config.uploadDir)).toEqual([]);
  });

  it.each([
    ['no body', undefined],
    ['an empty object', {}],
    ['no ids', { ids: [] }],
    ['201 ids', { ids: Array.from({ length: 201 }, (_, i) => i + 1) }],
    ['ids as text', { ids: ['1'] }],
    ['a zero id', { ids: [0] }],
    ['a negative id', { ids: [-3] }],
    ['a fraction', { ids: [1.5] }],
    ['ids not in a list', { ids: 1 }],
    ['an unknown field', { ids: [1], all: true }],
  ])('when the body has %s, then 400 and nothing is deleted', async (_, body) => {
    const t = await team();
    const [a] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name: 'a.pdf' }]);
    const req = t.ws.as(t.admin).delete('/api/assets');
    const res = body === undefined ? await req : await req.send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    expect((await t.ws.as(t.contributor).get(`/api/assets/${a.id}`)).status).toBe(200);
  });

  it('when 200 ids are sent, then they are accepted (the limit is inclusive)', async () => {
    const t = await team();
    const [a] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name: 'a.pdf' }]);
    const res = await bulkDelete(t.ws, t.manager, { ids: [a.id, ...Array.from({ length: 199 }, () => a.id)] });
    expect(res.body).toEqual({ ok: true, deleted: 1 });
  });

  it("when a contributor includes a colleague's file among their own, then 403 NOT_ASSET_UPLOADER and nothing is deleted", async () => {
    const t = await team();
    const [own] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name: 'own.pdf' }]);
    const [theirs] = await uploaded(t.ws, t.colleague, { brandId: t.brand.id }, [{ data: pdf(), name: 'theirs.pdf' }]);
    const before = await snapshot(t.ws);

    const res = await bulkDelete(t.ws, t.contributor, { ids: [own.id, theirs.id] });

    expect(res.status).toBe(403);
    expect(res.body.code).toBe('NOT_ASSET_UPLOADER');
    expect(await snapshot(t.ws)).toBe(before);
    expect(filesUnder(t.ws.config.uploadDir)).toHaveLength(2);
  });

  it("when another brand's id or a missing one is among them, then 404 exactly like a missing one, and nothing is deleted", async () => {
    const t = await team();
    const [own] = await uploaded(t.ws, t.manager, { brandId: t.brand.id }, [{ data: pdf(), name: 'own.pdf' }]);
    const [theirs] = await uploaded(t.ws, t.admin, { brandId: t.other.id }, [{ data: pdf(), name: 'theirs.pdf' }]);
    const before = await snapshot(t.ws);

    const hidden = await bulkDelete(t.ws, t.manager, { ids: [own.id, theirs.id] });
    const missing = await bulkDelete(t.ws, t.manager, { ids: [own.id, 999_999] });

    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
    expect(hidden.text).not.toContain('theirs.pdf');
    expect(await snapshot(t.ws)).toBe(before);
    expect(filesUnder(t.ws.config.uploadDir)).toHaveLength(2);
  });

  it('when nobody is signed in, then 401 and nothing is deleted', async () => {
    const t = await team();
    const [a] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name: 'a.pdf' }]);
    const res = await request(t.ws.app).delete('/api/assets').send({ ids: [a.id] });
    expect(res.status).toBe(401);
    expect((await t.ws.as(t.contributor).get(`/api/assets/${a.id}`)).status).toBe(200);
  });
});

describe('GET /api/assets/:id and /download', () => {
  it("when an asset of another brand is asked for, then 404 exactly like a missing one, for the record and its download", async () => {
    const t = await team();
    const [theirs] = await uploaded(t.ws, t.admin, { brandId: t.other.id }, [{ data: pdf(), name: 'd.pdf' }]);
    const hidden = await t.ws.as(t.contributor).get(`/api/assets/${theirs.id}`);
    const missing = await t.ws.as(t.contributor).get('/api/assets/999');
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
    expect((await t.ws.as(t.contributor).get(theirs.downloadUrl)).status).toBe(404);
    expect((await t.ws.as(t.admin).get(`/api/assets/${theirs.id}`)).body.asset.id).toBe(theirs.id);
  });

  it('when an Office document is downloaded, then it comes as an attachment with its stored type and the same bytes', async () => {
    const t = await team();
    const data = docx();
    const [doc] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data, name: 'Brief v2.docx' }]);
    const res = await t.ws.as(t.colleague).get(doc.downloadUrl).parse(bytes);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Brief v2.docx"');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(res.body as Buffer, data)).toBe(0);
  });

  it('when a file named in Arabic is downloaded, then the answer names it twice: a Latin-1 fallback and the UTF-8 name in filename* (RFC 5987)', async () => {
    const t = await team();
    const name = 'ملف الصحافة 2026.pdf';
    const [doc] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name }]);
    const res = await t.ws.as(t.contributor).get(doc.downloadUrl);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${latin1(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`);
  });
});

describe('DELETE /api/assets/:id', () => {
  it('when the uploader deletes an image attached to a post, then it leaves the post, its row and both its files go', async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'P', brandId: t.brand.id })).body.post;
    const [picture, notes] = await uploaded(t.ws, t.contributor, { postId: post.id }, [
      { data: await image('png'), name: 'a.png' },
      { data: pdf(), name: 'b.pdf' },
    ]);
    expect(filesUnder(t.ws.config.uploadDir)).toHaveLength(3);
    const res = await t.ws.as(t.contributor).delete(`/api/assets/${picture.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await t.ws.as(t.contributor).get(`/api/assets/${picture.id}`)).status).toBe(404);
    expect(filesUnder(t.ws.config.uploadDir)).toEqual([notes.url.split('/').pop()]);
    const after = (await t.ws.as(t.contributor).get(`/api/posts/${post.id}`)).body.post;
    expect(after).toMatchObject({ attachments: [notes.id], thumbnailUrl: null });
  });

  it("when a contributor deletes a colleague's asset, then 403 NOT_ASSET_UPLOADER; a manager and a superadmin may", async () => {
    const t = await team();
    const [a, b] = await uploaded(t.ws, t.colleague, { brandId: t.brand.id }, [
      { data: pdf(), name: 'a.pdf' },
      { data: pdf(), name: 'b.pdf' },
    ]);
    const refused = await t.ws.as(t.contributor).delete(`/api/assets/${a.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NOT_ASSET_UPLOADER');
    expect(filesUnder(t.ws.config.uploadDir)).toHaveLength(2);
    expect((await t.ws.as(t.manager).delete(`/api/assets/${a.id}`)).status).toBe(200);
    expect((await t.ws.as(t.admin).delete(`/api/assets/${b.id}`)).status).toBe(200);
    expect(filesUnder(t.ws.config.uploadDir)).toEqual([]);
  });

  it("when a manager of another brand deletes the asset, or it is missing, then 404", async () => {
    const t = await team();
    const [a] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name: 'a.pdf' }]);
    const outsider = await t.ws.user('manager', { brandIds: [t.other.id] });
    expect((await t.ws.as(outsider).delete(`/api/assets/${a.id}`)).status).toBe(404);
    expect((await t.ws.as(t.manager).delete('/api/assets/999')).status).toBe(404);
  });
});

describe('/api/uploads/*', () => {
  it('when a member of the brand fetches a picture and its thumbnail, then 200 with the stored type, nosniff and the exact bytes', async () => {
    const t = await team();
    const data = await image('jpeg');
    const [picture] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data, name: 'x.svg' }]);
    const res = await t.ws.as(t.colleague).get(picture.url).parse(bytes);
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({ 'content-type': 'image/jpeg', 'x-content-type-options': 'nosniff', 'content-length': String(data.length) });
    // Shown, under the name it was uploaded with; its thumbnail is no file of anyone's and has none.
    expect(res.headers['content-disposition']).toBe('inline; filename=x.svg');
    expect(Buffer.compare(res.body as Buffer, data)).toBe(0);
    const thumbnail = await t.ws.as(t.colleague).get(picture.thumbnailUrl!);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    expect(thumbnail.headers['content-disposition']).toBeUndefined();
  });

  it("when a PDF is fetched there, then it is shown inline and the CSP lets the library's own page frame it, and no other", async () => {
    const t = await team();
    const [doc] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name: 'a.pdf' }]);
    const res = await t.ws.as(t.contributor).get(doc.url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('inline; filename=a.pdf');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    const csp = new Map(
      res.headers['content-security-policy']
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values.join(' ')]),
    );
    expect(csp.get('frame-ancestors')).toBe("'self'");
    // The preview is an <iframe>: without frame-src, frames fall back to default-src.
    expect(csp.get('frame-src') ?? csp.get('child-src') ?? csp.get('default-src')).toBe("'self'");
    expect(csp.get('object-src')).toBe("'none'");
  });

  it("when a PDF named in Arabic is fetched there, then it is shown under its own name (filename* in UTF-8, RFC 5987), not the stored key, so a viewer titles and saves it so", async () => {
    const t = await team();
    const name = 'دليل المعرض — "نسخة" 2.pdf';
    const [doc] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(), name }]);
    const res = await t.ws.as(t.contributor).get(doc.url);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`inline; filename="${latin1(name).replaceAll('"', '\\"')}"; filename*=UTF-8''${encodeURIComponent(name)}`);
    const part = await t.ws.as(t.contributor).get(doc.url).set('Range', 'bytes=0-4');
    expect(part.status).toBe(206);
    expect(part.headers['content-disposition']).toMatch(/^inline; /);
  });

  it('when an Office document is fetched there, then it is never shown inline: attachment', async () => {
    const t = await team();
    const [doc] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: docx(), name: 'b.docx' }]);
    expect((await t.ws.as(t.contributor).get(doc.url)).headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('when signed in by the cookie, as an <img> tag is, then 200; with nothing, then 401', async () => {
    const t = await team();
    const [picture] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: await image('png'), name: 'a.png' }]);
    const { cookie } = await t.ws.signIn(t.contributor.email);
    expect((await request(t.ws.app).get(picture.thumbnailUrl!).set('Cookie', cookie)).status).toBe(200);
    expect((await request(t.ws.app).get(picture.thumbnailUrl!)).status).toBe(401);
    expect((await request(t.ws.app).get(picture.url).set('Authorization', 'Bearer nonsense')).status).toBe(401);
  });

  it("when a member of another brand asks for a file, then 404 exactly like a missing one", async () => {
    const t = await team();
    const [picture] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: await image('png'), name: 'a.png' }]);
    const outsider = await t.ws.user('manager', { brandIds: [t.other.id] });
    const hidden = await t.ws.as(outsider).get(picture.url);
    const missing = await t.ws.as(outsider).get('/api/uploads/0123456789abcdef0123456789abcdef.png');
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
    expect((await t.ws.as(outsider).get(picture.thumbnailUrl!)).status).toBe(404);
  });

  it('when asked with HEAD, then the headers without a body; with a byte range, then 206 with that range', async () => {
    const t = await team();
    const data = pdf(5000);
    const [doc] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data, name: 'a.pdf' }]);
    const head = await request(t.ws.app).head(doc.url).set('Authorization', `Bearer ${t.contributor.token}`);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('5000');
    expect(head.headers['content-type']).toBe('application/pdf');
    const part = await t.ws.as(t.contributor).get(doc.url).set('Range', 'bytes=0-4').parse(bytes);
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 0-4/5000');
    expect((part.body as Buffer).toString()).toBe('%PDF-');
    const outside = await t.ws.as(t.contributor).get(doc.url).set('Range', 'bytes=9000-9999');
    expect(outside.status).toBe(416);
  });

  it.each(['bytes=5-2', 'bytes=0-1,9-3', 'bytes = 40-39'])('when the Range header holds a range that ends before it starts (%s), then it is ignored and the whole file comes with 200', async (range) => {
    const t = await team();
    const data = pdf(3000);
    const [doc] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data, name: 'a.pdf' }]);
    for (const url of [doc.url, `/api/assets/${doc.id}/download`]) {
      const res = await t.ws.as(t.contributor).get(url).set('Range', range).parse(bytes);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-range'], url).toBeUndefined();
      expect(res.headers['content-length'], url).toBe('3000');
      expect((res.body as Buffer).equals(data), url).toBe(true);
    }
  });

  it('when the range starts past the end, or asks for no bytes at the end, then it stays 416; one that runs past the end is cut to the file', async () => {
    const t = await team();
    const [doc] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: pdf(3000), name: 'a.pdf' }]);
    for (const range of ['bytes=3000-3001', 'bytes=5000-', 'bytes=-0']) {
      expect((await t.ws.as(t.contributor).get(doc.url).set('Range', range)).status, range).toBe(416);
    }
    const tail = await t.ws.as(t.contributor).get(doc.url).set('Range', 'bytes=2990-9999').parse(bytes);
    expect(tail.status).toBe(206);
    expect(tail.headers['content-range']).toBe('bytes 2990-2999/3000');
  });

  it('when the range is outside an image, then 416 is JSON with the file size in Content-Range, and no attachment', async () => {
    const t = await team();
    const [picture] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: await image('png'), name: 'a.png' }]);
    for (const url of [picture.url, `/api/assets/${picture.id}/download`]) {
      const res = await t.ws.as(t.contributor).get(url).set('Range', 'bytes=99999999-');
      expect(res.status, url).toBe(416);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.headers['content-disposition'], url).toBeUndefined();
      expect(res.headers['content-range'], url).toBe(`bytes */${String(picture.size)}`);
      expect(res.body, url).toEqual({ error: expect.any(String), code: 'RANGE_NOT_SATISFIABLE' });
    }
  });

  it.each(['PUT', 'DELETE', 'POST', 'PATCH'])('when the method is %s, then 405 with Allow: GET, HEAD, and the file stays', async (method) => {
    const t = await team();
    const [picture] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: await image('png'), name: 'a.png' }]);
    for (const path of [picture.url, '/api/uploads/', '/api/uploads']) {
      const res = await request(t.ws.app)[method.toLowerCase() as 'put'](path).set('Authorization', `Bearer ${t.admin.token}`);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
    expect(filesUnder(t.ws.config.uploadDir)).toHaveLength(2);
  });

  describe('when the path tries to leave the upload folder or list it, then 404', () => {
    let server: http.Server | undefined;
    afterEach(() => server?.close());

    /** Sends the path exactly as written, with nothing normalising it on the way. */
    function rawGet(path: string, token: string): Promise<number> {
      const { port } = server!.address() as AddressInfo;
      return new Promise((resolve, reject) => {
        const req = http.request({ port, host: '127.0.0.1', path, headers: { Authorization: `Bearer ${token}` } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    }

    it('for every escape attempt', async () => {
      const t = await team();
      const [picture] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [{ data: await image('png'), name: 'a.png' }]);
      const key = picture.url.split('/').pop()!;
      server = http.createServer(t.ws.app).listen(0, '127.0.0.1');
      await new Promise((r) => server!.once('listening', r));
      const attempts = [
        '/api/uploads/',
        '/api/uploads',
        '/api/uploads/.',
        '/api/uploads/..',
        '/api/uploads/.partial',
        '/api/uploads/../../../../etc/passwd',
        '/api/uploads/..%2f..%2f..%2fetc%2fpasswd',
        '/api/uploads/..%2F..%2Fpackage.json',
        '/api/uploads/..%5c..%5cpackage.json',
        '/api/uploads/%2e%2e/%2e%2e/package.json',
        '/api/uploads//etc/passwd',
        '/api/uploads/%2fetc%2fpasswd',
        '/api/uploads/C:%5cWindows%5cwin.ini',
        `/api/uploads/${key}%00.txt`,
        `/api/uploads/${key}%2f`,
        `/api/uploads/x/../${key}`,
        `/api/uploads/./${key}`,
        `/api/uploads/${key.toUpperCase()}`,
        `/api/uploads/%${key}`,
      ];
      for (const path of attempts) expect([path, await rawGet(path, t.admin.token)]).toEqual([path, 404]);
      expect(await rawGet(`/api/uploads/${key}`, t.admin.token)).toBe(200);
    });
  });
});

describe('posts with attachments', () => {
  it("when a post names another brand's asset, then 400 UNKNOWN_ATTACHMENT; its own brand's, then the first image gives the thumbnail", async () => {
    const t = await team();
    const [theirs] = await uploaded(t.ws, t.admin, { brandId: t.other.id }, [{ data: await image('png'), name: 'a.png' }]);
    const [doc, picture] = await uploaded(t.ws, t.contributor, { brandId: t.brand.id }, [
      { data: pdf(), name: 'a.pdf' },
      { data: await image('webp'), name: 'b.webp' },
    ]);
    const refused = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.brand.id, attachments: [doc.id, theirs.id] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'UNKNOWN_ATTACHMENT', details: { assetIds: [theirs.id] } });
    const res = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.brand.id, attachments: [doc.id, picture.id] });
    expect(res.status).toBe(201);
    expect(res.body.post).toMatchObject({ attachments: [doc.id, picture.id], thumbnailUrl: picture.thumbnailUrl });
    const onlyDoc = await t.ws.as(t.contributor).patch(`/api/posts/${res.body.post.id}`).send({ attachments: [doc.id] });
    expect(onlyDoc.body.post.thumbnailUrl).toBeNull();
    const listed = (await t.ws.as(t.contributor).get('/api/posts')).body.posts;
    expect(listed[0]).toMatchObject({ id: res.body.post.id, thumbnailUrl: null });
  });

  it('when a post is moved to another brand while it holds attachments, then 400 UNKNOWN_ATTACHMENT', async () => {
    const t = await team();
    const [doc] = await uploaded(t.ws, t.admin, { brandId: t.brand.id }, [{ data: pdf(), name: 'a.pdf' }]);
    const post = (await t.ws.as(t.admin).post('/api/posts').send({ title: 'X', brandId: t.brand.id, attachments: [doc.id] })).body.post;
    const res = await t.ws.as(t.admin).patch(`/api/posts/${post.id}`).send({ brandId: t.other.id });
    expect(res.body.code).toBe('UNKNOWN_ATTACHMENT');
  });

  it('when the campaign of a post with attachments is deleted, then the post goes and the assets stay, without campaign or post', async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', campaignId: t.campaign.id })).body.post;
    const [picture] = await uploaded(t.ws, t.contributor, { postId: post.id }, [{ data: await image('png'), name: 'a.png' }]);
    const res = await t.ws.as(t.manager).delete(`/api/campaigns/${t.campaign.id}`);
    expect(res.body).toEqual({ ok: true, deleted: { posts: 1, tracks: 0 } });
    expect((await t.ws.as(t.contributor).get(`/api/assets/${picture.id}`)).body.asset).toMatchObject({ campaignId: null, postId: null, brandId: t.brand.id });
  });
});

describe('assets schema', () => {
  itOnSqlite('when the schema is read, then post_attachments.asset_id is a foreign key to assets(id)', async () => {
    const t = await team();
    const keys = t.ws.workspaceDb.prepare('PRAGMA foreign_key_list(post_attachments)').all() as { table: string; from: string; to: string }[];
    expect(keys).toContainEqual(expect.objectContaining({ table: 'assets', from: 'asset_id', to: 'id' }));
  });
});
