import path from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../support/app';
import { openStream, type OpenStream } from '../support/events';
import { describeNginx, startNginx } from '../support/nginx';
import { describePostgres, migratedDatabase } from '../support/postgres';
import { freePort } from '../support/postgres-server';
import { describeRedis, freshRedis } from '../support/redis';
import { callServer, useServerProcesses, type ServerProcess } from '../support/workspace';

const ADMIN_PIN = '48151623';
const ADMIN = { email: 'admin@live.test', password: 'First-start-2026' };
const PASSWORD = 'Live-instances-1';
const START_MS = 60_000;

const start = useServerProcesses();

/**
 * Two server processes on one PostgreSQL and one Redis, each on a port of its own (kept
 * across a restart), behind Debian's nginx configured as the README says.
 */
async function cluster() {
  const [database, redis] = await Promise.all([migratedDatabase(), freshRedis()]);
  const ports = [await freePort(), await freePort()];
  const env = (port: number) => {
    const dir = tempDir();
    return {
      DATABASE_URL: database,
      REDIS_URL: redis.url,
      PORT: String(port),
      DATA_DIR: path.join(dir, 'data'),
      UPLOAD_DIR: path.join(dir, 'uploads'),
      ADMIN_PIN,
      DEFAULT_ADMIN_EMAIL: ADMIN.email,
      DEFAULT_ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: '',
      SESSION_SECRET: '',
      TRUST_PROXY: '1',
    };
  };
  const [a, b] = await Promise.all(ports.map((port) => start(env(port), START_MS)));
  const nginx = await startNginx(ports);
  const first = await callServer(a.url, 'POST', '/api/auth/login', undefined, ADMIN);
  const changed = await callServer(a.url, 'POST', '/api/auth/password', first.body.token as string, { currentPassword: ADMIN.password, newPassword: PASSWORD });
  expect(changed.status).toBe(200);
  const token = changed.body.token as string;
  const brand = (await callServer(a.url, 'POST', '/api/brands', token, { name: 'Live brand' })).body.brand as { id: number };
  const servers = new Map<string, ServerProcess>([[`127.0.0.1:${ports[0]}`, a], [`127.0.0.1:${ports[1]}`, b]]);
  return { nginx, token, brand, servers, ports, env };
}

type Cluster = Awaited<ReturnType<typeof cluster>>;

/** A stream opened through nginx, with the instance that holds it and the other one. */
async function streamThroughProxy(c: Cluster, headers: Record<string, string> = {}) {
  const stream = await openStream(`${c.nginx.url}/api/events`, { Authorization: `Bearer ${c.token}`, ...headers });
  expect(stream.status).toBe(200);
  const upstream = String(stream.headers['x-upstream']);
  const holder = c.servers.get(upstream);
  const other = [...c.servers].find(([address]) => address !== upstream)?.[1];
  if (!holder || !other) throw new Error(`nginx named ${upstream}, not one of the instances`);
  return { stream, holder, other, upstream };
}

async function post(server: ServerProcess, c: Cluster, title: string) {
  const res = await callServer(server.url, 'POST', '/api/posts', c.token, { title, brandId: c.brand.id });
  expect(res.status).toBe(201);
  return res.body.post as { id: number };
}

const created = (stream: OpenStream) => stream.next((e) => e.event === 'post').then((e) => e.data as { id: number; action: string });

describeRedis('live events through nginx', () => {
  describeNginx('two instances behind Debian’s nginx', () => {
    describePostgres('on one PostgreSQL and one Redis', () => {
      it('when a change is made on one instance, then a stream held through nginx by the other hears it at once, the dashboard’s too', async () => {
        const c = await cluster();
        const { stream, other } = await streamThroughProxy(c);
        expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        const made = await post(other, c, 'Made elsewhere');
        expect(await created(stream)).toMatchObject({ id: made.id, action: 'created' });

        const signIn = await fetch(`${c.nginx.url}/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ pin: ADMIN_PIN }) });
        const cookie = signIn.headers.getSetCookie().map((line) => line.split(';')[0]).find((pair) => pair.startsWith('service_session='))!;
        const dashboard = await openStream(`${c.nginx.url}/api/dashboard/events`, { Cookie: cookie });
        const elsewhere = [...c.servers].find(([address]) => address !== String(dashboard.headers['x-upstream']))![1];
        const season = await fetch(`${elsewhere.url}/api/seasons`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' },
          body: JSON.stringify({ name: 'Live season', startDate: '2025-06-01', endDate: '2025-06-30' }),
        });
        expect(season.status).toBe(201);
        expect((await dashboard.next()).data).toEqual({ reason: 'seasons' });
      });

      it('when the instance holding a stream stops, then the stream is told to come back in 500 ms; reconnecting through nginx with Last-Event-ID resumes on the other without loss, and the restarted instance serves again', async () => {
        const c = await cluster();
        const { stream, holder, other, upstream } = await streamThroughProxy(c);
        const before = await post(other, c, 'Before');
        expect(await created(stream)).toMatchObject({ id: before.id });

        holder.child.kill('SIGTERM');
        await stream.ended;
        expect(stream.blocks.at(-1)).toMatchObject({ retry: 500 });
        await holder.exited;
        expect(holder.output()).toContain('"stopped"');

        // Made while the browser was away.
        const missed = [await post(other, c, 'Missed 1'), await post(other, c, 'Missed 2')];
        const back = await streamThroughProxy(c, { 'Last-Event-ID': stream.lastId()! });
        expect(back.holder).toBe(other);
        expect(await created(back.stream)).toMatchObject({ id: missed[0].id });
        expect(await created(back.stream)).toMatchObject({ id: missed[1].id });
        const after = await post(other, c, 'After');
        expect(await created(back.stream)).toMatchObject({ id: after.id });

        // The stopped instance starts again on its port; nginx sends streams to it once more.
        const restarted = await start(c.env(Number(upstream.split(':')[1])), START_MS);
        c.servers.set(upstream, restarted);
        let onRestarted: Awaited<ReturnType<typeof streamThroughProxy>> | undefined;
        const deadline = Date.now() + 20_000;
        while (!onRestarted) {
          const attempt = await streamThroughProxy(c, { 'Last-Event-ID': back.stream.lastId()! });
          if (attempt.holder === restarted) onRestarted = attempt;
          else {
            attempt.stream.close();
            if (Date.now() > deadline) throw new Error(`nginx sent no stream to the restarted instance:\n${c.nginx.log()}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
        const last = await post(other, c, 'To the restarted one');
        expect(await created(onRestarted.stream)).toMatchObject({ id: last.id });
        expect(onRestarted.stream.events().filter((e) => e.event === 'post')).toHaveLength(1);
      });
    });
  });
});
