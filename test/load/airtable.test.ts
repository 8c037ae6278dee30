import type { Express } from 'express';
import { request } from '../support/http';
import { describe, expect, it } from 'vitest';
import { AIRTABLE_DEADLINE_MS, AIRTABLE_REQUEST_TIMEOUT_MS, AirtableUserRecordStore } from '../../src/dashboard/users/airtable-repository';
import { refusedUrl, startEmulatorForTest, type AirtableEmulator } from '../support/airtable-emulator';
import { buildApp, cookieFrom } from '../support/app';

const ADMIN_PIN = '999999';
const USER_PIN = '2468';
/** Room for scheduling on a busy machine, on top of the store's own bounds. */
const SLACK_MS = 2_500;
/** What a request that does not wait on Airtable may take. */
const PROMPT_MS = 2_000;

/** The app with the Airtable store as server.ts makes it: the production timeouts. */
async function withAirtable(endpointUrl?: string) {
  const emulator = await startEmulatorForTest({ maxPageSize: 2 });
  emulator.seed('Users', [
    { Id: 1, Name: 'First', PIN: '1111', Role: 'viewer' },
    { Id: 2, Name: 'Second', PIN: '2222', Role: 'viewer' },
    { Id: 3, Name: 'Rana', PIN: USER_PIN, Role: 'viewer', AllowedMuseums: '["National Museum"]' },
  ]);
  const users = new AirtableUserRecordStore({ ...emulator.clientOptions, endpointUrl: endpointUrl ?? emulator.url });
  return { emulator, app: (await buildApp({ users, adminPin: ADMIN_PIN })).app };
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

const login = (app: Express, pin: string) => request(app).post('/auth/login').send({ pin });

/** While Airtable is unwell: the administrator PIN signs in at once and its session works. */
async function expectAdminUnaffected(app: Express) {
  const admin = await timed(login(app, ADMIN_PIN));
  expect(admin.value.status).toBe(200);
  expect(admin.ms).toBeLessThan(PROMPT_MS);
  const check = await timed(request(app).get('/auth/check').set('Cookie', `service_session=${cookieFrom(admin.value, 'service_session')}`));
  expect(check.value.body).toMatchObject({ authenticated: true, name: 'Admin' });
  expect(check.ms).toBeLessThan(PROMPT_MS);
  const health = await timed(request(app).get('/healthz'));
  expect(health.value.status).toBe(200);
  expect(health.ms).toBeLessThan(PROMPT_MS);
}

/** The store makes no more requests once the sign-in has been answered. */
async function expectQuietAfterwards(emulator: AirtableEmulator) {
  const sent = emulator.requests.length;
  await new Promise((resolve) => setTimeout(resolve, SLACK_MS));
  expect(emulator.requests.length).toBe(sent);
}

describe('POST /auth/login while the Airtable store is unwell', { timeout: 30_000 }, () => {
  it(`when Airtable answers in 5 s, then PIN sign-ins (eight at once) are refused with 401 within the ${AIRTABLE_REQUEST_TIMEOUT_MS} ms request bound, while the administrator PIN, sessions and /healthz answer at once`, async () => {
    const { emulator, app } = await withAirtable();
    emulator.delayMs = 5_000;
    const slow = Array.from({ length: 8 }, () => timed(login(app, USER_PIN)));
    await expectAdminUnaffected(app);
    for (const { value, ms } of await Promise.all(slow)) {
      expect(value.status).toBe(401);
      expect(value.body).toEqual({ error: expect.any(String) });
      expect(ms).toBeGreaterThanOrEqual(AIRTABLE_REQUEST_TIMEOUT_MS - 100);
      expect(ms).toBeLessThan(AIRTABLE_REQUEST_TIMEOUT_MS + SLACK_MS);
    }
  });

  it('when Airtable answers 500, then 401 at once and the administrator PIN still works', async () => {
    const { emulator, app } = await withAirtable();
    emulator.failNext(500);
    const res = await timed(login(app, USER_PIN));
    expect(res.value.status).toBe(401);
    expect(res.ms).toBeLessThan(PROMPT_MS);
    await expectAdminUnaffected(app);
  });

  it('when Airtable answers 429 twice, then the sign-in retries and succeeds well within the deadline', async () => {
    const { emulator, app } = await withAirtable();
    emulator.failNext(429, 2);
    const res = await timed(login(app, USER_PIN));
    expect(res.value.status).toBe(200);
    expect(res.value.body).toMatchObject({ ok: true, name: 'Rana' });
    expect(res.ms).toBeLessThan(AIRTABLE_DEADLINE_MS);
    // Two refused first pages, then the two pages of the table.
    expect(emulator.listRequests()).toHaveLength(4);
  });

  it(`when Airtable keeps answering 429, then 401 within the ${AIRTABLE_DEADLINE_MS} ms deadline, the administrator PIN works meanwhile, and no retry goes on afterwards`, async () => {
    const { emulator, app } = await withAirtable();
    emulator.failNext(429);
    const pending = timed(login(app, USER_PIN));
    await expectAdminUnaffected(app);
    const res = await pending;
    expect(res.value.status).toBe(401);
    expect(res.ms).toBeLessThan(AIRTABLE_DEADLINE_MS + SLACK_MS);
    expect(emulator.listRequests().length).toBeGreaterThan(1);
    await expectQuietAfterwards(emulator);
  });

  it('when Airtable cannot be reached, then 401 at once and the administrator PIN still works', async () => {
    const { app } = await withAirtable(await refusedUrl());
    const res = await timed(login(app, USER_PIN));
    expect(res.value.status).toBe(401);
    expect(res.ms).toBeLessThan(PROMPT_MS);
    await expectAdminUnaffected(app);
  });
});
