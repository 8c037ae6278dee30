import { describe, expect, it, onTestFinished } from 'vitest';
import { DEVICE_COOKIE, LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from '../../src/workspace/auth/routes';
import { serve } from '../support/browser';
import { postFrom, statusCounts } from '../support/net';
import { buildWorkspace, PASSWORD, type TestWorkspace } from '../support/workspace';

async function served(ws: TestWorkspace) {
  const server = await serve(ws.app);
  onTestFinished(server.close);
  const login = (email: string, password: string, opts: { from?: string; cookie?: string } = {}) =>
    postFrom(server.url, '/api/auth/login', { email, password }, opts);
  return { ...ws, url: server.url, login };
}

function addresses(count: number, subnet = 1): string[] {
  return Array.from({ length: count }, (_, i) => `127.0.${subnet}.${i + 2}`);
}

describe('POST /api/auth/login under attack', () => {
  it(`when 50 wrong passwords for one email arrive at once, then only ${LOGIN_MAX_FAILURES} are judged and the rest get 429`, async () => {
    const s = await served(await buildWorkspace());
    const target = await s.user('superadmin');
    const answers = await Promise.all(addresses(50).map((from, i) => s.login(target.email, `wrong-${i}`, { from })));
    expect(statusCounts(answers)).toEqual({ 401: LOGIN_MAX_FAILURES, 429: 50 - LOGIN_MAX_FAILURES });
  });

  it('when 40 passwords arrive at once with the right one among them, then no more than the limit are judged', async () => {
    const s = await served(await buildWorkspace());
    const target = await s.user('manager');
    const passwords = Array.from({ length: 40 }, (_, i) => (i === 24 ? PASSWORD : `wrong-${i}`));
    const answers = await Promise.all(passwords.map((password, i) => s.login(target.email, password, { from: `127.0.2.${i + 2}` })));
    const counts = statusCounts(answers);
    expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(LOGIN_MAX_FAILURES);
    expect(counts[429]).toBeGreaterThanOrEqual(40 - LOGIN_MAX_FAILURES);
  });

  it('when 30 colleagues sign in at once from one address, then every one gets in', async () => {
    const s = await served(await buildWorkspace());
    const people = await Promise.all(Array.from({ length: 30 }, () => s.user('contributor')));
    const answers = await Promise.all(people.map((p) => s.login(p.email, PASSWORD, { from: '127.0.7.1' })));
    expect(statusCounts(answers)).toEqual({ 200: 30 });
  });

  it('when someone spends an account\'s failures, then its owner still signs in from a browser that signed in before', async () => {
    const s = await served(await buildWorkspace());
    const owner = await s.user('superadmin');
    const device = (await s.login(owner.email, PASSWORD, { from: '127.0.3.1' })).cookies[DEVICE_COOKIE];
    expect(device).toBeDefined();
    await Promise.all(addresses(LOGIN_MAX_FAILURES, 4).map((from) => s.login(owner.email, 'guess', { from })));
    // A new browser is refused: the per-email limit protects the account from strangers...
    expect((await s.login(owner.email, PASSWORD, { from: '127.0.3.2' })).status).toBe(429);
    // ...but does not lock its owner out.
    expect((await s.login(owner.email, PASSWORD, { from: '127.0.3.2', cookie: device })).status).toBe(200);
  });

  it('when a device cookie of another account comes along, then it does not exempt this email from its limit', async () => {
    const s = await served(await buildWorkspace());
    const attacker = await s.user('contributor');
    const target = await s.user('superadmin');
    const device = (await s.login(attacker.email, PASSWORD)).cookies[DEVICE_COOKIE];
    const answers = await Promise.all(addresses(30, 5).map((from) => s.login(target.email, 'guess', { from, cookie: device })));
    expect(statusCounts(answers)).toEqual({ 401: LOGIN_MAX_FAILURES, 429: 30 - LOGIN_MAX_FAILURES });
  });

  it(`when a known browser gets the password wrong ${LOGIN_MAX_FAILURES} times, then that browser is refused until the window passes`, async () => {
    const s = await served(await buildWorkspace());
    const owner = await s.user('manager');
    const device = (await s.login(owner.email, PASSWORD)).cookies[DEVICE_COOKIE];
    const answers = await Promise.all(addresses(20, 6).map((from) => s.login(owner.email, 'typo', { from, cookie: device })));
    expect(statusCounts(answers)).toEqual({ 401: LOGIN_MAX_FAILURES, 429: 20 - LOGIN_MAX_FAILURES });
    expect((await s.login(owner.email, PASSWORD, { from: '127.0.6.99', cookie: device })).status).toBe(429);
    s.clock.advance(LOGIN_WINDOW_MS);
    expect((await s.login(owner.email, PASSWORD, { from: '127.0.6.99', cookie: device })).status).toBe(200);
  });

  it('when a sign-in succeeds, then the device cookie is httpOnly, SameSite Lax and limited to /api/auth', async () => {
    const s = await served(await buildWorkspace());
    const user = await s.user('contributor');
    const res = await s.login(user.email, PASSWORD);
    const line = (res.headers['set-cookie'] ?? []).find((l) => l.startsWith(`${DEVICE_COOKIE}=`))!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Path=\/api\/auth(;|$)/);
  });
});

describe('POST /api/auth/password under attack', () => {
  it(`when 30 wrong current passwords arrive at once, then only ${LOGIN_MAX_FAILURES} are judged`, async () => {
    const s = await served(await buildWorkspace());
    const user = await s.user('contributor');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        postFrom(s.url, '/api/auth/password', { currentPassword: `wrong-${i}`, newPassword: 'A-new-password-1' }, { headers: { Authorization: `Bearer ${user.token}` } }),
      ),
    );
    expect(statusCounts(answers)).toEqual({ 400: LOGIN_MAX_FAILURES, 429: 30 - LOGIN_MAX_FAILURES });
  });
});
