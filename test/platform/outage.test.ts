import { expect, it } from 'vitest';
import { cuttableRelay } from '../support/net';
import { describePostgres, migratedDatabase } from '../support/postgres';
import { request } from '../support/http';
import { buildWorkspace } from '../support/workspace';

/** The app on a fresh PostgreSQL database reached through a relay the test can cut. */
async function behindRelay() {
  const url = new URL(await migratedDatabase());
  const relay = await cuttableRelay(url.hostname, Number(url.port));
  url.port = String(relay.port);
  const ws = await buildWorkspace({ engine: 'postgres', env: { DATABASE_URL: url.toString() } });
  return { ws, relay };
}

describePostgres('PostgreSQL out of reach while the server runs', () => {
  it('when the database stops answering, then /healthz is 503 naming it and requests answer 503 UNAVAILABLE within 5 s, and service resumes by itself with nothing acknowledged lost', async () => {
    const { ws, relay } = await behindRelay();
    const brand = await ws.brand('Kept');
    const admin = await ws.user('superadmin', { brandIds: [brand.id] });
    const created = await ws.as(admin).post('/api/campaigns').send({ name: 'Before the outage', brandId: brand.id });
    expect(created.status).toBe(201);
    expect((await request(ws.app).get('/healthz')).status).toBe(200);

    relay.cut();
    const health = await request(ws.app).get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ ok: false, failing: ['database'] });
    for (const [method, path] of [
      ['get', '/api/campaigns'],
      ['post', '/api/campaigns'],
    ] as const) {
      const started = Date.now();
      const res = await ws.as(admin)[method](path).send(method === 'post' ? { name: 'During', brandId: brand.id } : undefined);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'UNAVAILABLE' });
      expect(JSON.stringify(res.body)).not.toMatch(/at .*\.js|ECONN|stack/);
    }

    relay.restore();
    await expect.poll(async () => (await request(ws.app).get('/healthz')).status, { timeout: 10_000, interval: 200 }).toBe(200);
    const listed = await ws.as(admin).get('/api/campaigns');
    expect(listed.status).toBe(200);
    expect(listed.body.campaigns.map((c: { name: string }) => c.name)).toEqual(['Before the outage']);
  });

  it('when the database stops answering but keeps its connections open (a partition), then every request answers 503 UNAVAILABLE within 5 s, /healthz names it, and service resumes by itself', async () => {
    const { ws, relay } = await behindRelay();
    const brand = await ws.brand('Frozen');
    const admin = await ws.user('superadmin', { brandIds: [brand.id] });
    expect((await ws.as(admin).post('/api/campaigns').send({ name: 'Before the freeze', brandId: brand.id })).status).toBe(201);

    relay.freeze();
    const answers = await Promise.all(
      [
        () => ws.as(admin).get('/api/campaigns'),
        () => ws.as(admin).post('/api/campaigns').send({ name: 'During', brandId: brand.id }),
        () => ws.as(admin).patch(`/api/members/${admin.id}`).send({ name: 'Renamed' }),
        () => request(ws.app).get('/healthz'),
      ].map(async (send) => {
        const started = Date.now();
        const res = await send();
        return { status: res.status, body: res.body as Record<string, unknown>, ms: Date.now() - started };
      }),
    );
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeLessThan(5_000);
    }
    expect(answers.slice(0, 3).map((a) => a.body.code)).toEqual(['UNAVAILABLE', 'UNAVAILABLE', 'UNAVAILABLE']);
    expect(answers[3].body).toEqual({ ok: false, failing: ['database'] });
    // Known to be stalled now: the next request does not wait out the deadline again.
    const started = Date.now();
    expect((await ws.as(admin).get('/api/campaigns')).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(1_000);

    relay.thaw();
    await expect.poll(async () => (await ws.as(admin).get('/api/campaigns')).status, { timeout: 10_000, interval: 100 }).toBe(200);
    expect((await request(ws.app).get('/healthz')).status).toBe(200);
    const listed = await ws.as(admin).get('/api/campaigns');
    expect(listed.body.campaigns.map((c: { name: string }) => c.name)).toContain('Before the freeze');
  });
});
