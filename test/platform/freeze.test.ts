import { expect, it } from 'vitest';
import { cookieFrom } from '../support/app';
import { bytes, pdf } from '../support/files';
import { request } from '../support/http';
import { asPage, bearer, instance, MEMBER_PASSWORD, seedMembers, timed, type Instance } from '../support/instances';
import { cuttableRelay } from '../support/net';
import { describePostgres, migratedDatabase } from '../support/postgres';
import { describeRedis, freshRedis } from '../support/redis';
import { describeS3, freshBucketEnv, s3Endpoint } from '../support/s3';

const ADMIN_PIN = '999999';
/** No request may wait longer than this on an engine that stopped answering. */
const DEADLINE_MS = 5_000;

interface Call {
  name: string;
  on: Instance;
  send: () => PromiseLike<{ status: number; body: unknown }>;
  /** What it answers while the engine is frozen; 503 UNAVAILABLE unless said. */
  frozen?: number;
  /** What it answers once the engine goes on. */
  after: number;
}

/** Sends every call at once and checks each answered what it should within DEADLINE_MS. */
async function expectAnswers(calls: Call[], phase: 'frozen' | 'after') {
  const answers = await Promise.all(calls.map(async (call) => ({ call, ...(await timed(call.send)) })));
  for (const { call, res, ms } of answers) {
    const expected = phase === 'frozen' ? (call.frozen ?? 503) : call.after;
    expect({ call: call.name, status: res.status }).toEqual({ call: call.name, status: expected });
    expect({ call: call.name, ms: ms < DEADLINE_MS }).toEqual({ call: call.name, ms: true });
    if (phase === 'frozen' && expected === 503 && call.name !== 'healthz') {
      const body = Buffer.isBuffer(res.body) ? (JSON.parse(res.body.toString()) as unknown) : res.body;
      expect({ call: call.name, code: (body as { code?: string }).code }).toEqual({ call: call.name, code: 'UNAVAILABLE' });
    }
  }
}

/** Two instances on one PostgreSQL, one Redis, and one bucket reached through a relay that can freeze. */
async function twoInstances() {
  const redis = await freshRedis();
  const s3 = new URL(s3Endpoint());
  const bucketRelay = await cuttableRelay(s3.hostname, Number(s3.port));
  const env = { DATABASE_URL: await migratedDatabase(), REDIS_URL: redis.url, ...(await freshBucketEnv(`http://127.0.0.1:${bucketRelay.port}`)) };
  const [a, b] = [await instance(env), await instance(env)];
  const { brandId, members: [admin, member] } = await seedMembers(a, ['superadmin', 'contributor']);
  const dashboard = await request(a.app).post('/auth/login').send({ pin: ADMIN_PIN });
  const workspace = await request(b.app).post('/api/auth/login').send({ email: admin.email, password: MEMBER_PASSWORD });
  const cookies = { dashboard: `service_session=${cookieFrom(dashboard, 'service_session')}`, workspace: `workspace_session=${cookieFrom(workspace, 'workspace_session')}` };
  return { redis, bucketRelay, a, b, admin, member, brandId, cookies };
}

function upload(on: Instance, token: string, brandId: number, data: Buffer) {
  return bearer(on, 'post', '/api/assets', token).field('brandId', String(brandId)).attach('files', data, 'frozen.pdf');
}

describeRedis('engines that stop answering, under two instances', { timeout: 60_000 }, () => {
  describePostgres('with PostgreSQL', () => {
    describeS3('and an S3-compatible bucket', () => {
      it('when Redis and then the bucket are frozen, then every request that needs them answers 503 UNAVAILABLE within 5 s, /healthz names them on both instances, and all recovers without a restart once they go on', async () => {
        const { redis, bucketRelay, a, b, admin, member, brandId, cookies } = await twoInstances();
        const stored = pdf(200_000);
        const uploaded = await upload(a, admin.token, brandId, stored);
        expect(uploaded.status).toBe(201);
        const assetId = (uploaded.body as { assets: { id: number }[] }).assets[0].id;

        const health = (on: Instance) => () => request(on.app).get('/healthz');
        const redisCalls: Call[] = [
          { name: 'healthz', on: a, send: health(a), after: 200 },
          { name: 'healthz', on: b, send: health(b), after: 200 },
          { name: 'dashboard sign-in', on: b, send: () => request(b.app).post('/auth/login').send({ pin: ADMIN_PIN }), after: 200 },
          { name: 'dashboard session', on: b, send: () => asPage(b, 'get', '/auth/check', cookies.dashboard), after: 200 },
          { name: 'dashboard filters', on: a, send: () => asPage(a, 'get', '/api/dashboard/filters', cookies.dashboard), after: 200 },
          { name: 'dashboard user change', on: b, send: () => asPage(b, 'post', '/api/users', cookies.dashboard).send({ name: 'Frozen', role: 'viewer' }), after: 201 },
          { name: 'workspace sign-in', on: a, send: () => request(a.app).post('/api/auth/login').send({ email: member.email, password: MEMBER_PASSWORD }), after: 200 },
          { name: 'workspace session', on: a, send: () => asPage(a, 'get', '/api/auth/me', cookies.workspace), after: 200 },
          // By token it needs no Redis: the change is made, and in force on every instance when answered.
          { name: 'member change', on: b, send: () => bearer(b, 'patch', `/api/members/${member.id}`, admin.token).send({ role: 'manager' }), frozen: 200, after: 200 },
        ];
        redis.freeze();
        await expectAnswers(redisCalls, 'frozen');
        expect((await request(a.app).get('/healthz')).body).toEqual({ ok: false, failing: ['redis'] });
        expect((await bearer(a, 'get', '/api/auth/me', member.token)).body).toMatchObject({ user: { role: 'manager' } });
        redis.thaw();
        await expect.poll(async () => (await request(b.app).get('/healthz')).status, { timeout: 5_000, interval: 100 }).toBe(200);
        await expectAnswers(redisCalls, 'after');

        const download = (on: Instance) => () => bearer(on, 'get', `/api/assets/${assetId}/download`, admin.token).buffer(true).parse(bytes);
        const bucketCalls: Call[] = [
          { name: 'healthz', on: a, send: health(a), after: 200 },
          { name: 'upload', on: a, send: () => upload(a, admin.token, brandId, pdf(50_000)), after: 201 },
          { name: 'download', on: b, send: download(b), after: 200 },
        ];
        bucketRelay.freeze();
        await expectAnswers(bucketCalls, 'frozen');
        expect((await request(b.app).get('/healthz')).body).toEqual({ ok: false, failing: ['s3'] });
        bucketRelay.thaw();
        await expect.poll(async () => (await request(a.app).get('/healthz')).status, { timeout: 5_000, interval: 100 }).toBe(200);
        await expect.poll(async () => (await request(b.app).get('/healthz')).status, { timeout: 5_000, interval: 100 }).toBe(200);
        await expectAnswers(bucketCalls, 'after');
        expect(((await download(a)()).body as Buffer).equals(stored)).toBe(true);
      });
    });
  });
});
