import { expect, it } from 'vitest';
import { RedisUnavailable } from '../../src/platform/redis';
import { cookieFrom } from '../support/app';
import { request } from '../support/http';
import { asPage, bearer, instance, MEMBER_PASSWORD, seedMembers, timed, type Instance } from '../support/instances';
import { describePostgres, migratedDatabase } from '../support/postgres';
import { describeRedis, freshRedis, type RedisServer } from '../support/redis';

const ADMIN_PIN = '999999';
/** How long the tests watch the other instance after a change has been answered. */
const WATCH_MS = 1_500;

/** Two instances on one fresh PostgreSQL database and one Redis. */
async function twoInstances() {
  const redis = await freshRedis();
  const env = { DATABASE_URL: await migratedDatabase(), REDIS_URL: redis.url };
  return { redis, env, a: await instance(env), b: await instance(env) };
}

/** Asks `probe` again and again for `ms` and answers every value it gave. */
async function watch<T>(ms: number, probe: () => Promise<T>): Promise<T[]> {
  const seen: T[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until) seen.push(await probe());
  return seen;
}

async function dashboardSignIn(on: Instance, pin: string) {
  const res = await request(on.app).post('/auth/login').send({ pin });
  expect(res.status).toBe(200);
  return `service_session=${cookieFrom(res, 'service_session')}`;
}

async function workspaceSignIn(on: Instance, email: string) {
  const res = await request(on.app).post('/api/auth/login').send({ email, password: MEMBER_PASSWORD });
  expect(res.status).toBe(200);
  return `workspace_session=${cookieFrom(res, 'workspace_session')}`;
}

type Outage = (redis: RedisServer) => { begin(): void; end(): Promise<void> };
const OUTAGES: [string, Outage][] = [
  ['killed', (redis) => ({ begin: () => redis.kill(), end: () => redis.start() })],
  ['frozen (SIGSTOP)', (redis) => ({ begin: () => redis.freeze(), end: async () => redis.thaw() })],
];

