import { request } from '../../support/http';
import { describe, expect, it } from 'vitest';
import { KyselyAuditRepository } from '../../../src/dashboard/audit/repository';
import { AuditTrail } from '../../../src/dashboard/audit/service';
import { DashboardAuthService, SESSION_MAX_AGE_MS } from '../../../src/dashboard/auth/service';
import { SqlAccessStamps, type UserRecord, type UserRecordStore } from '../../../src/dashboard/users/repository';
import { AccessStamps } from '../../../src/dashboard/users/access-stamps';
import { createLogger } from '../../../src/platform/logger';
import { buildApp, cookieFrom, setCookieLine } from '../../support/app';

const ADMIN = '999999';

async function signIn(app: Parameters<typeof request>[0], pin: string) {
  const res = await request(app).post('/auth/login').send({ pin });
  return { res, cookie: `service_session=${cookieFrom(res, 'service_session')}` };
}

describe('POST /auth/login', () => {
  it('when pin is missing, then 400 with an error string', async () => {
    const { app } = await buildApp();
    const res = await request(app).post('/auth/login').send({});
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
    expect(setCookieLine(res, 'service_session')).toBeUndefined();
  });

  it('when pin is empty, then 400', async () => {
    const { app } = await buildApp();
    const res = await request(app).post('/auth/login').send({ pin: '' });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it('when the body is malformed JSON, then 400 and not 500', async () => {
    const { app } = await buildApp();
    const res = await request(app).post('/auth/login').set('Content-Type', 'application/json').send('{"pin":');
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it('when there is no body at all, then 400', async () => {
    const { app } = await buildApp();
    const res = await request(app).post('/auth/login');
    expect(res.status).toBe(400);
  });

  it('when the pin is not a string, then 400', async () => {
    const { app } = await buildApp();
    const res = await request(app).post('/auth/login').send({ pin: 999999 });
    expect(res.status).toBe(400);
  });

  it('when the pin equals ADMIN_PIN, then an admin session with unrestricted lists and the cookie', async () => {
    const { app } = await buildApp();
    const res = await request(app).post('/auth/login').send({ pin: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, name: 'Admin', role: 'admin', allowedMuseums: '[]', allowedChannels: '[]' });
    const line = setCookieLine(res, 'service_session')!;
    expect(line).toMatch(/^service_session=[0-9a-f]{64};/);
    expect(line).toMatch(/Max-Age=604800/);
    expect(line).toMatch(/Path=\//);
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).not.toMatch(/Secure/);
  });

  it('when COOKIE_SECURE is true, then the cookie is Secure', async () => {
    const { app } = await buildApp({ env: { COOKIE_SECURE: 'true' } });
    const res = await request(app).post('/auth/login').send({ pin: ADMIN });
    expect(setCookieLine(res, 'service_session')).toMatch(/; Secure/);
  });

  it('when the pin matches a user record, then the session carries its name, role and lists', async () => {
    const { app, users } = await buildApp();
    await users.create({ name: 'Lina', pin: '4321', role: 'viewer', allowedMuseums: '["National Museum"]', allowedChannels: '["Online"]' });
    const res = await request(app).post('/auth/login').send({ pin: '4321' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, name: 'Lina', role: 'viewer', allowedMuseums: '["National Museum"]', allowedChannels: '["Online"]' });
  });

  it('when the record has no role and no lists, then viewer and [] for both', async () => {
    const { app, users } = await buildApp();
    await users.create({ name: 'Omar', pin: '5555', role: '', allowedMuseums: undefined, allowedChannels: undefined });
    const res = await request(app).post('/auth/login').send({ pin: '5555' });
    expect(res.body).toEqual({ ok: true, name: 'Omar', role: 'viewer', allowedMuseums: '[]', allowedChannels: '[]' });
  });

  it('when two records share a pin (a table edited by hand), then the first one is used', async () => {
    const records: UserRecord[] = [
      { id: 1, name: 'First', pin: '7777', role: 'viewer', allowedMuseums: undefined, allowedChannels: undefined },
      { id: 2, name: 'Second', pin: '7777', role: 'admin', allowedMuseums: undefined, allowedChannels: undefined },
    ];
    const { app } = await buildApp({ users: { kind: 'airtable', list: async () => records } as unknown as UserRecordStore });
    const res = await request(app).post('/auth/login').send({ pin: '7777' });
    expect(res.body.name).toBe('First');
  });

  it('when the pin matches nothing, then 401 with an error string and no cookie', async () => {
    const { app } = await buildApp();
    const res = await request(app).post('/auth/login').send({ pin: '0000' });
    expect(res.status).toBe(401);
    expect(typeof res.body.error).toBe('string');
    expect(setCookieLine(res, 'service_session')).toBeUndefined();
  });

  it('when ADMIN_PIN is not configured, then an empty admin pin never matches', async () => {
    const { app } = await buildApp({ adminPin: null });
    const res = await request(app).post('/auth/login').send({ pin: ADMIN });
    expect(res.status).toBe(401);
  });

  it('when the same pin signs in twice, then each login gets a new session id', async () => {
    const { app } = await buildApp();
    const a = await signIn(app, ADMIN);
    const b = await signIn(app, ADMIN);
    expect(a.cookie).not.toBe(b.cookie);
  });

  it('when a signed-in client signs in again, then its old session id stops working', async () => {
    const { app } = await buildApp();
    const first = await signIn(app, ADMIN);
    const second = await request(app).post('/auth/login').set('Cookie', first.cookie).send({ pin: ADMIN });
    expect(second.status).toBe(200);
    const check = await request(app).get('/auth/check').set('Cookie', first.cookie);
    expect(check.body.authenticated).toBe(false);
  });
});

describe('POST /auth/login throttling', () => {
  it('when 10 wrong pins came from one address, then the next attempt gets 429 with Retry-After, even with the right pin', async () => {
    const { app } = await buildApp();
    for (let i = 0; i < 10; i++) {
      expect((await request(app).post('/auth/login').send({ pin: '1111' })).status).toBe(401);
    }
    const blocked = await request(app).post('/auth/login').send({ pin: ADMIN });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(typeof blocked.body.error).toBe('string');
  });

  it('when bad requests (400) and successes come in between, then they do not count', async () => {
    const { app } = await buildApp();
    for (let i = 0; i < 9; i++) await request(app).post('/auth/login').send({ pin: '1111' });
    for (let i = 0; i < 5; i++) expect((await request(app).post('/auth/login').send({ pin: '' })).status).toBe(400);
    expect((await request(app).post('/auth/login').send({ pin: ADMIN })).status).toBe(200);
    expect((await request(app).post('/auth/login').send({ pin: '1111' })).status).toBe(401);
    expect((await request(app).post('/auth/login').send({ pin: ADMIN })).status).toBe(429);
  });

  it('when the 15-minute window has passed, then the address may try again', async () => {
    const { app, clock } = await buildApp();
    for (let i = 0; i < 10; i++) await request(app).post('/auth/login').send({ pin: '1111' });
    expect((await request(app).post('/auth/login').send({ pin: ADMIN })).status).toBe(429);
    clock.advance(15 * 60 * 1000 + 1);
    expect((await request(app).post('/auth/login').send({ pin: ADMIN })).status).toBe(200);
  });
});

describe('GET /auth/check', () => {
  it('when there is no cookie, then authenticated false with null name and role and [] lists', async () => {
    const { app } = await buildApp();
    const res = await request(app).get('/auth/check');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ authenticated: false, name: null, role: null, allowedMuseums: '[]', allowedChannels: '[]' });
  });

  it('when the cookie names an unknown session, then authenticated false', async () => {
    const { app } = await buildApp();
    const res = await request(app).get('/auth/check').set('Cookie', `service_session=${'a'.repeat(64)}`);
    expect(res.body).toEqual({ authenticated: false, name: null, role: null, allowedMuseums: '[]', allowedChannels: '[]' });
  });

  it('when the session is live, then its data is returned', async () => {
    const { app, users } = await buildApp();
    await users.create({ name: 'Lina', pin: '4321', role: 'viewer', allowedMuseums: '["A"]', allowedChannels: '[]' });
    const { cookie } = await signIn(app, '4321');
    const res = await request(app).get('/auth/check').set('Cookie', cookie);
    expect(res.body).toEqual({ authenticated: true, name: 'Lina', role: 'viewer', allowedMuseums: '["A"]', allowedChannels: '[]' });
  });

  it('when the session is exactly 7 days old, then it is still active', async () => {
    const { app, clock } = await buildApp();
    const { cookie } = await signIn(app, ADMIN);
    clock.advance(SESSION_MAX_AGE_MS);
    const res = await request(app).get('/auth/check').set('Cookie', cookie);
    expect(res.body.authenticated).toBe(true);
  });

  it('when the session is older than 7 days, then it is removed and reported as none', async () => {
    const { app, clock, sessions } = await buildApp();
    const { cookie } = await signIn(app, ADMIN);
    expect(await sessions.size()).toBe(1);
    clock.advance(SESSION_MAX_AGE_MS + 1);
    const res = await request(app).get('/auth/check').set('Cookie', cookie);
    expect(res.body).toEqual({ authenticated: false, name: null, role: null, allowedMuseums: '[]', allowedChannels: '[]' });
    expect(await sessions.size()).toBe(0);
    clock.advance(-SESSION_MAX_AGE_MS);
    expect((await request(app).get('/auth/check').set('Cookie', cookie)).body.authenticated).toBe(false);
  });
});

describe('POST /auth/logout', () => {
  it('when the cookie is present, then the session is removed and the cookie cleared', async () => {
    const { app, sessions } = await buildApp();
    const { cookie } = await signIn(app, ADMIN);
    const res = await request(app).post('/auth/logout').set('Cookie', cookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const line = setCookieLine(res, 'service_session')!;
    expect(line).toMatch(/^service_session=;/);
    expect(line).toMatch(/Path=\//);
    expect(line).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(await sessions.size()).toBe(0);
    expect((await request(app).get('/auth/check').set('Cookie', cookie)).body.authenticated).toBe(false);
  });

  it('when no cookie is sent, then the same 200 {ok:true}', async () => {
    const { app } = await buildApp();
    const res = await request(app).post('/auth/logout');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(setCookieLine(res, 'service_session')).toMatch(/^service_session=;/);
  });
});

describe('session sweeping', () => {
  it('when sessions have expired, then a sweep removes them without any lookup', async () => {
    const { sessions, clock, users, stores } = await buildApp();
    const stamps = new AccessStamps(new SqlAccessStamps(stores.records.dashboard));
    const logger = createLogger('silent');
    const trail = new AuditTrail({ audit: new KyselyAuditRepository(stores.records.dashboard), clock, logger });
    const auth = new DashboardAuthService({ sessions, clock, logger, adminPin: ADMIN, users, stamps, trail });
    for (let i = 0; i < 5; i++) await auth.login(ADMIN);
    clock.advance(SESSION_MAX_AGE_MS / 2);
    await auth.login(ADMIN);
    clock.advance(SESSION_MAX_AGE_MS / 2 + 1);
    expect(await auth.sweep()).toBe(5);
    expect(await sessions.size()).toBe(1);
  });
});
