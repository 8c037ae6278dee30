import { request } from '../../support/http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AirtableUserRecordStore, type AirtableOptions } from '../../../src/dashboard/users/airtable-repository';
import { MemoryIdMarks, StoreUnavailable } from '../../../src/dashboard/users/repository';
import { startEmulatorForTest, refusedUrl, type AirtableEmulator, type Fields } from '../../support/airtable-emulator';
import { buildApp } from '../../support/app';
import { captureLogs } from '../../support/logs';

const ADMIN = '999999';

function storeFor(emulator: AirtableEmulator, overrides: Partial<AirtableOptions> = {}) {
  return new AirtableUserRecordStore({ ...emulator.clientOptions, requestTimeoutMs: 1_000, deadlineMs: 3_000, ...overrides });
}

function person(id: number, pin: string, extra: Fields = {}): Fields {
  return { Id: id, Name: `User ${id}`, PIN: pin, Role: 'viewer', ...extra };
}

/** `count` records with Ids 1..count and PINs 1001.. */
function people(count: number): Fields[] {
  return Array.from({ length: count }, (_, i) => person(i + 1, String(1001 + i)));
}

async function expectUnavailable(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StoreUnavailable);
  return err as StoreUnavailable;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('AirtableUserRecordStore list', () => {
  it('when the table spans several pages, then every page is read with the key and all records come back in order', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 3 });
    emulator.seed('Users', people(8));
    const users = await storeFor(emulator).list();
    expect(users.map((u) => u.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const pages = emulator.listRequests();
    expect(pages).toHaveLength(3);
    expect(pages.every((r) => r.authorization === `Bearer ${emulator.apiKey}`)).toBe(true);
    expect(pages[0].query.get('offset')).toBeNull();
    expect(pages[1].query.get('offset')).toMatch(/^itr/);
    expect(pages[2].query.get('offset')).toMatch(/^itr/);
  });

  it('when a record has every field, then it maps to a plain user record', async () => {
    const emulator = await startEmulatorForTest();
    emulator.seed('Users', [person(4, '0042', { Name: 'Lina', Role: 'admin', AllowedMuseums: '["A"]', AllowedChannels: '[]' })]);
    expect(await storeFor(emulator).list()).toEqual([
      { id: 4, name: 'Lina', pin: '0042', role: 'admin', allowedMuseums: '["A"]', allowedChannels: '[]' },
    ]);
  });

  it('when a record leaves Role and the lists empty, then they read as empty role and undefined lists', async () => {
    const emulator = await startEmulatorForTest();
    emulator.seed('Users', [{ Id: 1, Name: 'Omar', PIN: '5555', Role: '', AllowedMuseums: '' }]);
    expect(await storeFor(emulator).list()).toEqual([
      { id: 1, name: 'Omar', pin: '5555', role: '', allowedMuseums: undefined, allowedChannels: undefined },
    ]);
  });

  it('when a record has no numeric Id, then it is left out because the users API could not address it', async () => {
    const emulator = await startEmulatorForTest();
    emulator.seed('Users', [{ Name: 'No id', PIN: '1111' }, person(2, '2222')]);
    expect((await storeFor(emulator).list()).map((u) => u.id)).toEqual([2]);
  });

  it('when the table is empty, then an empty list after one request', async () => {
    const emulator = await startEmulatorForTest();
    expect(await storeFor(emulator).list()).toEqual([]);
    expect(emulator.listRequests()).toHaveLength(1);
  });
});