describeRedis('access changes while Redis is out of reach, on two instances sharing PostgreSQL', () => {
  describePostgres('workspace members', () => {
    for (const [name, outage] of OUTAGES) {
      it(`when Redis is ${name} and a superadmin demotes a manager, moves their brands, then deletes them through one instance, then each change answers 200 within 5 s and the other instance never honours what came before`, async () => {
        const { redis, a, b } = await twoInstances();
        const { members: [admin, manager] } = await seedMembers(a, ['superadmin', 'manager']);
        const other = await bearer(a, 'post', '/api/brands', admin.token).send({ name: 'Elsewhere' });
        // The other instance has read the manager, and keeps the record, before anything changes.
        expect((await bearer(b, 'get', '/api/auth/me', manager.token)).body.user.role).toBe('manager');
        const campaign = () => bearer(b, 'post', '/api/campaigns', manager.token).send({ name: 'Only managers', brandId: (other.body as { brand: { id: number } }).brand.id });
        const down = outage(redis);
        down.begin();

        const demoted = await timed(() => bearer(a, 'patch', `/api/members/${manager.id}`, admin.token).send({ role: 'contributor' }));
        expect(demoted.res.status).toBe(200);
        expect(demoted.ms).toBeLessThan(5_000);
        expect(new Set(await watch(WATCH_MS, async () => (await bearer(b, 'get', '/api/auth/me', manager.token)).body.user.role))).toEqual(new Set(['contributor']));

        const moved = await bearer(a, 'patch', `/api/members/${manager.id}`, admin.token).send({ role: 'manager', brandIds: [(other.body as { brand: { id: number } }).brand.id] });
        expect(moved.status).toBe(200);
        expect(new Set(await watch(WATCH_MS, async () => (await campaign()).status))).toEqual(new Set([201]));

        const deleted = await timed(() => bearer(a, 'delete', `/api/members/${manager.id}`, admin.token));
        expect(deleted.res.status).toBe(200);
        expect(deleted.ms).toBeLessThan(5_000);
        expect(new Set(await watch(WATCH_MS, async () => (await campaign()).status))).toEqual(new Set([401]));
        await down.end();
      });
    }

    it('when Redis is frozen and a superadmin resets a member\'s password, then it answers 200 within 5 s, and once Redis goes on the member\'s older cookie session and token are refused on the other instance', async () => {
      const { redis, a, b } = await twoInstances();
      const { members: [admin, member] } = await seedMembers(a, ['superadmin', 'contributor']);
      const cookie = await workspaceSignIn(b, member.email);
      expect((await asPage(b, 'get', '/api/auth/me', cookie)).status).toBe(200);
      redis.freeze();
      const reset = await timed(() => bearer(a, 'patch', `/api/members/${member.id}`, admin.token).send({ password: 'Reset-by-admin-7' }));
      expect(reset.res.status).toBe(200);
      expect(reset.ms).toBeLessThan(5_000);
      redis.thaw();
      await expect.poll(async () => (await request(b.app).get('/healthz')).status, { timeout: 5_000, interval: 100 }).toBe(200);
      // The session was never deleted from Redis (the store could not be told); its password stamp refuses it.
      expect((await asPage(b, 'get', '/api/auth/me', cookie)).status).toBe(401);
      expect((await bearer(b, 'get', '/api/auth/me', member.token)).status).toBe(401);
    });
  });

  describePostgres('dashboard users', () => {
    for (const [name, outage] of OUTAGES) {
      it(`when Redis is ${name}, then an administrator's change to a user is refused with 503 within 5 s and nothing is changed`, async () => {
        const { redis, a } = await twoInstances();
        const admin = await dashboardSignIn(a, ADMIN_PIN);
        const created = await asPage(a, 'post', '/api/users', admin).send({ name: 'Analyst', pin: '48151623', role: 'viewer', allowedMuseums: ['Museum A'] });
        const id = (created.body as { user: { id: number } }).user.id;
        const down = outage(redis);
        down.begin();
        for (const send of [
          () => asPage(a, 'patch', `/api/users/${id}`, admin).send({ allowedMuseums: ['Museum B'] }),
          () => asPage(a, 'post', `/api/users/${id}/pin`, admin).send({}),
          () => asPage(a, 'delete', `/api/users/${id}`, admin),
        ]) {
          const { res, ms } = await timed(send);
          expect(res.status).toBe(503);
          expect((res.body as { code: string }).code).toBe('UNAVAILABLE');
          expect(ms).toBeLessThan(5_000);
        }
        await down.end();
        expect(await a.stores.dashboardUsers.get(id)).toMatchObject({ pin: '48151623', allowedMuseums: '["Museum A"]' });
      });
    }

    it("when one instance cannot tell the shared sessions of a change it committed, then it still answers 200, and by then the user's session on the other instance has the new access, and a new PIN or a deletion ends it", async () => {
      const redis = await freshRedis();
      const env = { DATABASE_URL: await migratedDatabase(), REDIS_URL: redis.url };
      // As a partition between this instance and Redis, arriving after the administrator's session was read.
      const cut = () => Promise.reject(new RedisUnavailable());
      const a = await instance(env, (stores) => {
        const sessions = stores.dashboardSessions;
        return { ...stores, dashboardSessions: Object.assign(Object.create(sessions) as typeof sessions, { updateUser: cut, deleteUser: cut }) };
      });
      const b = await instance(env);
      const admin = await dashboardSignIn(a, ADMIN_PIN);
      const check = async (cookie: string) => (await asPage(b, 'get', '/auth/check', cookie)).body as { authenticated: boolean; allowedMuseums?: string };
      const user = async (pin: string) => {
        const created = await asPage(a, 'post', '/api/users', admin).send({ name: 'Analyst', pin, role: 'viewer', allowedMuseums: ['Museum A'] });
        const cookie = await dashboardSignIn(b, pin);
        expect((await check(cookie)).allowedMuseums).toBe('["Museum A"]');
        return { id: (created.body as { user: { id: number } }).user.id, cookie };
      };

      const changed = await user('27182818');
      expect((await asPage(a, 'patch', `/api/users/${changed.id}`, admin).send({ allowedMuseums: ['Museum B'] })).status).toBe(200);
      expect(new Set(await watch(WATCH_MS, async () => (await check(changed.cookie)).allowedMuseums))).toEqual(new Set(['["Museum B"]']));

      const repinned = await user('31415926');
      expect((await asPage(a, 'post', `/api/users/${repinned.id}/pin`, admin).send({})).status).toBe(200);
      expect((await check(repinned.cookie)).authenticated).toBe(false);

      const removed = await user('16180339');
      expect((await asPage(a, 'delete', `/api/users/${removed.id}`, admin)).status).toBe(200);
      expect((await check(removed.cookie)).authenticated).toBe(false);
    });
  });
});
