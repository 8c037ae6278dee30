import { request } from '../../support/http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { AirtableUserRecordStore } from '../../../src/dashboard/users/airtable-repository';
import type { NewUserRecord, UserRecordStore } from '../../../src/dashboard/users/repository';
import { refusedUrl, startEmulatorForTest } from '../../support/airtable-emulator';
import { buildApp, cookieFrom, type TestDashboard } from '../../support/app';
import { serve } from '../../support/browser';
import { captureLogs } from '../../support/logs';
import type { Logger } from '../../../src/platform/logger';
import { PIN_CONFLICT_LIMIT } from '../../../src/dashboard/users/routes';

const ADMIN = '999999';
type Method = 'get' | 'post' | 'patch' | 'delete';
const EVERY_ROUTE: [Method, string][] = [
  ['get', '/api/users'],
  ['post', '/api/users'],
  ['patch', '/api/users/1'],
  ['post', '/api/users/1/pin'],
  ['delete', '/api/users/1'],
];

/**
 * The app served on a real loopback port, because the CSRF check compares Origin with the
 * Host the client used: `origin` is that own origin (http://127.0.0.1:<port>).
 */
async function served(t: TestDashboard) {
  const server = await serve(t.app);
  onTestFinished(server.close);
  const origin = server.url;

  async function signIn(pin: string): Promise<string> {
    const res = await request(origin).post('/auth/login').send({ pin });
    expect(res.status, `sign-in with ${pin}`).toBe(200);
    return `service_session=${cookieFrom(res, 'service_session')}`;
  }

  return {
    origin,
    users: t.users,
    signIn,
    /** A request from the server's own pages: the session cookie (if any) and the own Origin. */
    call(method: Method, path: string, cookie?: string) {
      const req = request(origin)[method](path).set('Origin', origin);
      return cookie ? req.set('Cookie', cookie) : req;
    },
    /** Everything the session behind a cookie reports. */
    async check(cookie: string) {
      return (await request(origin).get('/auth/check').set('Cookie', cookie)).body;
    },
    async addUser(fields: Partial<NewUserRecord> & { pin: string }) {
      const user = await t.users.create({ name: 'Someone', role: 'viewer', allowedMuseums: '[]', allowedChannels: '[]', ...fields });
      if (user === 'pin-taken') throw new Error(`PIN ${fields.pin} is taken`);
      return user;
    },
  };
}

const stores: { store: string; build: (logger?: Logger) => Promise<TestDashboard> }[] = [
  { store: 'SQLite', build: async (logger) => await buildApp({ logger }) },
  {
    store: 'Airtable',
    build: async (logger) => {
      const emulator = await startEmulatorForTest({ maxPageSize: 2 });
      return await buildApp({ logger, users: new AirtableUserRecordStore({ ...emulator.clientOptions, requestTimeoutMs: 2_000, deadlineMs: 5_000 }) });
    },
  },
];

