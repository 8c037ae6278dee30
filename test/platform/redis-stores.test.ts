import { Cookie } from 'express-session';
import { expect, it, onTestFinished } from 'vitest';
import { RedisSessionStore } from '../../src/dashboard/auth/redis-session-store';
import { SESSION_MAX_AGE_MS } from '../../src/dashboard/auth/service';
import type { DashboardSession } from '../../src/dashboard/auth/session-store';
import { ManualClock } from '../../src/platform/clock';
import { connectRedis, isRedisUnreachable } from '../../src/platform/redis';
import { RedisAttemptCounter } from '../../src/platform/redis-attempts';
import { LeaseLost, RedisLocks } from '../../src/platform/locks';
import { RedisNotices, type Notice } from '../../src/platform/notices';
import { RedisCookieSessions } from '../../src/workspace/auth/redis-session-store';
import { describeRedis, freshRedis } from '../support/redis';

async function connected(url: string) {
  const connection = await connectRedis(url, { onError: () => undefined });
  onTestFinished(() => connection.close());
  return connection;
}

function session(userId: number | null, createdAt: number): DashboardSession {
  return { name: 'Lina', role: 'viewer', createdAt, allowedMuseums: '[]', allowedChannels: '[]', userId };
}

describeRedis('RedisAttemptCounter', () => {
  it('when 50 attempts take a place at once, then exactly the limit are granted, and giving places back frees them', async () => {
    const { client } = await connected((await freshRedis()).url);
    const counter = new RedisAttemptCounter(client);
    const places = await Promise.all(Array.from({ length: 50 }, () => counter.take('pin:1.2.3.4', 10, 60_000)));
    expect(places.filter((p) => p.granted)).toHaveLength(10);
    await counter.settle('pin:1.2.3.4', false, 60_000);
    expect((await counter.take('pin:1.2.3.4', 10, 60_000)).granted).toBe(true);
  });

  it('when the limit of failures is reached, then no place is granted until the window ends, and Retry-After is within it', async () => {
    const { client } = await connected((await freshRedis()).url);
    const counter = new RedisAttemptCounter(client);
    for (let i = 0; i < 3; i += 1) {
      expect((await counter.take('k', 3, 400)).granted).toBe(true);
      await counter.settle('k', true, 400);
    }
    const refused = await counter.take('k', 3, 400);
    expect(refused).toMatchObject({ granted: false, failures: 3 });
    expect(refused.resetAt - Date.now()).toBeLessThanOrEqual(400);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await counter.take('k', 3, 400)).granted).toBe(true);
  });

  it('when two instances count the same key, then they share one count', async () => {
    const { url } = await freshRedis();
    const [a, b] = [new RedisAttemptCounter((await connected(url)).client), new RedisAttemptCounter((await connected(url)).client)];
    for (let i = 0; i < 5; i += 1) {
      await (i % 2 ? a : b).take('shared', 5, 60_000);
      await (i % 2 ? a : b).settle('shared', true, 60_000);
    }
    expect((await a.take('shared', 5, 60_000)).granted).toBe(false);
    expect((await b.take('shared', 5, 60_000)).granted).toBe(false);
  });
});

describeRedis('RedisSessionStore', () => {
  it('when a session is set on one instance, then another reads it, and a sign-out on either ends it for both', async () => {
    const { url } = await freshRedis();
    const clock = new ManualClock();
    const [one, two] = [new RedisSessionStore((await connected(url)).client, clock), new RedisSessionStore((await connected(url)).client, clock)];
    await one.set('a'.repeat(64), session(7, clock.now()));
    expect(await two.get('a'.repeat(64))).toEqual(session(7, clock.now()));
    await two.delete('a'.repeat(64));
    expect(await one.get('a'.repeat(64))).toBeUndefined();
  });

  it('when a user\'s access changes or the user goes, then every session of that user follows and others stay', async () => {
    const { url } = await freshRedis();
    const clock = new ManualClock();
    const store = new RedisSessionStore((await connected(url)).client, clock);
    await store.set('1'.repeat(64), session(7, clock.now()));
    await store.set('2'.repeat(64), session(7, clock.now()));
    await store.set('3'.repeat(64), session(8, clock.now()));
    await store.updateUser(7, { role: 'admin', allowedMuseums: '["Fort"]' });
    expect(await store.get('2'.repeat(64))).toMatchObject({ role: 'admin', allowedMuseums: '["Fort"]' });
    expect(await store.get('3'.repeat(64))).toMatchObject({ role: 'viewer' });
    await store.deleteUser(7);
    expect(await store.get('1'.repeat(64))).toBeUndefined();
    expect(await store.size()).toBe(1);
  });

  it('when a session is stored, then Redis ends it when its seven days are up, counted from its creation', async () => {
    const { url } = await freshRedis();
    const clock = new ManualClock();
    const { client } = await connected(url);
    const store = new RedisSessionStore(client, clock);
    await store.set('4'.repeat(64), session(null, clock.now() - SESSION_MAX_AGE_MS + 300));
    expect(await client.pTTL(`dashboard:session:${'4'.repeat(64)}`)).toBeLessThanOrEqual(300);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await store.get('4'.repeat(64))).toBeUndefined();
  });

  it('when Redis goes away, then commands fail at once as out of reach, and work again once it is back', async () => {
    const server = await freshRedis();
    const store = new RedisSessionStore((await connected(server.url)).client, new ManualClock());
    server.kill();
    const started = Date.now();
    const err = await store.get('5'.repeat(64)).catch((e: unknown) => e);
    expect(isRedisUnreachable(err)).toBe(true);
    expect(Date.now() - started).toBeLessThan(6_000);
    await server.start();
    await expect.poll(() => store.get('5'.repeat(64)).then(() => 'ok', () => 'down'), { timeout: 8_000 }).toBe('ok');
  });

  it('when Redis stops answering (SIGSTOP), then a command fails as out of reach within the deadline, the next ones at once, and all answer again once it goes on', async () => {
    const server = await freshRedis();
    const connection = await connected(server.url);
    const clock = new ManualClock();
    const store = new RedisSessionStore(connection.client, clock);
    await store.set('6'.repeat(64), session(9, clock.now()));
    server.freeze();

    let started = Date.now();
    const first = await store.get('6'.repeat(64)).catch((e: unknown) => e);
    expect(isRedisUnreachable(first)).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    started = Date.now();
    const failures = await Promise.all([store.get('6'.repeat(64)), store.updateUser(9, { role: 'admin' }), store.size(), connection.client.publish('x', 'y')].map((p) => p.catch((e: unknown) => e)));
    expect(failures.every(isRedisUnreachable)).toBe(true);
    expect(Date.now() - started).toBeLessThan(200);
    expect(await connection.ping(500)).toBe(false);

    server.thaw();
    await expect.poll(() => store.get('6'.repeat(64)).then((s) => s?.userId, () => 'down'), { timeout: 5_000, interval: 50 }).toBe(9);
    expect(await connection.ping(500)).toBe(true);
  });
});

