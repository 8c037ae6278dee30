import { randomBytes } from 'node:crypto';
import type { Clock } from './clock';
import type { Redis } from './redis';

/**
 * Events that every instance hears in one order, the last few minutes of them kept, so that
 * a client whose connection broke can be told what it missed, or that it missed too much.
 *
 * An id reads `<epoch>.<ms>-<seq>`: ids of one epoch order as the events were published. The
 * epoch names one run of the buffer (a process without Redis; a Redis database), so an id of
 * another run is known for what it is, never mistaken for a position in this one.
 */
export interface BusEvent {
  id: string;
  body: unknown;
}

export interface EventChannel {
  /**
   * For after the change it tells of has committed. Never fails: answers whether the event
   * went out, and false when it could not (it is then lost for everyone).
   */
  publish(body: unknown): Promise<boolean>;
  /**
   * `handler` hears every event from now on, once and in order. `lost` runs when the channel
   * cannot tell what it missed (the buffer itself was lost or outrun): whoever keeps a copy
   * must start over.
   */
  subscribe(handler: (event: BusEvent) => void, lost: () => void): Promise<void>;
  /**
   * The events after `id`, oldest first; undefined when some of them are no longer kept,
   * or `id` is not one of this run's (the client must start over).
   */
  after(id: string): Promise<BusEvent[] | undefined>;
  /** The id of the newest event published so far: the position of someone who has seen everything. */
  latest(): Promise<string>;
}

export interface EventBus {
  channel(name: string): EventChannel;
}

/** How long events are kept for clients that come back. */
export const EVENTS_KEPT_MS = 5 * 60 * 1000;
/** The most events one look back answers; a client that missed more starts over. */
export const EVENTS_REPLAYED_MAX = 5_000;

const ID = /^([0-9a-f]{1,32})\.(\d{1,16})-(\d{1,16})$/;

/** Whether `a` comes before (negative), with (0) or after (positive) `b`; NaN when they are of different runs or not ids. */
export function compareEventIds(a: string, b: string): number {
  const x = ID.exec(a);
  const y = ID.exec(b);
  if (!x || !y || x[1] !== y[1]) return Number.NaN;
  return Number(x[2]) - Number(y[2]) || Number(x[3]) - Number(y[3]);
}

const newEpoch = () => randomBytes(4).toString('hex');

/** One process: events are kept in memory for as long as the clock says, for this run only. */
export class LocalEventBus implements EventBus {
  private readonly channels = new Map<string, LocalChannel>();

  constructor(
    private readonly clock: Clock,
    private readonly keptMs = EVENTS_KEPT_MS,
  ) {}

  channel(name: string): EventChannel {
    let channel = this.channels.get(name);
    if (!channel) this.channels.set(name, (channel = new LocalChannel(this.clock, this.keptMs)));
    return channel;
  }
}

class LocalChannel implements EventChannel {
  private readonly epoch = newEpoch();
  private readonly kept: { event: BusEvent; at: number }[] = [];
  private readonly handlers: ((event: BusEvent) => void)[] = [];
  private lastMs = 0;
  private seq = 0;
  /** The newest event let go, if any: a client behind it has missed something. */
  private dropped: string | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly keptMs: number,
  ) {}

  async publish(body: unknown): Promise<boolean> {
    const now = this.clock.now();
    for (let oldest = this.kept.at(0); oldest !== undefined && oldest.at < now - this.keptMs; oldest = this.kept.at(0)) {
      this.kept.shift();
      this.dropped = oldest.event.id;
    }
    // A clock that stands still or steps back still gives each event a later id.
    if (now > this.lastMs) {
      this.lastMs = now;
      this.seq = 0;
    } else this.seq += 1;
    const event = { id: `${this.epoch}.${this.lastMs}-${this.seq}`, body };
    this.kept.push({ event, at: now });
    for (const handler of this.handlers) handler(event);
    return true;
  }

  async subscribe(handler: (event: BusEvent) => void): Promise<void> {
    this.handlers.push(handler);
  }

  async after(id: string): Promise<BusEvent[] | undefined> {
    const latest = await this.latest();
    if (!(compareEventIds(id, latest) <= 0)) return undefined;
    if (this.dropped !== undefined && compareEventIds(id, this.dropped) < 0) return undefined;
    const missed = this.kept.filter((k) => compareEventIds(k.event.id, id) > 0).map((k) => k.event);
    return missed.length > EVENTS_REPLAYED_MAX ? undefined : missed;
  }

  async latest(): Promise<string> {
    return this.kept.at(-1)?.event.id ?? this.dropped ?? `${this.epoch}.0-0`;
  }
}