describe.each(stores)('users API on the $store store', ({ build }) => {
  const setup = async () => served(await build());

  describe('who may call it', () => {
    it.each(EVERY_ROUTE)('when %s %s comes without a session, then 401', async (method, path) => {
      const s = await setup();
      const res = await s.call(method, path).send(method === 'get' || method === 'delete' ? undefined : { name: 'X' });
      expect(res.status).toBe(401);
      expect(typeof res.body.error).toBe('string');
    });

    it.each(EVERY_ROUTE)('when a viewer calls %s %s, then 403 ADMIN_ONLY and nothing changes', async (method, path) => {
      const s = await setup();
      const viewer = await s.addUser({ pin: '4444', name: 'Vera' });
      const cookie = await s.signIn('4444');
      const body = path === '/api/users' ? { name: 'New', pin: '567890', role: 'admin' } : method === 'patch' ? { role: 'admin' } : undefined;
      const res = await s.call(method, path.replace('1', String(viewer.id)), cookie).send(body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: expect.any(String), code: 'ADMIN_ONLY' });
      expect(await s.users.list()).toEqual([viewer]);
    });

    it('when the session has expired, then 401', async () => {
      const t = await build();
      const s = await served(t);
      const admin = await s.signIn(ADMIN);
      t.clock.advance(7 * 24 * 3600 * 1000 + 1);
      expect((await s.call('get', '/api/users', admin)).status).toBe(401);
    });
  });

  describe('GET /api/users', () => {
    it('when users exist, then {users:[{id,name,role,allowedMuseums,allowedChannels}]} with lists parsed and no PIN', async () => {
      const s = await setup();
      const a = await s.addUser({ pin: '31415926', name: 'Lina', role: 'admin', allowedMuseums: '["National Museum","Fort"]', allowedChannels: '[]' });
      const b = await s.addUser({ pin: '27182818', name: 'Omar', role: 'viewer', allowedMuseums: '[]', allowedChannels: '["Online"]' });
      const admin = await s.signIn(ADMIN);
      const res = await s.call('get', '/api/users', admin);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        users: [
          // An administrator sees everything: lists left on an old record are not shown as a restriction.
          { id: a.id, name: 'Lina', role: 'admin', allowedMuseums: [], allowedChannels: [], weakPin: false, email: null },
          { id: b.id, name: 'Omar', role: 'viewer', allowedMuseums: [], allowedChannels: ['Online'], weakPin: false, email: null },
        ],
      });
      expect(res.text).not.toContain('31415926');
      expect(res.text).not.toContain('27182818');
    });

    it('when a stored list cannot be read, then it shows as null; a missing list and role show as [] and viewer', async () => {
      const s = await setup();
      await s.addUser({ pin: '1212', name: 'Broken', allowedMuseums: 'not json', allowedChannels: '{"a":1}' });
      await s.addUser({ pin: '3434', name: 'Bare', role: '', allowedMuseums: undefined, allowedChannels: undefined });
      const admin = await s.signIn(ADMIN);
      const { users } = (await s.call('get', '/api/users', admin)).body;
      expect(users.map((u: object) => ({ ...u, id: undefined }))).toEqual([
        { id: undefined, name: 'Broken', role: 'viewer', allowedMuseums: null, allowedChannels: null, weakPin: true, email: null },
        { id: undefined, name: 'Bare', role: 'viewer', allowedMuseums: [], allowedChannels: [], weakPin: true, email: null },
      ]);
    });

    it('when there are no users, then an empty list', async () => {
      const s = await setup();
      const res = await s.call('get', '/api/users', await s.signIn(ADMIN));
      expect(res.body).toEqual({ users: [] });
    });
  });

  describe('POST /api/users', () => {
    it('when an admin adds a user, then 201 {user} without the PIN, and that PIN signs in with the given access', async () => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      const res = await s
        .call('post', '/api/users', admin)
        .send({ name: 'Nadia', pin: '80604020', role: 'viewer', allowedMuseums: ['Fort'], allowedChannels: ['Online', 'Walk-in'] });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        user: { id: expect.any(Number), name: 'Nadia', role: 'viewer', allowedMuseums: ['Fort'], allowedChannels: ['Online', 'Walk-in'], weakPin: false, email: null },
      });
      expect(res.text).not.toContain('80604020');
      const login = await request(s.origin).post('/auth/login').send({ pin: '80604020' });
      expect(login.body).toEqual({ ok: true, name: 'Nadia', role: 'viewer', allowedMuseums: '["Fort"]', allowedChannels: '["Online","Walk-in"]' });
      expect((await s.users.get(res.body.user.id))?.pin).toBe('80604020');
    });

    it('when an administrator is added with a museum or channel list, then 400 VALIDATION and nobody is added', async () => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      for (const lists of [{ allowedMuseums: ['Fort'] }, { allowedChannels: ['Online'] }, { allowedMuseums: ['Fort'], allowedChannels: [] }]) {
        const res = await s.call('post', '/api/users', admin).send({ name: 'Boss', pin: '246813', role: 'admin', ...lists });
        expect(res.status, JSON.stringify(lists)).toBe(400);
        expect(res.body.code).toBe('VALIDATION');
      }
      expect(await s.users.list()).toEqual([]);
      const fine = await s.call('post', '/api/users', admin).send({ name: 'Boss', pin: '246813', role: 'admin', allowedMuseums: [], allowedChannels: [] });
      expect(fine.status).toBe(201);
    });

    it('when the lists are left out, then the user has no restriction ([])', async () => {
      const s = await setup();
      const res = await s.call('post', '/api/users', await s.signIn(ADMIN)).send({ name: 'Ali', pin: '135791', role: 'admin' });
      expect(res.status).toBe(201);
      expect(res.body.user).toMatchObject({ name: 'Ali', role: 'admin', allowedMuseums: [], allowedChannels: [] });
    });

    it('when the PIN has 6 or 12 digits, then it is accepted', async () => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      expect((await s.call('post', '/api/users', admin).send({ name: 'Six', pin: '000001', role: 'viewer' })).status).toBe(201);
      expect((await s.call('post', '/api/users', admin).send({ name: 'Twelve', pin: '123456789012', role: 'viewer' })).status).toBe(201);
    });

    it.each([
      ['3 digits', '123'],
      ['4 digits, which older PINs may have but new ones not', '1234'],
      ['5 digits', '12345'],
      ['13 digits', '1234567890123'],
      ['a letter', '12a4'],
      ['a space', ' 123456'],
      ['a sign', '-123456'],
      ['Arabic-Indic digits', '١٢٣٤٥٦'],
      ['an empty string', ''],
      ['a number, not text', 123456],
    ])('when the PIN is %s, then 400 and nothing is stored', async (_label, pin) => {
      const s = await setup();
      const res = await s.call('post', '/api/users', await s.signIn(ADMIN)).send({ name: 'Bad', pin, role: 'viewer' });
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
      expect(await s.users.list()).toEqual([]);
    });

    it.each([
      ['no name', { pin: '123456', role: 'viewer' }],
      ['an empty name', { name: '  ', pin: '123456', role: 'viewer' }],
      ['a name over 200 characters', { name: 'x'.repeat(201), pin: '123456', role: 'viewer' }],
      ['no role', { name: 'A', pin: '123456' }],
      ['an unknown role', { name: 'A', pin: '123456', role: 'superadmin' }],
      ['a list that is JSON text, not an array', { name: 'A', pin: '123456', role: 'viewer', allowedMuseums: '["Fort"]' }],
      ['a list holding a number', { name: 'A', pin: '123456', role: 'viewer', allowedChannels: [1] }],
      ['an unknown field', { name: 'A', pin: '123456', role: 'viewer', isAdmin: true }],
      ['an id of its own choosing', { id: 7, name: 'A', pin: '123456', role: 'viewer' }],
    ])('when the body has %s, then 400', async (_label, body) => {
      const s = await setup();
      const res = await s.call('post', '/api/users', await s.signIn(ADMIN)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
      expect(await s.users.list()).toEqual([]);
    });

    it('when the PIN is already another user\'s, then 409 and no second user', async () => {
      const s = await setup();
      await s.addUser({ pin: '246810', name: 'Holder' });
      const res = await s.call('post', '/api/users', await s.signIn(ADMIN)).send({ name: 'Copycat', pin: '246810', role: 'viewer' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: expect.any(String), code: 'PIN_TAKEN' });
      expect((await s.users.list()).map((u) => u.name)).toEqual(['Holder']);
    });

    it('when no PIN is given, then 201 {user, pin} with an 8-digit PIN made by the server, which signs in and is never shown again', async () => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      const res = await s.call('post', '/api/users', admin).send({ name: 'Made', role: 'viewer' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ user: expect.objectContaining({ name: 'Made', weakPin: false, email: null }), pin: expect.stringMatching(/^\d{8}$/) });
      expect((await request(s.origin).post('/auth/login').send({ pin: res.body.pin })).body.name).toBe('Made');
      expect((await s.call('get', '/api/users', admin)).text).not.toContain(res.body.pin);
    });

    it('when the administrator chose the PIN, then the answer does not repeat it', async () => {
      const s = await setup();
      const res = await s.call('post', '/api/users', await s.signIn(ADMIN)).send({ name: 'Chosen', pin: '918273', role: 'viewer' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['user']);
    });

    it('when two users are added at once with the same PIN, then one gets 201 and the other 409', async () => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      const answers = await Promise.all(
        ['One', 'Two'].map((name) => s.call('post', '/api/users', admin).send({ name, pin: '555777', role: 'viewer' })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      expect(await s.users.list()).toHaveLength(1);
    });

    it('when a user is deleted and another added, then the new one never gets the deleted id', async () => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      await s.addUser({ pin: '111111', name: 'First' });
      const last = await s.addUser({ pin: '222222', name: 'Last' });
      expect((await s.call('delete', `/api/users/${last.id}`, admin)).status).toBe(200);
      const next = await s.call('post', '/api/users', admin).send({ name: 'Next', role: 'viewer' });
      expect(next.body.user.id).toBeGreaterThan(last.id);
    });

    it(`when chosen PINs are found taken ${PIN_CONFLICT_LIMIT} times, then further chosen PINs get 429 PIN_THROTTLED while made ones still work, and each conflict is recorded`, async () => {
      const logs = captureLogs('warn');
      const s = await served(await build(logs.logger));
      const admin = await s.signIn(ADMIN);
      for (let i = 0; i < PIN_CONFLICT_LIMIT; i++) {
        await s.addUser({ pin: String(300000 + i), name: `Holder ${i}` });
        expect((await s.call('post', '/api/users', admin).send({ name: 'Probe', pin: String(300000 + i), role: 'viewer' })).status).toBe(409);
      }
      const blocked = await s.call('post', '/api/users', admin).send({ name: 'Probe', pin: '399999', role: 'viewer' });
      expect(blocked.status).toBe(429);
      expect(blocked.body.code).toBe('PIN_THROTTLED');
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect((await s.call('post', '/api/users', admin).send({ name: 'Made', role: 'viewer' })).status).toBe(201);
      const conflicts = logs.entries().filter((e) => e.event === 'pin-conflict');
      expect(conflicts).toHaveLength(PIN_CONFLICT_LIMIT);
      expect(conflicts[0]).toMatchObject({ by: 'Admin', address: expect.any(String) });
      expect(logs.text()).not.toContain('300000');
    });

    it('when the PIN equals ADMIN_PIN, then 409', async () => {
      const s = await setup();
      const res = await s.call('post', '/api/users', await s.signIn(ADMIN)).send({ name: 'Sneaky', pin: ADMIN, role: 'viewer' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('PIN_TAKEN');
      expect(await s.users.list()).toEqual([]);
    });
  });

  describe('the e-mail address of a user', () => {
    it('when an admin adds a user with an e-mail address, changes it and removes it, then the record and the answers follow', async () => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      const made = await s.call('post', '/api/users', admin).send({ name: 'Huda', pin: '24681357', role: 'viewer', email: 'huda@museum.qa' });
      expect(made.status).toBe(201);
      expect(made.body.user.email).toBe('huda@museum.qa');
      const id = made.body.user.id as number;
      expect((await s.users.get(id))?.email).toBe('huda@museum.qa');
      const changed = await s.call('patch', `/api/users/${id}`, admin).send({ email: 'h.salem@museum.qa' });
      expect(changed.body.user).toMatchObject({ name: 'Huda', email: 'h.salem@museum.qa' });
      const removed = await s.call('patch', `/api/users/${id}`, admin).send({ email: null });
      expect(removed.body.user.email).toBeNull();
      expect((await s.users.get(id))?.email).toBeUndefined();
      expect((await s.call('get', '/api/users', admin)).body.users[0].email).toBeNull();
    });

    it.each(['not an address', 'a@b', `${'x'.repeat(250)}@museum.qa`])('when the e-mail address is %j, then 400 and nothing changes', async (email) => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      expect((await s.call('post', '/api/users', admin).send({ name: 'Huda', pin: '24681357', role: 'viewer', email })).status).toBe(400);
      expect(await s.users.list()).toEqual([]);
    });
  });

  describe('PATCH /api/users/:id', () => {
    it('when an admin changes the access lists, then 200 {user} and the record keeps them as JSON text', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '1122', name: 'Rana' });
      const res = await s.call('patch', `/api/users/${user.id}`, await s.signIn(ADMIN)).send({ allowedMuseums: ['Fort', 'Fort', 'Palace'], allowedChannels: [] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: { id: user.id, name: 'Rana', role: 'viewer', allowedMuseums: ['Fort', 'Palace'], allowedChannels: [], weakPin: true, email: null } });
      expect(await s.users.get(user.id)).toEqual({ ...user, allowedMuseums: '["Fort","Palace"]', allowedChannels: '[]' });
    });

    it('when only the name or the role is sent, then only that changes', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '1122', name: 'Rana', allowedMuseums: '["Fort"]' });
      const admin = await s.signIn(ADMIN);
      expect((await s.call('patch', `/api/users/${user.id}`, admin).send({ name: 'Rana K.' })).body.user).toMatchObject({ name: 'Rana K.', role: 'viewer', allowedMuseums: ['Fort'] });
      expect((await s.call('patch', `/api/users/${user.id}`, admin).send({ role: 'viewer' })).body.user).toMatchObject({ name: 'Rana K.', role: 'viewer', allowedMuseums: ['Fort'] });
      expect((await s.users.get(user.id))?.pin).toBe('1122');
    });

    it('when a viewer with access lists is made an administrator without clearing them, then 400 VALIDATION naming the lists, and nothing changes', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '1122', name: 'Rana', allowedMuseums: '["Fort"]', allowedChannels: '["Online"]' });
      const admin = await s.signIn(ADMIN);
      const res = await s.call('patch', `/api/users/${user.id}`, admin).send({ role: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
      expect(res.body.details.issues.map((i: { path: string }) => i.path)).toEqual(['allowedMuseums', 'allowedChannels']);
      expect(await s.users.get(user.id)).toEqual(user);
      const half = await s.call('patch', `/api/users/${user.id}`, admin).send({ role: 'admin', allowedMuseums: [] });
      expect(half.body.details.issues.map((i: { path: string }) => i.path)).toEqual(['allowedChannels']);
      const cleared = await s.call('patch', `/api/users/${user.id}`, admin).send({ role: 'admin', allowedMuseums: [], allowedChannels: [] });
      expect(cleared.status).toBe(200);
      expect(cleared.body.user).toMatchObject({ role: 'admin', allowedMuseums: [], allowedChannels: [] });
    });

    it('when an administrator is given an access list, then 400 VALIDATION; their name still changes on an old record that holds lists', async () => {
      const s = await setup();
      const chief = await s.addUser({ pin: '3344', name: 'Chief', role: 'admin' });
      const admin = await s.signIn(ADMIN);
      const res = await s.call('patch', `/api/users/${chief.id}`, admin).send({ allowedMuseums: ['Fort'] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
      expect(await s.users.get(chief.id)).toEqual(chief);
      const old = await s.addUser({ pin: '5566', name: 'Old', role: 'admin', allowedMuseums: '["Fort"]' });
      const renamed = await s.call('patch', `/api/users/${old.id}`, admin).send({ name: 'Old chief' });
      expect(renamed.status).toBe(200);
      expect(renamed.body.user).toMatchObject({ name: 'Old chief', role: 'admin', allowedMuseums: [], allowedChannels: [] });
    });

    it('when the user is signed in, then an access and role change reaches their live session at once', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '5566', name: 'Live', allowedMuseums: '["Fort"]', allowedChannels: '["Online"]' });
      const other = await s.addUser({ pin: '7788', name: 'Other', allowedMuseums: '["Fort"]' });
      const session = await s.signIn('5566');
      const otherSession = await s.signIn('7788');
      const admin = await s.signIn(ADMIN);
      const res = await s.call('patch', `/api/users/${user.id}`, admin).send({ allowedMuseums: ['Palace'], allowedChannels: [] });
      expect(res.status).toBe(200);
      expect(await s.check(session)).toEqual({ authenticated: true, name: 'Live', role: 'viewer', allowedMuseums: '["Palace"]', allowedChannels: '[]' });
      expect((await s.call('get', '/api/users', session)).status).toBe(403);
      expect((await s.call('patch', `/api/users/${user.id}`, admin).send({ allowedMuseums: [], role: 'admin' })).status).toBe(200);
      expect(await s.check(session)).toEqual({ authenticated: true, name: 'Live', role: 'admin', allowedMuseums: '[]', allowedChannels: '[]' });
      expect(await s.check(otherSession)).toMatchObject({ name: 'Other', allowedMuseums: '["Fort"]' });
      expect((await s.call('get', '/api/users', session)).status).toBe(200);
      expect(other.id).not.toBe(user.id);
    });

    it.each([
      ['an empty body', {}],
      ['a PIN', { pin: '9876' }],
      ['an unknown field', { museums: ['Fort'] }],
      ['an unknown role', { role: 'owner' }],
      ['a list that is not an array', { allowedChannels: 'Online' }],
    ])('when the body has %s, then 400 and the record is unchanged', async (_label, body) => {
      const s = await setup();
      const user = await s.addUser({ pin: '1122', name: 'Rana' });
      const res = await s.call('patch', `/api/users/${user.id}`, await s.signIn(ADMIN)).send(body);
      expect(res.status).toBe(400);
      expect(await s.users.get(user.id)).toEqual(user);
    });

    it('when the id is unknown, then 404 USER_NOT_FOUND', async () => {
      const s = await setup();
      const res = await s.call('patch', '/api/users/4242', await s.signIn(ADMIN)).send({ role: 'admin' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String), code: 'USER_NOT_FOUND' });
    });

    it.each(['abc', '0', '-1', '1.5', '1e3', '99999999999999999'])('when the id is %s (not a record id), then 400', async (id) => {
      const s = await setup();
      const res = await s.call('patch', `/api/users/${id}`, await s.signIn(ADMIN)).send({ role: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION');
    });
  });

  describe('POST /api/users/:id/pin', () => {
    it('when an admin asks for a new PIN, then {user, pin}: the new PIN signs in, the old one not, and the user\'s sessions end', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '1122', name: 'Weak' });
      const session = await s.signIn('1122');
      const admin = await s.signIn(ADMIN);
      expect((await s.call('get', '/api/users', admin)).body.users[0].weakPin).toBe(true);
      const res = await s.call('post', `/api/users/${user.id}/pin`, admin).send({});
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ user: expect.objectContaining({ id: user.id, weakPin: false, email: null }), pin: expect.stringMatching(/^\d{8}$/) });
      expect((await s.check(session)).authenticated).toBe(false);
      expect((await request(s.origin).post('/auth/login').send({ pin: '1122' })).status).toBe(401);
      expect((await request(s.origin).post('/auth/login').send({ pin: res.body.pin })).body.name).toBe('Weak');
    });

    it('when the admin gives the PIN, then it is used and not repeated in the answer', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '1122', name: 'Rana' });
      const res = await s.call('post', `/api/users/${user.id}/pin`, await s.signIn(ADMIN)).send({ pin: '864209' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['user']);
      expect((await s.users.get(user.id))?.pin).toBe('864209');
    });

    it('when an admin resets PINs, chosen and generated, then each reset is in the audit trail by name and how it was made, and no PIN is in the trail or its CSV', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '1122', name: 'Hala' });
      const admin = await s.signIn(ADMIN);
      await s.call('post', `/api/users/${user.id}/pin`, admin).send({ pin: '86420975' });
      const made = (await s.call('post', `/api/users/${user.id}/pin`, admin).send({})).body.pin as string;
      const trail = await s.call('get', '/api/audit?action=pinReset', admin);
      expect(trail.body.events).toEqual([
        expect.objectContaining({ actor: 'Admin', action: 'pinReset', target: `user:${user.id}`, targetName: 'Hala', after: { pinMadeBy: 'generated' } }),
        expect.objectContaining({ actor: 'Admin', action: 'pinReset', target: `user:${user.id}`, targetName: 'Hala', after: { pinMadeBy: 'chosen' } }),
      ]);
      const csv = (await s.call('get', '/api/audit/export.csv', admin)).text;
      expect(csv).toContain(',pinReset,');
      for (const pin of ['1122', '86420975', made]) {
        expect(trail.text).not.toContain(pin);
        expect(csv).not.toContain(pin);
      }
    });

    it.each([
      ['a short PIN', { pin: '1234' }],
      ['an unknown field', { name: 'x' }],
    ])('when the body has %s, then 400 and the PIN is unchanged', async (_label, body) => {
      const s = await setup();
      const user = await s.addUser({ pin: '1122', name: 'Rana' });
      expect((await s.call('post', `/api/users/${user.id}/pin`, await s.signIn(ADMIN)).send(body)).status).toBe(400);
      expect((await s.users.get(user.id))?.pin).toBe('1122');
    });

    it('when the given PIN is another user\'s or the id is unknown, then 409 or 404', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '1122', name: 'Rana' });
      await s.addUser({ pin: '778899', name: 'Other' });
      const admin = await s.signIn(ADMIN);
      expect((await s.call('post', `/api/users/${user.id}/pin`, admin).send({ pin: '778899' })).body.code).toBe('PIN_TAKEN');
      expect((await s.call('post', `/api/users/${user.id}/pin`, admin).send({ pin: ADMIN })).status).toBe(409);
      expect((await s.call('post', '/api/users/4242/pin', admin).send({})).status).toBe(404);
      expect((await s.users.get(user.id))?.pin).toBe('1122');
    });
  });

  describe('DELETE /api/users/:id', () => {
    it('when an admin deletes a user, then {ok:true}, the record is gone and that PIN no longer signs in', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '9090', name: 'Gone' });
      const keep = await s.addUser({ pin: '8080', name: 'Kept' });
      const res = await s.call('delete', `/api/users/${user.id}`, await s.signIn(ADMIN));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect(await s.users.list()).toEqual([keep]);
      expect((await request(s.origin).post('/auth/login').send({ pin: '9090' })).status).toBe(401);
    });

    it('when the user is signed in, then all their sessions end and others stay', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '9090', name: 'Gone' });
      await s.addUser({ pin: '8080', name: 'Kept' });
      const phone = await s.signIn('9090');
      const laptop = await s.signIn('9090');
      const kept = await s.signIn('8080');
      expect((await s.call('delete', `/api/users/${user.id}`, await s.signIn(ADMIN))).status).toBe(200);
      expect((await s.check(phone)).authenticated).toBe(false);
      expect((await s.check(laptop)).authenticated).toBe(false);
      expect(await s.check(kept)).toMatchObject({ authenticated: true, name: 'Kept' });
    });

    it('when the id is unknown or already deleted, then 404', async () => {
      const s = await setup();
      const user = await s.addUser({ pin: '9090' });
      const admin = await s.signIn(ADMIN);
      expect((await s.call('delete', '/api/users/4242', admin)).status).toBe(404);
      expect((await s.call('delete', `/api/users/${user.id}`, admin)).status).toBe(200);
      expect((await s.call('delete', `/api/users/${user.id}`, admin)).status).toBe(404);
    });

    it('when the id is not numeric, then 400', async () => {
      const s = await setup();
      expect((await s.call('delete', '/api/users/abc', await s.signIn(ADMIN))).status).toBe(400);
    });
  });

  describe('cross-site requests (CSRF)', () => {
    const evil = 'http://evil.example';

    it.each([
      ['post', '/api/users', { name: 'Mallory', pin: '666666', role: 'admin' }],
      ['patch', '/api/users/:id', { role: 'admin' }],
      ['post', '/api/users/:id/pin', {}],
      ['delete', '/api/users/:id', undefined],
    ] as [Method, string, object | undefined][])(
      'when %s %s carries the admin cookie from another origin, then 403 CSRF and nothing changes',
      async (method, path, body) => {
        const s = await setup();
        const user = await s.addUser({ pin: '4321', name: 'Target' });
        const admin = await s.signIn(ADMIN);
        const res = await s.call(method, path.replace(':id', String(user.id)), admin).set('Origin', evil).send(body);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ error: expect.any(String), code: 'CSRF' });
        expect(await s.users.list()).toEqual([user]);
      },
    );

    it.each([
      ['no Origin and no Referer', {}],
      ['Origin null', { Origin: 'null' }],
      ['the own host on another port', { Origin: 'http://127.0.0.1:1' }],
      ['a Referer from another site', { Referer: 'http://evil.example/page' }],
      ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ])('when a cookie-authenticated write has %s, then 403 CSRF', async (_label, headers) => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      const res = await request(s.origin).post('/api/users').set('Cookie', admin).set(headers).send({ name: 'Mallory', pin: '666666', role: 'admin' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('CSRF');
      expect(await s.users.list()).toEqual([]);
    });

    it.each([
      ['the own Origin', (origin: string) => ({ Origin: origin })],
      ['Sec-Fetch-Site same-origin', () => ({ 'Sec-Fetch-Site': 'same-origin' })],
      ['a Referer from the own origin', (origin: string) => ({ Referer: `${origin}/dashboard/settings` })],
    ])('when the write has %s, then it goes through', async (_label, headers) => {
      const s = await setup();
      const admin = await s.signIn(ADMIN);
      const res = await request(s.origin).post('/api/users').set('Cookie', admin).set(headers(s.origin)).send({ name: 'Friend', pin: '666666', role: 'viewer' });
      expect(res.status).toBe(201);
      expect(await s.users.list()).toHaveLength(1);
    });

    it('when a read comes from another origin, then it is answered (reads change nothing)', async () => {
      const s = await setup();
      const res = await request(s.origin).get('/api/users').set('Cookie', await s.signIn(ADMIN)).set('Origin', evil);
      expect(res.status).toBe(200);
    });
  });
});

describe('users API while Airtable cannot be reached', () => {
  it('when the admin lists or adds users, then 503 STORE_UNAVAILABLE with a request id and no internals', async () => {
    const endpointUrl = await refusedUrl();
    const users: UserRecordStore = new AirtableUserRecordStore({ apiKey: 'patSECRET', baseId: 'appX', endpointUrl, requestTimeoutMs: 1_000, deadlineMs: 2_000 });
    const s = await served(await buildApp({ users }));
    const admin = await s.signIn(ADMIN);
    for (const res of [
      await s.call('get', '/api/users', admin),
      await s.call('post', '/api/users', admin).send({ name: 'A', pin: '123456', role: 'viewer' }),
    ]) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: expect.any(String), code: 'STORE_UNAVAILABLE', details: { requestId: expect.any(String) } });
      expect(res.text).not.toContain(endpointUrl);
      expect(res.text).not.toContain('patSECRET');
    }
  });
});