describe('AirtableUserRecordStore get, create, update, delete', () => {
  it('when a user is read by Id, then the record on a later page is found; an unknown Id is undefined', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    emulator.seed('Users', people(5));
    const store = storeFor(emulator);
    expect((await store.get(5))?.pin).toBe('1005');
    expect(await store.get(99)).toBeUndefined();
  });

  it('when a user is created, then it gets the next Id and Airtable receives its fields with typecast', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    emulator.seed('Users', [person(3, '3333'), person(7, '7777'), person(5, '5555')]);
    const created = await storeFor(emulator).create({ name: 'Nadia', pin: '2468', role: 'viewer', allowedMuseums: '["A"]', allowedChannels: '[]' });
    expect(created).toEqual({ id: 8, name: 'Nadia', pin: '2468', role: 'viewer', allowedMuseums: '["A"]', allowedChannels: '[]' });
    const post = emulator.requests.find((r) => r.method === 'POST')!;
    expect(post.path).toBe('/Users');
    expect(post.body).toEqual({
      fields: { Id: 8, Name: 'Nadia', PIN: '2468', Role: 'viewer', AllowedMuseums: '["A"]', AllowedChannels: '[]' },
      typecast: true,
    });
    expect(emulator.records('Users').at(-1)!.fields.Name).toBe('Nadia');
  });

  it('when the user with the highest Id is deleted and another created, then the new one gets a higher Id, across restarts', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    emulator.seed('Users', people(2));
    const ids = new MemoryIdMarks();
    const created = await storeFor(emulator, { ids }).create({ name: 'Top', pin: '909090', role: 'viewer', allowedMuseums: '[]', allowedChannels: '[]' });
    expect(created).toMatchObject({ id: 3 });
    expect(await storeFor(emulator, { ids }).delete(3)).toBe(true);
    // A new store (another process) that shares the kept mark.
    const next = await storeFor(emulator, { ids }).create({ name: 'Next', pin: '808080', role: 'viewer', allowedMuseums: '[]', allowedChannels: '[]' });
    expect(next).toMatchObject({ id: 4 });
  });

  it('when several users are created at once, then each gets its own Id', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    emulator.delayMs = 10;
    const store = storeFor(emulator);
    const created = await Promise.all(
      [1, 2, 3, 4].map((n) => store.create({ name: `N${n}`, pin: `70000${n}`, role: 'viewer', allowedMuseums: '[]', allowedChannels: '[]' })),
    );
    expect(new Set(created.map((u) => (u === 'pin-taken' ? 0 : u.id))).size).toBe(4);
    expect(emulator.records('Users').map((r) => r.fields.Id)).toEqual([1, 2, 3, 4]);
  });

  it('when another writer takes the same Id meanwhile, then the store withdraws its record and takes a new Id', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    emulator.seed('Users', people(1));
    const marks = new MemoryIdMarks();
    let raced = false;
    // The other writer lands its record between this store's read of the table and its write.
    const ids = {
      claim: async (name: string, atLeast: number) => {
        const id = await marks.claim(name, atLeast);
        if (!raced) {
          raced = true;
          emulator.seed('Users', [person(id, '121212', { Name: 'Elsewhere' })]);
        }
        return id;
      },
    };
    const created = await storeFor(emulator, { ids }).create({ name: 'Mine', pin: '343434', role: 'viewer', allowedMuseums: '[]', allowedChannels: '[]' });
    expect(created).toMatchObject({ id: 3, name: 'Mine' });
    expect(emulator.records('Users').map((r) => [r.fields.Id, r.fields.Name])).toEqual([
      [1, 'User 1'],
      [2, 'Elsewhere'],
      [3, 'Mine'],
    ]);
  });

  it('when the PIN is already a record\'s, then pin-taken and nothing is written', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    emulator.seed('Users', people(3));
    expect(await storeFor(emulator).create({ name: 'Copy', pin: '1002', role: 'viewer', allowedMuseums: '[]', allowedChannels: '[]' })).toBe('pin-taken');
    expect(await storeFor(emulator).update(1, { pin: '1003' })).toBe('pin-taken');
    expect(emulator.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('when a user is updated, then only the changed fields are sent to that record', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    const [, , target] = emulator.seed('Users', people(4));
    const updated = await storeFor(emulator).update(3, { allowedMuseums: '["B"]', role: 'admin' });
    expect(updated).toMatchObject({ id: 3, pin: '1003', role: 'admin', allowedMuseums: '["B"]' });
    const patch = emulator.requests.find((r) => r.method === 'PATCH')!;
    expect(patch.path).toBe(`/Users/${target.id}`);
    expect(patch.body).toEqual({ fields: { Role: 'admin', AllowedMuseums: '["B"]' }, typecast: true });
    expect(target.fields).toMatchObject({ Name: 'User 3', PIN: '1003', Role: 'admin', AllowedMuseums: '["B"]' });
  });

  it('when an unknown Id is updated, then undefined and nothing is written', async () => {
    const emulator = await startEmulatorForTest();
    emulator.seed('Users', people(2));
    expect(await storeFor(emulator).update(42, { name: 'X' })).toBeUndefined();
    expect(emulator.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('when a user is deleted, then its record is gone; an unknown Id is false and sends no delete', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    const [, second] = emulator.seed('Users', people(3));
    const store = storeFor(emulator);
    expect(await store.delete(2)).toBe(true);
    expect(emulator.requests.find((r) => r.method === 'DELETE')!.path).toBe(`/Users/${second.id}`);
    expect(emulator.records('Users').map((r) => r.fields.Id)).toEqual([1, 3]);
    expect(await store.delete(2)).toBe(false);
    expect(emulator.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  });
});

describe('AirtableUserRecordStore failures all raise StoreUnavailable', () => {
  it('when the Users table does not exist, then StoreUnavailable for reads and writes', async () => {
    const emulator = await startEmulatorForTest();
    emulator.dropTable('Users');
    const store = storeFor(emulator);
    const err = await expectUnavailable(store.list());
    expect(err.detail).toMatch(/404/);
    expect(err.status).toBe(503);
    await expectUnavailable(store.create({ name: 'A', pin: '1234', role: 'viewer', allowedMuseums: '[]', allowedChannels: '[]' }));
  });

  it('when the API key is wrong, then StoreUnavailable whose detail does not carry the key', async () => {
    const emulator = await startEmulatorForTest();
    const err = await expectUnavailable(storeFor(emulator, { apiKey: 'patWRONGKEY123' }).list());
    expect(err.detail).toMatch(/401/);
    expect(err.detail).not.toContain('patWRONGKEY123');
    expect(emulator.requests[0].authorization).toBe('Bearer patWRONGKEY123');
  });

  it('when the connection is refused, then StoreUnavailable', async () => {
    const store = new AirtableUserRecordStore({ apiKey: 'patX', baseId: 'appX', endpointUrl: await refusedUrl(), requestTimeoutMs: 1_000, deadlineMs: 3_000 });
    await expectUnavailable(store.list());
  });

  it('when Airtable answers 500, then StoreUnavailable', async () => {
    const emulator = await startEmulatorForTest();
    emulator.failNext(500);
    const err = await expectUnavailable(storeFor(emulator).list());
    expect(err.detail).toMatch(/500/);
  });

  it('when Airtable fails on a later page, then StoreUnavailable rather than a partial list', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    emulator.seed('Users', people(5));
    emulator.failNext(500, 1, 1);
    await expectUnavailable(storeFor(emulator).list());
    expect(emulator.listRequests()).toHaveLength(2);
  });

  it('when Airtable answers slower than the request timeout, then StoreUnavailable within that bound', async () => {
    const emulator = await startEmulatorForTest();
    emulator.delayMs = 5_000;
    const started = Date.now();
    await expectUnavailable(storeFor(emulator, { requestTimeoutMs: 200 }).list());
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('when Airtable answers 429 twice, then the client retries and the list succeeds', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.001);
    const emulator = await startEmulatorForTest();
    emulator.seed('Users', people(2));
    emulator.failNext(429, 2);
    expect(await storeFor(emulator).list()).toHaveLength(2);
    expect(emulator.listRequests()).toHaveLength(3);
  });

  it('when Airtable keeps answering 429, then StoreUnavailable once the deadline passes', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.001);
    const emulator = await startEmulatorForTest();
    emulator.failNext(429);
    const started = Date.now();
    const err = await expectUnavailable(storeFor(emulator, { deadlineMs: 300 }).list());
    expect(err.detail).toMatch(/within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('POST /auth/login with the Airtable store', () => {
  it('when the first record with the pin is on a later page, then it wins and every page was read', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 3 });
    emulator.seed('Users', [
      ...people(5),
      person(6, '8642', { Name: 'Rami', AllowedMuseums: '["National Museum"]', AllowedChannels: '["Online"]' }),
      person(7, '8642', { Name: 'Second with same pin', Role: 'admin' }),
    ]);
    const { app } = await buildApp({ users: storeFor(emulator) });
    const res = await request(app).post('/auth/login').send({ pin: '8642' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, name: 'Rami', role: 'viewer', allowedMuseums: '["National Museum"]', allowedChannels: '["Online"]' });
    expect(emulator.listRequests()).toHaveLength(3);
  });

  it('when a record is added in Airtable, then the next login finds it because nothing is cached', async () => {
    const emulator = await startEmulatorForTest();
    const { app } = await buildApp({ users: storeFor(emulator) });
    expect((await request(app).post('/auth/login').send({ pin: '7531' })).status).toBe(401);
    emulator.seed('Users', [person(1, '7531', { Name: 'Late' })]);
    const res = await request(app).post('/auth/login').send({ pin: '7531' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Late');
  });

  it('when the store cannot be reached, then 401 and the failure is logged without the pin', async () => {
    const logs = captureLogs();
    const users = new AirtableUserRecordStore({ apiKey: 'patSECRET', baseId: 'appX', endpointUrl: await refusedUrl(), requestTimeoutMs: 1_000, deadlineMs: 3_000 });
    const { app } = await buildApp({ users, logger: logs.logger });
    const res = await request(app).post('/auth/login').send({ pin: '13572468' });
    expect(res.status).toBe(401);
    expect(typeof res.body.error).toBe('string');
    const failure = logs.entries().find((e) => e.msg === 'user records store unreachable during PIN login');
    expect(failure).toMatchObject({ level: 50, store: 'airtable' });
    expect(logs.text()).not.toContain('13572468');
    expect(logs.text()).not.toContain('patSECRET');
  });

  it('when Airtable answers 500, then 401 rather than 500', async () => {
    const emulator = await startEmulatorForTest();
    emulator.failNext(500);
    const { app } = await buildApp({ users: storeFor(emulator) });
    expect((await request(app).post('/auth/login').send({ pin: '1234' })).status).toBe(401);
  });

  it('when Airtable is down, then ADMIN_PIN still signs in', async () => {
    const users = new AirtableUserRecordStore({ apiKey: 'patX', baseId: 'appX', endpointUrl: await refusedUrl(), requestTimeoutMs: 1_000, deadlineMs: 3_000 });
    const { app } = await buildApp({ users });
    const res = await request(app).post('/auth/login').send({ pin: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Admin');
  });

  it('when the pin holds formula metacharacters, then it is a plain non-match and never reaches Airtable', async () => {
    const emulator = await startEmulatorForTest({ maxPageSize: 2 });
    emulator.seed('Users', people(3));
    const { app } = await buildApp({ users: storeFor(emulator) });
    const pins = [`1001' OR TRUE() OR '`, `1001" & "`, `}{PIN}=1001`, `=OR(1,1)`, `1001&{PIN}!=''`, `"'}=&`];
    for (const pin of pins) {
      const res = await request(app).post('/auth/login').send({ pin });
      expect(res.status, pin).toBe(401);
    }
    expect(emulator.requests.length).toBe(pins.length * 2);
    for (const r of emulator.requests) {
      expect(r.method).toBe('GET');
      expect(r.query.has('filterByFormula')).toBe(false);
      expect(JSON.stringify(r.body ?? null)).not.toContain('filterByFormula');
      const sent = `${r.path}?${r.query.toString()} ${JSON.stringify(r.body ?? null)}`;
      for (const pin of pins) expect(sent).not.toContain(pin);
    }
  });
});