/**
 * Appends the event to the channel's stream, first letting go of what is older than the
 * kept span (by Redis's own clock, the one its ids are made from) and noting the newest
 * let go, then tells every subscriber, all in one step: publishing order is id order.
 * KEYS: stream, meta hash. ARGV: pub/sub channel, body, kept ms, epoch for a new buffer.
 */
const PUBLISH = `
local epoch = redis.call('HGET', KEYS[2], 'epoch')
if not epoch then
  epoch = ARGV[4]
  redis.call('HSET', KEYS[2], 'epoch', epoch)
end
local time = redis.call('TIME')
local cutoff = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000) - tonumber(ARGV[3])
if cutoff > 0 then
  local old = redis.call('XREVRANGE', KEYS[1], '(' .. cutoff .. '-0', '-', 'COUNT', 1)
  if #old > 0 then
    redis.call('HSET', KEYS[2], 'dropped', old[1][1])
    redis.call('XTRIM', KEYS[1], 'MINID', cutoff .. '-0')
  end
end
local id = redis.call('XADD', KEYS[1], '*', 'b', ARGV[2])
redis.call('HSET', KEYS[2], 'last', id)
local full = epoch .. '.' .. id
redis.call('PUBLISH', ARGV[1], full .. ' ' .. ARGV[2])
return full
`;

/**
 * The buffer's run, its newest id and newest dropped id, and the events after ARGV[1]
 * (a stream id), at most ARGV[2] of them. KEYS: stream, meta hash. ARGV: stream id, count, epoch for a new buffer.
 */
const READ = `
redis.call('HSETNX', KEYS[2], 'epoch', ARGV[3])
local meta = redis.call('HMGET', KEYS[2], 'epoch', 'last', 'dropped')
local events = {}
if ARGV[1] ~= '' then events = redis.call('XRANGE', KEYS[1], '(' .. ARGV[1], '+', 'COUNT', ARGV[2]) end
return { meta[1], meta[2] or '0-0', meta[3] or '0-0', events }
`;

type ReadReply = [string, string, string, [string, string[]][]];

/**
 * Several instances: each channel is a Redis stream (the kept events) beside a pub/sub
 * channel (the live ones), written together by one script. Subscribers share one connection
 * of their own; when it comes back from a loss, each channel reads from its stream what it
 * missed meanwhile and hands it on, in order, before anything newer.
 */
export class RedisEventBus implements EventBus {
  private readonly channels = new Map<string, RedisChannel>();

  constructor(
    /** Commands, each with its deadline. */
    private readonly redis: Redis,
    /** A connection for this bus alone, which subscribing takes over. */
    private readonly subscriber: Redis,
    /** An event could not be published (it is lost). */
    private readonly onUnsent: (err: unknown) => void,
    private readonly keptMs = EVENTS_KEPT_MS,
  ) {
    // Whatever comes in once the connection is back waits until what was missed has been read.
    subscriber.on('reconnecting', () => {
      for (const channel of this.channels.values()) channel.interrupted();
    });
    subscriber.on('ready', () => {
      for (const channel of this.channels.values()) channel.reconnected();
    });
  }

  channel(name: string): EventChannel {
    let channel = this.channels.get(name);
    if (!channel) this.channels.set(name, (channel = new RedisChannel(this.redis, this.subscriber, `museum:events:${name}`, this.keptMs, this.onUnsent)));
    return channel;
  }
}

