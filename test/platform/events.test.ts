import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ManualClock } from '../../src/platform/clock';
import { compareEventIds, LocalEventBus, RedisEventBus, type BusEvent, type EventChannel } from '../../src/platform/events';
import { connectRedis } from '../../src/platform/redis';
import { cuttableRelay } from '../support/net';
import { describeRedis, freshRedis } from '../support/redis';

/** What a channel's subscriber heard, with a way to await the next ones. */
async function listen(channel: EventChannel) {
  const heard: BusEvent[] = [];
  let lost = 0;
  await channel.subscribe(
    (event) => heard.push(event),
    () => (lost += 1),
  );
  return {
    heard,
    lost: () => lost,
    /** Resolves once `count` events in all have been heard. */
    until: (count: number) => vi.waitFor(() => expect(heard.length).toBeGreaterThanOrEqual(count), { timeout: 5_000 }),
  };
}

const bodies = (events: BusEvent[] | undefined) => events?.map((e) => e.body);

describe('LocalEventBus', () => {
  it('when events are published, then subscribers hear them at once in order, with ids that order as they were published, and `after` replays the later ones', async () => {
    const channel = new LocalEventBus(new ManualClock()).channel('test');
    const start = await channel.latest();
    const { heard } = await listen(channel);
    for (const n of [1, 2, 3]) expect(await channel.publish({ n })).toBe(true);
    expect(bodies(heard)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(compareEventIds(heard[0].id, heard[1].id)).toBeLessThan(0);
    expect(compareEventIds(heard[1].id, heard[2].id)).toBeLessThan(0);
    expect(await channel.latest()).toBe(heard[2].id);
    expect(bodies(await channel.after(start))).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(bodies(await channel.after(heard[1].id))).toEqual([{ n: 3 }]);
    expect(await channel.after(heard[2].id)).toEqual([]);
  });

  it('when events grow older than the kept span, then they go, and only an id with some of them after it is answered with undefined', async () => {
    const clock = new ManualClock();
    const channel = new LocalEventBus(clock, 60_000).channel('test');
    const { heard } = await listen(channel);
    await channel.publish({ n: 1 });
    await channel.publish({ n: 2 });
    clock.advance(61_000);
    await channel.publish({ n: 3 });
    expect(await channel.after(heard[0].id)).toBeUndefined();
    expect(bodies(await channel.after(heard[1].id))).toEqual([{ n: 3 }]);
  });

  it('when an id is of another run, later than any, or no id at all, then `after` answers undefined', async () => {
    const clock = new ManualClock();
    const [one, other] = [new LocalEventBus(clock).channel('test'), new LocalEventBus(clock).channel('test')];
    await one.publish({ n: 1 });
    await other.publish({ n: 1 });
    expect(await one.after(await other.latest())).toBeUndefined();
    const [epoch] = (await one.latest()).split('.');
    expect(await one.after(`${epoch}.9999999999999-0`)).toBeUndefined();
    expect(await one.after('garbage')).toBeUndefined();
  });
});

describeRedis('RedisEventBus', () => {
  async function bus(url: string, subscriberUrl = url, keptMs?: number) {
    const commands = await connectRedis(url, { onError: () => undefined });
    const subscribing = subscriberUrl === url ? commands : await connectRedis(subscriberUrl, { onError: () => undefined });
    onTestFinished(async () => {
      await commands.close();
      if (subscribing !== commands) await subscribing.close();
    });
    return new RedisEventBus(commands.client, await subscribing.openSubscriber(), () => undefined, keptMs);
  }

  it('when two instances publish on one channel, then both hear every event once, in one order, and `after` replays from the stream', async () => {
    const redis = await freshRedis();
    const [a, b] = [(await bus(redis.url)).channel('test'), (await bus(redis.url)).channel('test')];
    const start = await b.latest();
    const [onA, onB] = [await listen(a), await listen(b)];
    await a.publish({ from: 'a', n: 1 });
    await b.publish({ from: 'b', n: 2 });
    await a.publish({ from: 'a', n: 3 });
    await onA.until(3);
    await onB.until(3);
    expect(onA.heard).toEqual(onB.heard);
    expect(bodies(onA.heard)).toEqual([{ from: 'a', n: 1 }, { from: 'b', n: 2 }, { from: 'a', n: 3 }]);
    expect(compareEventIds(onA.heard[0].id, onA.heard[2].id)).toBeLessThan(0);
    expect(await a.after(start)).toEqual(onA.heard);
    expect(await b.after(onA.heard[0].id)).toEqual(onA.heard.slice(1));
    expect(await a.latest()).toBe(onA.heard[2].id);
  });

  it('when events are older than the kept span, then an id before them is answered undefined, the newest dropped one is still a place to go on from', async () => {
    const redis = await freshRedis();
    // A span in the past: each event lets every earlier one go.
    const channel = (await bus(redis.url, redis.url, -60_000)).channel('test');
    const { heard, until } = await listen(channel);
    for (const n of [1, 2, 3]) await channel.publish({ n });
    await until(3);
    expect(await channel.after(heard[0].id)).toBeUndefined();
    expect(bodies(await channel.after(heard[1].id))).toEqual([{ n: 3 }]);
  });

  it('when the id is of another buffer (Redis lost its data), later than any, or not an id, then `after` answers undefined', async () => {
    const redis = await freshRedis();
    const channel = (await bus(redis.url)).channel('test');
    await channel.publish({ n: 1 });
    const before = await channel.latest();
    const flusher = await connectRedis(redis.url, { onError: () => undefined });
    onTestFinished(() => flusher.close());
    await flusher.client.flushAll();
    await channel.publish({ n: 2 });
    expect(await channel.after(before)).toBeUndefined();
    const [epoch] = (await channel.latest()).split('.');
    expect(await channel.after(`${epoch}.9999999999999-0`)).toBeUndefined();
    expect(await channel.after('x')).toBeUndefined();
  });

  it("when an instance's subscriber loses its connection, then once it is back it hears what was published meanwhile, in order, once, before anything newer", async () => {
    const redis = await freshRedis();
    const port = Number(new URL(redis.url).port);
    const relay = await cuttableRelay('127.0.0.1', port);
    const publisher = (await bus(redis.url)).channel('test');
    const listener = (await bus(redis.url, `redis://127.0.0.1:${relay.port}`)).channel('test');
    const { heard, until, lost } = await listen(listener);
    await publisher.publish({ n: 1 });
    await until(1);
    relay.cut();
    for (const n of [2, 3, 4]) await publisher.publish({ n });
    relay.restore();
    await until(4);
    await publisher.publish({ n: 5 });
    await until(5);
    expect(bodies(heard)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }, { n: 5 }]);
    expect(lost()).toBe(0);
  });

  it('when Redis cannot be reached, then publishing answers false without throwing', async () => {
    const redis = await freshRedis();
    const channel = (await bus(redis.url)).channel('test');
    redis.kill();
    expect(await channel.publish({ n: 1 })).toBe(false);
  });
});
