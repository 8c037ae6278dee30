import type { Redis } from './redis';

/**
 * A change that others may hold a copy of: `topic` names what changed (an application's
 * own word, such as `workspace.user`), `id` which one when it is a single record.
 * `everything` tells that notices may have been missed and every copy must go.
 */
export interface Notice {
  topic: string;
  id?: number;
}

export const EVERYTHING = 'everything';

export type NoticeHandler = (notice: Notice) => void;

/**
 * Tells every instance that something changed, so that each drops what it keeps of it.
 * A notice speeds things up and nothing more: whoever caches what a notice concerns also
 * confirms it with the records within a bound of its own, so a notice that is lost leaves
 * nothing stale for longer than that.
 */
export interface Notices {
  /**
   * This instance's handlers hear at once; the others as soon as the channel carries it.
   * Never fails: answers whether the channel took it, and false when it could not.
   */
  publish(notice: Notice): Promise<boolean>;
  subscribe(handler: NoticeHandler): void;
}

/** One process: its own handlers hear at once. */
export class LocalNotices implements Notices {
  private readonly handlers: NoticeHandler[] = [];

  async publish(notice: Notice) {
    for (const handler of this.handlers) handler(notice);
    return true;
  }

  subscribe(handler: NoticeHandler) {
    this.handlers.push(handler);
  }
}

const CHANNEL = 'museum:notices';

/**
 * Several instances: notices go over Redis pub/sub, and this instance's own handlers also hear
 * its own notices at once, without waiting for the round trip. A subscriber that lost its
 * connection may have missed notices: when it is back, handlers hear `everything`.
 */
export class RedisNotices implements Notices {
  private readonly local = new LocalNotices();

  constructor(
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    /** Marks this instance's own messages, which it has already handled. */
    private readonly self: string,
    private readonly onLost: (err: unknown, notice: Notice) => void = () => undefined,
  ) {}

  async start(): Promise<void> {
    await this.subscriber.subscribe(CHANNEL, (message) => {
      const parsed = JSON.parse(message) as { from: string; notice: Notice };
      if (parsed.from !== this.self) void this.local.publish(parsed.notice);
    });
  }

  /** For the connection's owner to call when the subscriber came back after a loss. */
  missedSome(): void {
    void this.local.publish({ topic: EVERYTHING });
  }

  async publish(notice: Notice) {
    await this.local.publish(notice);
    try {
      await this.redis.publish(CHANNEL, JSON.stringify({ from: this.self, notice }));
      return true;
    } catch (err) {
      this.onLost(err, notice);
      return false;
    }
  }

  subscribe(handler: NoticeHandler) {
    this.local.subscribe(handler);
  }
}