describeRedis('RedisNotices', () => {
  it('when one instance publishes, then the other hears it within a second and the publisher hears it once, at once', async () => {
    const { url } = await freshRedis();
    const [a, b] = [await connected(url), await connected(url)];
    const [one, two] = [new RedisNotices(a.client, a.subscriber, 'one'), new RedisNotices(b.client, b.subscriber, 'two')];
    await Promise.all([one.start(), two.start()]);
    const heard: { by: string; notice: Notice }[] = [];
    one.subscribe((notice) => heard.push({ by: 'one', notice }));
    two.subscribe((notice) => heard.push({ by: 'two', notice }));
    const publishing = one.publish({ topic: 'workspace.user', id: 7 });
    expect(heard).toEqual([{ by: 'one', notice: { topic: 'workspace.user', id: 7 } }]);
    await publishing;
    await expect.poll(() => heard.length, { timeout: 1_000 }).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(heard).toEqual([
      { by: 'one', notice: { topic: 'workspace.user', id: 7 } },
      { by: 'two', notice: { topic: 'workspace.user', id: 7 } },
    ]);
  });
});

describeRedis('RedisCookieSessions', () => {
  it('when a user\'s sessions are ended but one, then only that one is left, on every instance', async () => {
    const { url } = await freshRedis();
    const [a, b] = [new RedisCookieSessions((await connected(url)).client), new RedisCookieSessions((await connected(url)).client)];
    const cookie = Object.assign(new Cookie(), { maxAge: 60_000 });
    for (const sid of ['s1', 's2', 's3']) await a.set(sid, { cookie, userId: 4, userKey: 'k', passwordStamp: 's' });
    await b.set('other', { cookie, userId: 5, userKey: 'k5', passwordStamp: 's' });
    await b.endUserSessions(4, 's2');
    expect(await a.get('s1')).toBeNull();
    expect(await a.get('s2')).toMatchObject({ userId: 4 });
    expect(await a.get('other')).toMatchObject({ userId: 5 });
  });
});

describeRedis('RedisLocks', () => {
  const LEASE = 300;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('when the holder works past its lease, then its renewals keep the lock from everyone else until it gives it back', async () => {
    const { url } = await freshRedis();
    const [mine, theirs] = [new RedisLocks((await connected(url)).client, LEASE), new RedisLocks((await connected(url)).client, LEASE)];
    const lease = (await mine.acquire('work'))!;
    await sleep(LEASE * 3);
    expect(await theirs.acquire('work')).toBeUndefined();
    expect(lease.lost.aborted).toBe(false);
    await lease.release();
    expect(await theirs.acquire('work')).toBeDefined();
  });

  it('when the holder dies, then the lock frees itself within its lease, and a late give-back leaves the new holder its lock', async () => {
    const { url } = await freshRedis();
    const dying = await connectRedis(url, { onError: () => undefined });
    const theirs = new RedisLocks((await connected(url)).client, LEASE);
    const stale = (await new RedisLocks(dying.client, LEASE).acquire('work'))!;
    await dying.close();
    await expect.poll(async () => (await theirs.acquire('work')) !== undefined, { timeout: LEASE * 3, interval: 50 }).toBe(true);
    await stale.release();
    expect(await theirs.acquire('work')).toBeUndefined();
  });

  it('when Redis stops answering for longer than the lease, then the holder is told it lost the lock', async () => {
    const server = await freshRedis();
    const lease = (await new RedisLocks((await connected(server.url)).client, 1_000).acquire('work'))!;
    server.freeze();
    const lost = await new Promise((resolve) => lease.lost.addEventListener('abort', () => resolve(lease.lost.reason)));
    expect(lost).toBeInstanceOf(LeaseLost);
    server.thaw();
  });
});
