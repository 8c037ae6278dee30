import { describe, expect, it, onTestFinished } from 'vitest';
import { AirtableUserRecordStore } from '../../../src/dashboard/users/airtable-repository';
import type { UserRecordStore } from '../../../src/dashboard/users/repository';
import { DEVICE_COOKIE, LOGIN_GLOBAL_MAX_FAILURES, LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS } from '../../../src/dashboard/auth/routes';
import { DEVICE_COOKIE_MAX_AGE_MS } from '../../../src/platform/device-cookie';
import { startEmulatorForTest } from '../../support/airtable-emulator';
import { buildApp, setCookieLine, type TestDashboard } from '../../support/app';
import { serve } from '../../support/browser';
import { postFrom, statusCounts, type Answer } from '../../support/net';

const ADMIN = '999999';

const stores: { store: string; build: () => Promise<TestDashboard> }[] = [
  { store: 'SQLite', build: async () => await buildApp() },
  {
    store: 'Airtable',
    build: async () => {
      const emulator = await startEmulatorForTest({ maxPageSize: 100 });
      // Each check waits on the network, as it does with the real Airtable.
      emulator.delayMs = 30;
      return await buildApp({ users: new AirtableUserRecordStore({ ...emulator.clientOptions, requestTimeoutMs: 5_000, deadlineMs: 10_000 }) });
    },
  },
];

async function served(t: TestDashboard) {
  const server = await serve(t.app);
  onTestFinished(server.close);
  const login = (pin: string, opts: { from?: string; cookie?: string } = {}) => postFrom(server.url, '/auth/login', { pin }, opts);
  return { ...t, url: server.url, login };
}

async function addUser(users: UserRecordStore, name: string, pin: string) {
  const user = await users.create({ name, pin, role: 'viewer', allowedMuseums: '[]', allowedChannels: '[]' });
  if (user === 'pin-taken') throw new Error('PIN taken');
  return user;
}

/** `count` loopback addresses, none of them 127.0.0.1 (the address the tests' own sign-ins use). */
function addresses(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `127.0.${Math.floor(i / 200) + 1}.${(i % 200) + 2}`);
}

describe.each(stores)('POST /auth/login under attack, on the $store store', ({ build }) => {
  it(`when 50 wrong PINs arrive at once from one address, then only ${LOGIN_MAX_FAILURES} are judged and the rest get 429`, async () => {
    const s = await served(await build());
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => s.login(String(100000 + i), { from: '127.0.0.9' })));
    expect(statusCounts(answers)).toEqual({ 401: LOGIN_MAX_FAILURES, 429: 50 - LOGIN_MAX_FAILURES });
    expect((await s.login(ADMIN, { from: '127.0.0.9' })).status).toBe(429);
  });

  it('when 30 right PINs arrive at once from one address (an office), then every one signs in', async () => {
    const s = await served(await build());
    await addUser(s.users, 'Colleague', '135792');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => s.login(i % 2 ? ADMIN : '135792', { from: '127.0.0.11' })));
    expect(statusCounts(answers)).toEqual({ 200: 30 });
  });

  it('when 40 PINs arrive at once with the right one among them, then no more than the limit are judged', async () => {
    const s = await served(await build());
    await addUser(s.users, 'Target', '424242');
    const pins = Array.from({ length: 40 }, (_, i) => (i === 24 ? '424242' : String(500000 + i)));
    const answers = await Promise.all(pins.map((pin) => s.login(pin, { from: '127.0.0.10' })));
    const counts = statusCounts(answers);
    expect((counts[401] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(LOGIN_MAX_FAILURES);
    expect(counts[429]).toBeGreaterThanOrEqual(40 - LOGIN_MAX_FAILURES);
  });
});

