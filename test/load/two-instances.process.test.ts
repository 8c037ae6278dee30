import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { todayIn } from '../../src/dashboard/dates';
import { demoSeasons } from '../../src/dashboard/visits/demo';
import { tempDir } from '../support/app';
import { pdf } from '../support/files';
import { describePostgres, freshDatabase, migratedDatabase } from '../support/postgres';
import { freshRedis } from '../support/redis';
import { freshBucketEnv } from '../support/s3';
import { useServerProcesses, type ServerProcess } from '../support/workspace';

const ADMIN_PIN = '48151623';
const ADMIN = { email: 'admin@two.test', password: 'First-start-2026' };
const PASSWORD = 'Both-instances-1';
/** Changes made on one instance must be in force on the other within this long. */
const WITHIN_MS = 1_000;

const start = useServerProcesses();
/** Two servers that migrate and fill a fresh database together take their time on a busy machine. */
const START_MS = 60_000;

/** A browser of its own: one cookie jar, sending what the pages send. */
class Browser {
  private readonly cookies = new Map<string, string>();

  /** The Cookie header this browser sends. */
  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call(server: ServerProcess, method: string, route: string, body?: object | string | FormData, type?: string, extra: Record<string, string> = {}) {
    const headers: Record<string, string> = { 'Sec-Fetch-Site': 'same-origin', ...extra };
    if (this.cookies.size) headers.Cookie = this.cookieHeader();
    if (type) headers['Content-Type'] = type;
    else if (body && !(body instanceof FormData)) headers['Content-Type'] = 'application/json';
    const res = await fetch(server.url + route, {
      method,
      headers,
      body: body === undefined || typeof body === 'string' || body instanceof FormData ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const text = Buffer.from(await res.arrayBuffer());
    const json = (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(text.toString()) as Record<string, any>) : undefined;
    return { status: res.status, body: json ?? {}, bytes: text };
  }
}

/**
 * Two server processes on one database, one Redis and one bucket, each with its own DATA_DIR
 * and UPLOAD_DIR, started at the same moment; on a database already migrated unless `empty`
 * (only the test of a first start needs them to build the schema together).
 */
async function twoInstances(more: Record<string, string> = {}, { empty = false } = {}) {
  const [database, redis, bucket] = await Promise.all([empty ? freshDatabase() : migratedDatabase(), freshRedis(), freshBucketEnv()]);
  const env = () => {
    const dir = tempDir();
    return {
      DATABASE_URL: database,
      REDIS_URL: redis.url,
      ...bucket,
      DATA_DIR: path.join(dir, 'data'),
      UPLOAD_DIR: path.join(dir, 'uploads'),
      ADMIN_PIN,
      DEFAULT_ADMIN_EMAIL: ADMIN.email,
      DEFAULT_ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: '',
      SESSION_SECRET: '',
      ...more,
    };
  };
  const [a, b] = await Promise.all([start(env(), START_MS), start(env(), START_MS)]);
  return { a, b };
}

/** Signs the workspace's administrator in on `server`, changing the first password the first time. */
async function workspaceAdmin(browser: Browser, server: ServerProcess, password = PASSWORD) {
  let res = await browser.call(server, 'POST', '/api/auth/login', { email: ADMIN.email, password });
  if (res.status === 401) {
    await browser.call(server, 'POST', '/api/auth/login', { email: ADMIN.email, password: ADMIN.password });
    expect((await browser.call(server, 'POST', '/api/auth/password', { currentPassword: ADMIN.password, newPassword: password })).status).toBe(200);
    res = await browser.call(server, 'POST', '/api/auth/login', { email: ADMIN.email, password });
  }
  expect(res.status).toBe(200);
  return res.body;
}

/** Polls `probe` until it returns true; fails if that takes longer than `ms`. */
async function within(ms: number, probe: () => Promise<boolean>) {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > ms) throw new Error(`not in force within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The same line in the output of exactly one of `servers`. */
function saidByOne(servers: ServerProcess[], line: string): boolean {
  return servers.filter((s) => s.output().includes(line)).length === 1;
}

/**
 * An import sent by hand whose body never ends, as a client mid-upload: its header row and
 * first rows go out, the rest never comes. `answered` says whether a response came, which it
 * does only when the import is refused; `stop` drops the connection.
 */
function unfinishedImport(server: ServerProcess, cookie: string) {
  const req = http.request(`${server.url}/api/dashboard/import`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'text/csv', 'Transfer-Encoding': 'chunked' },
  });
  req.on('error', () => undefined);
  let answered = false;
  req.on('response', (res) => {
    answered = true;
    res.resume();
  });
  req.write('date,museum,channel,district,visitors,revenue\n2020-03-01,Museum Z,Online,Doha,12,100\n');
  return { stop: () => req.destroy(), answered: () => answered };
}

describePostgres('two instances on one PostgreSQL, Redis and bucket', () => {
  it('when both start together on an empty database, then the demo data and its seasons, the superadmin and the default brand are made once', async () => {
    const { a, b } = await twoInstances({}, { empty: true });
    expect(saidByOne([a, b], 'empty dashboard store: demo visit data and seasons created')).toBe(true);
    expect(saidByOne([a, b], 'Created the workspace superadmin')).toBe(true);
    const admin = new Browser();
    await admin.call(a, 'POST', '/auth/login', { pin: ADMIN_PIN });
    const seasons = (await admin.call(b, 'GET', '/api/seasons')).body.seasons as { name: string }[];
    expect(seasons.map((s) => s.name).sort()).toEqual(demoSeasons(todayIn('Asia/Qatar', Date.now())).map((s) => s.name).sort());
  });

  describe('dashboard', () => {
    it('when a session is made on one, then it works on the other, and a sign-out on either ends it on both', async () => {
      const { a, b } = await twoInstances();
      const browser = new Browser();
      expect((await browser.call(a, 'POST', '/auth/login', { pin: ADMIN_PIN })).status).toBe(200);
      expect((await browser.call(b, 'GET', '/auth/check')).body.authenticated).toBe(true);
      await browser.call(b, 'POST', '/auth/logout');
      const again = new Browser();
      await again.call(b, 'POST', '/auth/login', { pin: ADMIN_PIN });
      expect((await again.call(a, 'GET', '/auth/check')).body.authenticated).toBe(true);
      await again.call(a, 'POST', '/auth/logout');
      expect((await again.call(b, 'GET', '/auth/check')).body.authenticated).toBe(false);
    });

    it("when an admin on one changes a user's access, then the user's session on the other has it within 1 s, and a deletion ends it", async () => {
      const { a, b } = await twoInstances();
      const admin = new Browser();
      await admin.call(a, 'POST', '/auth/login', { pin: ADMIN_PIN });
      const created = await admin.call(a, 'POST', '/api/users', { name: 'Analyst', pin: '27182818', role: 'viewer', allowedMuseums: ['Museum A'] });
      expect(created.status).toBe(201);
      const analyst = new Browser();
      expect((await analyst.call(b, 'POST', '/auth/login', { pin: '27182818' })).status).toBe(200);

      await admin.call(a, 'PATCH', `/api/users/${created.body.user.id}`, { allowedMuseums: ['Museum B'] });
      await within(WITHIN_MS, async () => (await analyst.call(b, 'GET', '/auth/check')).body.allowedMuseums === '["Museum B"]');
      await admin.call(a, 'DELETE', `/api/users/${created.body.user.id}`);
      await within(WITHIN_MS, async () => (await analyst.call(b, 'GET', '/auth/check')).body.authenticated === false);
    });

    it('when the instance running an import is killed with -9, then the import slot is free on the other within the lock\'s lease, not half an hour later', async () => {
      const lease = 3_000;
      const { a, b } = await twoInstances({ TEST_LOCK_LEASE_MS: String(lease) });
      const admin = new Browser();
      await admin.call(a, 'POST', '/auth/login', { pin: ADMIN_PIN });
      const csv = 'date,museum,channel,district,visitors,revenue\n2020-03-02,Museum Z,Online,Doha,7,70\n';
      const importOnB = async () => (await admin.call(b, 'POST', '/api/dashboard/import', csv, 'text/csv')).status;
      let running = unfinishedImport(a, admin.cookieHeader());
      // The probe on b takes the slot itself when it is free: if it had the slot when a's import
      // asked for it, a's was refused, and it is started again.
      await within(10_000, async () => {
        if (running.answered()) {
          running.stop();
          running = unfinishedImport(a, admin.cookieHeader());
        }
        return (await importOnB()) === 409;
      });
      // Held well past one lease by its renewals while the import runs.
      await new Promise((resolve) => setTimeout(resolve, lease * 1.5));
      expect(await importOnB()).toBe(409);

      a.child.kill('SIGKILL');
      const killed = Date.now();
      await within(60_000, async () => (await importOnB()) === 200);
      expect(Date.now() - killed).toBeLessThan(lease + 5_000);
      running.stop();
    });

    it('when wrong PINs are sent to both, then they are counted once', async () => {
      const { a, b } = await twoInstances();
      const guesser = new Browser();
      for (let i = 0; i < 10; i += 1) expect((await guesser.call(i % 2 ? a : b, 'POST', '/auth/login', { pin: `9000000${i}` })).status).toBe(401);
      expect((await guesser.call(a, 'POST', '/auth/login', { pin: ADMIN_PIN })).status).toBe(429);
      expect((await guesser.call(b, 'POST', '/auth/login', { pin: ADMIN_PIN })).status).toBe(429);
    });

    it("when visits are imported through one, then the other's dashboard shows them within 1 s", async () => {
      const { a, b } = await twoInstances();
      const admin = new Browser();
      await admin.call(a, 'POST', '/auth/login', { pin: ADMIN_PIN });
      const before = (await admin.call(b, 'GET', '/api/dashboard/summary?year=2020')).body.totals.visitors as number;
      const csv = 'date,museum,channel,district,visitors,revenue\n2020-03-01,Museum Z,Online,Doha,1234,100\n';
      expect((await admin.call(a, 'POST', '/api/dashboard/import', csv, 'text/csv')).status).toBe(200);
      await within(WITHIN_MS, async () => (await admin.call(b, 'GET', '/api/dashboard/summary?year=2020')).body.totals.visitors === before + 1234);
    });
  });

  describe('workspace', () => {
    it('when a member signs in on one, then the session works on the other, and a password change on the other ends the old sessions everywhere', async () => {
      const { a, b } = await twoInstances();
      const first = new Browser();
      await workspaceAdmin(first, a);
      expect((await first.call(b, 'GET', '/api/auth/me')).status).toBe(200);
      const second = new Browser();
      await workspaceAdmin(second, b);
      expect((await second.call(b, 'POST', '/api/auth/password', { currentPassword: PASSWORD, newPassword: 'Changed-on-b-22' })).status).toBe(200);
      await within(WITHIN_MS, async () => (await first.call(a, 'GET', '/api/auth/me')).status === 401);
      expect((await second.call(a, 'GET', '/api/auth/me')).status).toBe(200);
      expect((await second.call(a, 'POST', '/api/auth/logout', {})).status).toBe(200);
      expect((await second.call(b, 'GET', '/api/auth/me')).status).toBe(401);
    });

    it('when a file is uploaded through one, then the other serves it byte for byte, ranges included', async () => {
      const { a, b } = await twoInstances();
      const browser = new Browser();
      await workspaceAdmin(browser, a);
      const { brand } = (await browser.call(a, 'POST', '/api/brands', { name: 'Shared' })).body;
      const data = pdf(300_000);
      const form = new FormData();
      form.append('brandId', String(brand.id));
      form.append('files', new Blob([new Uint8Array(data)]), 'shared.pdf');
      const uploaded = await browser.call(a, 'POST', '/api/assets', form);
      expect(uploaded.status).toBe(201);
      const asset = (uploaded.body.assets as { id: number }[])[0];
      const download = await browser.call(b, 'GET', `/api/assets/${asset.id}/download`);
      expect(download.status).toBe(200);
      expect(download.bytes.equals(data)).toBe(true);
      const part = await browser.call(b, 'GET', `/api/assets/${asset.id}/download`, undefined, undefined, { Range: 'bytes=1000-1999' });
      expect(part.status).toBe(206);
      expect(part.bytes.equals(data.subarray(1000, 2000))).toBe(true);
    });

    it("when a member is removed or demoted on one, then the member's token stops or changes on the other within 1 s, and the two made one default brand", async () => {
      const { a, b } = await twoInstances();
      const admin = new Browser();
      await workspaceAdmin(admin, a);
      const brands = (await admin.call(b, 'GET', '/api/brands')).body.brands as unknown[];
      expect(brands).toHaveLength(1);
      const brandId = (brands[0] as { id: number }).id;
      const made = await admin.call(a, 'POST', '/api/members', { name: 'Mona', email: 'mona@two.test', password: 'Mona-password-1', role: 'manager', brandIds: [brandId] });
      expect(made.status).toBe(201);
      const mona = new Browser();
      const signedIn = await mona.call(b, 'POST', '/api/auth/login', { email: 'mona@two.test', password: 'Mona-password-1' });
      const bearer = { Authorization: `Bearer ${signedIn.body.token as string}` };
      expect((await mona.call(b, 'GET', '/api/auth/me', undefined, undefined, bearer)).body.user.role).toBe('manager');
      await admin.call(a, 'PATCH', `/api/members/${made.body.member.id as number}`, { role: 'contributor' });
      await within(WITHIN_MS, async () => (await mona.call(b, 'GET', '/api/auth/me', undefined, undefined, bearer)).body.user?.role === 'contributor');
      await admin.call(a, 'DELETE', `/api/members/${made.body.member.id as number}`);
      await within(WITHIN_MS, async () => (await mona.call(b, 'GET', '/api/auth/me', undefined, undefined, bearer)).status === 401);
    });

    it('when one is killed with -9 during a burst of writes, then no acknowledged write is lost and the other answers every request', async () => {
      const { a, b } = await twoInstances();
      const browser = new Browser();
      await workspaceAdmin(browser, a);
      const { brand } = (await browser.call(b, 'POST', '/api/brands', { name: 'Burst' })).body;
      const acknowledged: number[] = [];
      const failuresOnB: number[] = [];
      let n = 0;
      const writer = async (server: ServerProcess, stopAt: number) => {
        while (n < stopAt) {
          n += 1;
          try {
            const res = await browser.call(server, 'POST', '/api/posts', { title: `Burst ${n}`, brandId: brand.id });
            if (res.status === 201) acknowledged.push(res.body.post.id as number);
            else if (server === b) failuresOnB.push(res.status);
          } catch (err) {
            if (server === b) throw err;
            return;
          }
        }
      };
      const burst = Promise.all([writer(a, 200), writer(a, 200), writer(b, 200), writer(b, 200)]);
      await within(10_000, async () => acknowledged.length >= 30);
      a.child.kill('SIGKILL');
      await burst;
      expect(failuresOnB).toEqual([]);
      const listed = await browser.call(b, 'GET', `/api/posts?brandId=${brand.id}&limit=200`);
      const ids = new Set((listed.body.posts as { id: number }[]).map((p) => p.id));
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
    });
  });
});