class RedisChannel implements EventChannel {
  private handler: ((event: BusEvent) => void) | undefined;
  private lost: (() => void) | undefined;
  /** The id of the last event handed on: a reconnection reads on from there. */
  private delivered: string | undefined;
  /** Live events that came in while the connection was away or missed ones were read, handed on after them. */
  private held: BusEvent[] | undefined;
  private catchingUp = false;
  private readonly keys: string[];

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly name: string,
    private readonly keptMs: number,
    private readonly onUnsent: (err: unknown) => void,
  ) {
    this.keys = [name, `${name}:meta`];
  }

  async publish(body: unknown): Promise<boolean> {
    try {
      await this.redis.eval(PUBLISH, { keys: this.keys, arguments: [this.name, JSON.stringify(body), String(this.keptMs), newEpoch()] });
      return true;
    } catch (err) {
      this.onUnsent(err);
      return false;
    }
  }

  async subscribe(handler: (event: BusEvent) => void, lost: () => void): Promise<void> {
    this.handler = handler;
    this.lost = lost;
    await this.subscriber.subscribe(this.name, (message) => {
      const space = message.indexOf(' ');
      this.arrived({ id: message.slice(0, space), body: JSON.parse(message.slice(space + 1)) as unknown });
    });
    this.delivered ??= await this.latest();
  }

  async after(id: string): Promise<BusEvent[] | undefined> {
    const parsed = ID.exec(id);
    if (!parsed) return undefined;
    const streamId = `${parsed[2]}-${parsed[3]}`;
    const [epoch, last, dropped, events] = await this.read(streamId, EVENTS_REPLAYED_MAX + 1);
    if (parsed[1] !== epoch || compareStreamIds(streamId, last) > 0 || compareStreamIds(streamId, dropped) < 0) return undefined;
    if (events.length > EVENTS_REPLAYED_MAX) return undefined;
    return events.map(([streamEntry, fields]) => ({ id: `${epoch}.${streamEntry}`, body: JSON.parse(fields[1]) as unknown }));
  }

  async latest(): Promise<string> {
    const [epoch, last] = await this.read('', 0);
    return `${epoch}.${last}`;
  }

  /** The subscriber lost its connection: messages may be missed from now on. */
  interrupted(): void {
    if (this.handler) this.held ??= [];
  }

  /** The subscriber is back: what was published meanwhile is read from the stream. */
  reconnected(): void {
    if (!this.held || this.catchingUp) return;
    const from = this.delivered;
    if (from === undefined) {
      this.caughtUp(undefined);
      return;
    }
    this.catchingUp = true;
    void this.after(from).then(
      (missed) => this.caughtUp(missed),
      () => this.caughtUp(undefined),
    );
  }

  private caughtUp(missed: BusEvent[] | undefined): void {
    const held = this.held ?? [];
    this.held = undefined;
    this.catchingUp = false;
    if (missed === undefined) {
      this.delivered = undefined;
      this.lost?.();
      void this.latest().then((id) => (this.delivered ??= id), () => undefined);
    } else for (const event of missed) this.arrived(event);
    for (const event of held) this.arrived(event);
  }

  private arrived(event: BusEvent): void {
    if (this.held) {
      this.held.push(event);
      return;
    }
    if (this.delivered !== undefined && !(compareEventIds(event.id, this.delivered) > 0)) {
      // Already handed on (read back after a reconnection), unless it is of a new run.
      if (!Number.isNaN(compareEventIds(event.id, this.delivered))) return;
    }
    this.delivered = event.id;
    this.handler?.(event);
  }

  private async read(from: string, count: number): Promise<ReadReply> {
    return (await this.redis.eval(READ, { keys: this.keys, arguments: [from, String(count), newEpoch()] })) as unknown as ReadReply;
  }
}

function compareStreamIds(a: string, b: string): number {
  const [x1, x2] = a.split('-').map(Number);
  const [y1, y2] = b.split('-').map(Number);
  return x1 - y1 || x2 - y2;
}