describe('POST /auth/login against guesses from many addresses', () => {
  it(`when 60 addresses guess 10 PINs each, then only ${LOGIN_GLOBAL_MAX_FAILURES} guesses are judged and a 4-digit PIN is not found`, async () => {
    const s = await served(await buildApp());
    // An older PIN of 4 digits, still valid, that the sweep below reaches in its eighth round.
    await addUser(s.users, 'Short', '0420');
    const from = addresses(60);
    const answers: Answer[][] = await Promise.all(
      from.map(async (address, a) => {
        const mine: Answer[] = [];
        // Round g of the sweep: every address tries its own next PIN, together covering 0000 to 0599.
        for (let g = 0; g < 10; g += 1) mine.push(await s.login(String(g * 60 + a).padStart(4, '0'), { from: address }));
        return mine;
      }),
    );
    const counts = statusCounts(answers.flat());
    expect(counts[200]).toBeUndefined();
    expect(counts[401]).toBe(LOGIN_GLOBAL_MAX_FAILURES);
    expect(counts[429]).toBe(600 - LOGIN_GLOBAL_MAX_FAILURES);
    // A stranger from an address that never failed is refused too, until the window passes.
    const stranger = await s.login('0420', { from: '127.0.9.9' });
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers['retry-after'])).toBeGreaterThan(0);
    s.clock.advance(LOGIN_WINDOW_MS);
    expect((await s.login('0420', { from: '127.0.9.9' })).status).toBe(200);
  });

  it('when the global budget is spent, then browsers that signed in before still sign in', async () => {
    const s = await served(await buildApp());
    await addUser(s.users, 'Analyst', '246813');
    const analyst = await s.login('246813', { from: '127.0.8.1' });
    const admin = await s.login(ADMIN, { from: '127.0.8.2' });
    const analystDevice = analyst.cookies[DEVICE_COOKIE];
    const adminDevice = admin.cookies[DEVICE_COOKIE];
    expect(analystDevice).toBeDefined();
    expect(adminDevice).toBeDefined();

    await Promise.all(
      addresses(LOGIN_GLOBAL_MAX_FAILURES / 10).map(async (address) => {
        for (let g = 0; g < 10; g += 1) await s.login('999000', { from: address });
      }),
    );
    expect((await s.login('246813', { from: '127.0.8.3' })).status).toBe(429);

    expect((await s.login('246813', { from: '127.0.8.3', cookie: analystDevice })).status).toBe(200);
    expect((await s.login(ADMIN, { from: '127.0.8.4', cookie: adminDevice })).status).toBe(200);
  });

  it(`when a known browser gets its PIN wrong ${LOGIN_MAX_FAILURES} times, then it is refused like any other until the window passes`, async () => {
    const s = await served(await buildApp());
    await addUser(s.users, 'Analyst', '246813');
    const device = (await s.login('246813')).cookies[DEVICE_COOKIE];
    // From many addresses, so that only the known device's own count can refuse it.
    const from = addresses(LOGIN_MAX_FAILURES);
    for (const address of from) expect((await s.login('111111', { from: address, cookie: device })).status).toBe(401);
    expect((await s.login('246813', { from: '127.0.7.7', cookie: device })).status).toBe(429);
    // Without that cookie, the stranger's budget still has room.
    expect((await s.login('246813', { from: '127.0.7.8' })).status).toBe(200);
  });

  it('when a device cookie is altered or comes from another server, then it counts as no device cookie', async () => {
    const s = await served(await buildApp());
    const device = (await s.login(ADMIN)).cookies[DEVICE_COOKIE];
    const [name, value] = device.split('=');
    const parts = value.split('.');
    const forged = [`${name}=${['u1', ...parts.slice(1)].join('.')}`, `${name}=${parts.slice(0, 3).join('.')}.${'A'.repeat(43)}`];
    await Promise.all(
      addresses(LOGIN_GLOBAL_MAX_FAILURES / 10).map(async (address) => {
        for (let g = 0; g < 10; g += 1) await s.login('999000', { from: address });
      }),
    );
    for (const cookie of forged) expect((await s.login(ADMIN, { from: '127.0.6.6', cookie })).status).toBe(429);
    expect((await s.login(ADMIN, { from: '127.0.6.6', cookie: device })).status).toBe(200);
  });

  it('when a sign-in succeeds, then the device cookie is httpOnly, SameSite Lax, limited to /auth and kept 180 days', async () => {
    const t = await buildApp();
    const s = await served(t);
    const res = await s.login(ADMIN);
    const line = (res.headers['set-cookie'] ?? []).find((l) => l.startsWith(`${DEVICE_COOKIE}=`))!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Path=\/auth(;|$)/);
    expect(line).toContain(`Max-Age=${DEVICE_COOKIE_MAX_AGE_MS / 1000}`);
    expect(setCookieLine({ headers: res.headers }, 'service_session')).toBeDefined();
  });

  it('when a device cookie is older than 180 days, then it no longer counts', async () => {
    const s = await served(await buildApp());
    const device = (await s.login(ADMIN)).cookies[DEVICE_COOKIE];
    s.clock.advance(DEVICE_COOKIE_MAX_AGE_MS + 1000);
    await Promise.all(
      addresses(LOGIN_GLOBAL_MAX_FAILURES / 10).map(async (address) => {
        for (let g = 0; g < 10; g += 1) await s.login('999000', { from: address });
      }),
    );
    expect((await s.login(ADMIN, { from: '127.0.5.5', cookie: device })).status).toBe(429);
  });
});
