import { expect, it } from 'vitest';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { request } from '../support/http';
import { bytes, image, pdf } from '../support/files';
import { cuttableRelay } from '../support/net';
import { describeS3, freshBucketEnv, s3Endpoint } from '../support/s3';
import { buildWorkspace, type TestUser, type TestWorkspace } from '../support/workspace';

/** The workspace with its uploads in a fresh bucket, reached through a relay the test can cut. */
async function onBucket() {
  const endpoint = new URL(s3Endpoint());
  const relay = await cuttableRelay(endpoint.hostname, Number(endpoint.port));
  const env = await freshBucketEnv(`http://127.0.0.1:${relay.port}`);
  const ws = await buildWorkspace({ env });
  const brand = await ws.brand('Shared');
  const admin = await ws.user('superadmin', { brandIds: [brand.id] });
  const objects = async () => {
    const client = new S3Client({ region: 'us-east-1', endpoint: s3Endpoint(), forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: env.S3_BUCKET }));
    client.destroy();
    return (listed.Contents ?? []).map((o) => o.Key!).sort();
  };
  return { ws, brand, admin, relay, objects };
}

function upload(ws: TestWorkspace, by: TestUser, brandId: number, files: { data: Buffer; name: string }[]) {
  let req = request(ws.app).post('/api/assets').set('Authorization', `Bearer ${by.token}`).field('brandId', String(brandId));
  for (const f of files) req = req.attach('files', f.data, f.name);
  return req;
}

describeS3('uploads in an S3-compatible bucket (S3_BUCKET)', () => {
  it('when a picture and a PDF are uploaded, then they and the thumbnail are objects of the bucket, served with ranges and deleted with their thumbnail', async () => {
    const { ws, brand, admin, objects } = await onBucket();
    const [picture, document] = [await image('png'), pdf(50_000)];
    const res = await upload(ws, admin, brand.id, [
      { data: picture, name: 'poster.png' },
      { data: document, name: 'brief.pdf' },
    ]);
    expect(res.status).toBe(201);
    const [png, doc] = res.body.assets as { id: number; url: string; thumbnailUrl: string | null; downloadUrl: string }[];
    expect(await objects()).toHaveLength(3);

    const whole = await ws.as(admin).get(doc.downloadUrl).buffer(true).parse(bytes);
    expect(whole.status).toBe(200);
    expect(Buffer.compare(whole.body as Buffer, document)).toBe(0);
    const part = await ws.as(admin).get(doc.url).set('Range', 'bytes=100-199').buffer(true).parse(bytes);
    expect(part.status).toBe(206);
    expect(Buffer.compare(part.body as Buffer, document.subarray(100, 200))).toBe(0);
    expect((await ws.as(admin).get(doc.url).set('Range', 'bytes=999999-')).status).toBe(416);
    expect((await ws.as(admin).get(png.thumbnailUrl!)).headers['content-type']).toBe('image/webp');

    expect((await ws.as(admin).delete(`/api/assets/${png.id}`)).status).toBe(200);
    expect(await objects()).toHaveLength(1);
  });

  it('when an upload is refused, then neither an object nor a record is left', async () => {
    const { ws, brand, admin, objects } = await onBucket();
    const res = await upload(ws, admin, brand.id, [
      { data: pdf(), name: 'fine.pdf' },
      { data: Buffer.from('MZ not a document'), name: 'tool.exe' },
    ]);
    expect(res.status).toBe(415);
    expect(await objects()).toEqual([]);
    expect((await ws.as(admin).get('/api/assets')).body.assets).toEqual([]);
  });

  it('when the bucket stops answering, then /healthz names s3, uploads and downloads answer 503 UNAVAILABLE within 10 s, and service resumes by itself', async () => {
    const { ws, brand, admin, relay } = await onBucket();
    const before = await upload(ws, admin, brand.id, [{ data: pdf(), name: 'kept.pdf' }]);
    const kept = (before.body.assets as { downloadUrl: string }[])[0];
    relay.cut();

    const health = await request(ws.app).get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ ok: false, failing: ['s3'] });
    for (const attempt of [() => upload(ws, admin, brand.id, [{ data: pdf(), name: 'during.pdf' }]), () => ws.as(admin).get(kept.downloadUrl)]) {
      const started = Date.now();
      const res = await attempt();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'UNAVAILABLE' });
    }

    relay.restore();
    await expect.poll(async () => (await request(ws.app).get('/healthz')).status, { timeout: 10_000, interval: 200 }).toBe(200);
    expect((await ws.as(admin).get(kept.downloadUrl)).status).toBe(200);
    expect((await ws.as(admin).get('/api/assets')).body.assets).toHaveLength(1);
  });
});
