import path from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { createApp, type AppConfig } from '../../src/app';
import { ManualClock } from '../../src/platform/clock';
import { createLogger } from '../../src/platform/logger';
import { buildStores } from '../../src/stores';
import { EVERYTHING } from '../../src/platform/notices';
import { cookieFrom, tempDir, testConfig } from '../support/app';
import { request } from '../support/http';
import { describeRedis, freshRedis } from '../support/redis';
import { instance, MEMBER_PASSWORD, seedMembers } from '../support/instances';

const ADMIN = '999999';

/**
 * Two instances as server.ts builds them, sharing one Redis and one records store (the same
 * SQLite files stand in for the shared database here), each with its own UPLOAD_DIR.
 */
async function twoInstances(redisUrl: string) {
  const dataDir = tempDir();
  const make = async () => {
    const base = testConfig({ DATA_DIR: dataDir, REDIS_URL: redisUrl, UPLOAD_DIR: path.join(tempDir(), 'uploads') });
    const config: AppConfig = Object.freeze({ ...base, jwtSecret: base.jwtSecret!, sessionSecret: base.sessionSecret! });
    const clock = new ManualClock();
    const stores = await buildStores(config, { logger: createLogger('silent'), clock });
    onTestFinished(() => stores.close());
    return { app: createApp({ config, clock, logger: createLogger('silent'), stores }), stores };
  };
  return [await make(), await make()] as const;
}

/** A page's own request: the cookie, and the header that tells the CSRF check it is same-origin. */
function asPage(app: ReturnType<typeof createApp>, method: 'get' | 'post' | 'patch' | 'delete', route: string, cookie: string) {
  return request(app)[method](route).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
}

/** Whether the cookie's session is signed in, as /auth/check tells. */
async function signedIn(app: ReturnType<typeof createApp>, cookie: string): Promise<boolean> {
  const res = await asPage(app, 'get', '/auth/check', cookie);
  return (res.body as { authenticated: boolean }).authenticated;
}

async function signIn(app: ReturnType<typeof createApp>, pin: string) {
  const res = await request(app).post('/auth/login').send({ pin });
  return { res, cookie: `service_session=${cookieFrom(res, 'service_session')}` };
}

