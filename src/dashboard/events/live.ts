import type { ServerResponse } from 'node:http';
import { compareEventIds, type BusEvent, type EventChannel } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import type { EventStream, EventStreams } from '../../platform/sse';
import type { DashboardAuthService } from '../auth/service';

/** What changed the figures every dashboard page shows. */
export type FiguresChange = { reason: 'import' | 'seasons' };

/** Where the data service says that the figures changed, once the change has committed. */
export interface FiguresFeed {
  publish(change: FiguresChange): Promise<void>;
}

export function figuresFeed(channel: EventChannel): FiguresFeed {
  return {
    async publish(change) {
      await channel.publish(change);
    },
  };
}

interface Reader {
  stream: EventStream;
  /** The dashboard session it was opened with: the stream lives as long as the session. */
  sessionId: string;
}

/**
 * The dashboard's live streams held by this instance. Every session may know that the
 * figures changed (the change says nothing of what it holds), so each is told, in the
 * channel's order, while its session lives; a session that ended ends its stream.
 */
export class DashboardLive {
  private readonly readers = new Set<Reader>();
  private queue: Promise<void> = Promise.resolve();
  private position: string | undefined;
  private started: Promise<void> | undefined;

  constructor(private readonly deps: { channel: EventChannel; streams: EventStreams; auth: DashboardAuthService; logger: Logger }) {
    this.start().catch((err: unknown) => deps.logger.warn({ err }, 'the dashboard events channel could not be joined yet; the first stream tries again'));
  }

  async open(sessionId: string, res: ServerResponse, lastEventId: string | undefined): Promise<void> {
    await this.start();
    const stream = this.deps.streams.start(res);
    if (stream.closed) return;
    const reader = { stream, sessionId };
    stream.onClose(() => this.readers.delete(reader));
    this.enqueue(() => this.join(reader, lastEventId));
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      await this.deps.channel.subscribe(
        (event) => this.enqueue(() => this.judge(event)),
        () => this.enqueue(() => this.lostTrack()),
      );
      this.position ??= await this.deps.channel.latest();
    })().catch((err: unknown) => {
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((err: unknown) => this.deps.logger.warn({ err }, 'a dashboard event could not be handed on'));
  }

  private async join(reader: Reader, lastEventId: string | undefined): Promise<void> {
    if (reader.stream.closed) return;
    this.readers.add(reader);
    if (lastEventId === undefined) {
      if (this.position !== undefined) reader.stream.position(this.position);
      return;
    }
    const missed = await this.deps.channel.after(lastEventId).catch(() => undefined);
    if (missed === undefined) {
      reader.stream.send('reset', {}, this.position);
      return;
    }
    for (const event of missed) {
      if (this.position === undefined || !(compareEventIds(event.id, this.position) <= 0)) break;
      await this.tell([reader], event);
    }
  }

  private async judge(event: BusEvent): Promise<void> {
    this.position = event.id;
    await this.tell([...this.readers], event);
  }

  /** One event to each reader whose session still lives; the others' streams end. */
  private async tell(readers: Reader[], event: BusEvent): Promise<void> {
    const { reason } = event.body as FiguresChange;
    await Promise.all(
      readers.map(async (reader) => {
        if (await this.deps.auth.lookup(reader.sessionId)) reader.stream.send('data', { reason }, event.id);
        else {
          this.readers.delete(reader);
          reader.stream.end();
        }
      }),
    );
  }

  private async lostTrack(): Promise<void> {
    this.position = await this.deps.channel.latest().catch(() => undefined);
    for (const reader of this.readers) reader.stream.send('reset', {}, this.position);
  }
}