describeRedis('REDIS_URL: dashboard sessions and throttles shared by instances', () => {
  it('when a session is made on one instance, then it works on the other, and a sign-out on the other ends it on both', async () => {
    const redis = await freshRedis();
    const [a, b] = await twoInstances(redis.url);
    const { cookie } = await signIn(a.app, ADMIN);
    expect(await signedIn(b.app, cookie)).toBe(true);
    expect((await asPage(b.app, 'post', '/auth/logout', cookie)).status).toBe(200);
    expect(await signedIn(a.app, cookie)).toBe(false);
  });

  it("when an admin changes a user's access on one instance, then that user's live session on the other has it at once, and a deletion ends it", async () => {
    const redis = await freshRedis();
    const [a, b] = await twoInstances(redis.url);
    const admin = await signIn(a.app, ADMIN);
    const created = await asPage(a.app, 'post', '/api/users', admin.cookie).send({ name: 'Analyst', pin: '48151623', role: 'viewer', allowedMuseums: ['Museum A'] });
    expect(created.status).toBe(201);
    const id = (created.body as { user: { id: number } }).user.id;
    const analyst = await signIn(b.app, '48151623');

    await asPage(a.app, 'patch', `/api/users/${id}`, admin.cookie).send({ allowedMuseums: ['Museum B'] });
    const check = await asPage(b.app, 'get', '/auth/check', analyst.cookie);
    // The check answers the lists as JSON text, as the session holds them.
    expect((check.body as { allowedMuseums: string }).allowedMuseums).toBe('["Museum B"]');

    await asPage(a.app, 'delete', `/api/users/${id}`, admin.cookie);
    expect(await signedIn(b.app, analyst.cookie)).toBe(false);
  });

  it('when wrong PINs are sent to both instances, then they count once against one limit', async () => {
    const redis = await freshRedis();
    const [a, b] = await twoInstances(redis.url);
    for (let i = 0; i < 10; i += 1) {
      const res = await request(i % 2 ? a.app : b.app).post('/auth/login').send({ pin: `1000000${i}` });
      expect(res.status).toBe(401);
    }
    const blocked = await request(a.app).post('/auth/login').send({ pin: ADMIN });
    expect(blocked.status).toBe(429);
  });

  it('when an import is running on one instance, then an import on the other is refused with 409 until it ends', async () => {
    const redis = await freshRedis();
    const [a, b] = await twoInstances(redis.url);
    const { cookie } = await signIn(b.app, ADMIN);
    const csv = 'date,museum,channel,district,visitors,revenue\n2020-03-01,Museum Z,Online,Doha,12,100\n';
    const lease = await a.stores.locks.acquire('dashboard:import');
    const refused = await asPage(b.app, 'post', '/api/dashboard/import', cookie).set('Content-Type', 'text/csv').send(csv);
    expect(refused.status).toBe(409);
    expect((refused.body as { code: string }).code).toBe('IMPORT_RUNNING');
    await lease!.release();
    expect((await asPage(b.app, 'post', '/api/dashboard/import', cookie).set('Content-Type', 'text/csv').send(csv)).status).toBe(200);
  });

  it('when the connection to Redis was lost and comes back, then every cache hears that notices may have been missed', async () => {
    const redis = await freshRedis();
    const [a] = await twoInstances(redis.url);
    const heard: string[] = [];
    a.stores.notices.subscribe((notice) => heard.push(notice.topic));
    redis.kill();
    await redis.start();
    await expect.poll(() => heard, { timeout: 10_000, interval: 100 }).toContain(EVERYTHING);
  });

  it('when Redis stops, then /healthz names it and requests needing it answer 503 UNAVAILABLE quickly, and service resumes when it is back', async () => {
    const redis = await freshRedis();
    const [a] = await twoInstances(redis.url);
    const { cookie } = await signIn(a.app, ADMIN);
    redis.kill();

    const health = await request(a.app).get('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ ok: false, failing: ['redis'] });
    const started = Date.now();
    const check = await asPage(a.app, 'get', '/auth/check', cookie);
    expect(check.status).toBe(503);
    expect((check.body as { code: string }).code).toBe('UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(10_000);

    await redis.start();
    await expect.poll(async () => (await request(a.app).get('/healthz')).status, { timeout: 10_000 }).toBe(200);
    // The restarted Redis is empty: the old session is gone, and a new sign-in works.
    expect((await signIn(a.app, ADMIN)).res.status).toBe(200);
  });

  it('when Redis runs with an append-only file and restarts, then both applications\' sessions and the sign-in attempt counts are still there', async () => {
    const redis = await freshRedis({ persistent: true });
    const server = await instance({ REDIS_URL: redis.url });
    const { members: [member] } = await seedMembers(server, ['contributor']);
    const dashboard = (await signIn(server.app, ADMIN)).cookie;
    const workspace = await request(server.app).post('/api/auth/login').send({ email: member.email, password: MEMBER_PASSWORD });
    const workspaceCookie = `workspace_session=${cookieFrom(workspace, 'workspace_session')}`;
    for (let i = 0; i < 10; i += 1) expect((await request(server.app).post('/auth/login').send({ pin: `2000000${i}` })).status).toBe(401);

    await redis.stop();
    await redis.start();
    await expect.poll(async () => (await request(server.app).get('/healthz')).status, { timeout: 10_000, interval: 100 }).toBe(200);
    expect(await signedIn(server.app, dashboard)).toBe(true);
    expect((await asPage(server.app, 'get', '/api/auth/me', workspaceCookie)).status).toBe(200);
    expect((await request(server.app).post('/auth/login').send({ pin: ADMIN })).status).toBe(429);
  });
});
