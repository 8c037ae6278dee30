import type { ServerResponse } from 'node:http';

/** A comment line every this long keeps proxies and browsers from taking a quiet stream for a dead one. */
export const HEARTBEAT_MS = 25_000;
/** How long a browser waits before it reconnects a stream that ended. */
export const RETRY_MS = 3_000;
/** The wait asked for when the server stops: the browser goes at once to another instance. */
export const SHUTDOWN_RETRY_MS = 500;
/**
 * A client that lets this much pile up unread is dropped rather than held in memory; it
 * reconnects and is told what it missed.
 */
export const MAX_UNREAD_BYTES = 1024 * 1024;

export interface EventStreamsOptions {
  heartbeatMs?: number;
  retryMs?: number;
}

/**
 * Every server-sent event stream this process holds open, whichever application opened it.
 * One timer beats for all of them, so an idle stream costs its connection and nothing else;
 * and on shutdown every stream is told to come back soon (elsewhere) and ended.
 */
export class EventStreams {
  private readonly open = new Set<EventStream>();
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private readonly heartbeatMs: number;
  private readonly retryMs: number;

  constructor(opts: EventStreamsOptions = {}) {
    this.heartbeatMs = opts.heartbeatMs ?? HEARTBEAT_MS;
    this.retryMs = opts.retryMs ?? RETRY_MS;
  }

  /** How many streams are open. */
  get size(): number {
    return this.open.size;
  }

  /**
   * Answers `res` as an event stream. While the server stops, the stream is ended at once
   * with the short retry, and comes back closed.
   */
  start(res: ServerResponse): EventStream {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      // nginx would otherwise hold the events back in its buffer.
      'X-Accel-Buffering': 'no',
    });
    const stream = new EventStream(res);
    if (this.stopping) {
      stream.end(SHUTDOWN_RETRY_MS);
      return stream;
    }
    stream.write(`retry: ${this.retryMs}\n\n`);
    this.open.add(stream);
    stream.onClose(() => {
      this.open.delete(stream);
      if (this.open.size === 0) this.stopBeating();
    });
    this.timer ??= setInterval(() => this.beat(), this.heartbeatMs).unref();
    return stream;
  }

  /** For the server's shutdown: every stream gets the short retry and ends; new ones end at once. */
  closeAll(): void {
    this.stopping = true;
    for (const stream of [...this.open]) stream.end(SHUTDOWN_RETRY_MS);
    this.stopBeating();
  }

  private beat(): void {
    for (const stream of this.open) stream.write(': hb\n\n');
  }

  private stopBeating(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** An event as the event-stream format frames it, to write to one stream or, made once, to many. */
export function eventFrame(name: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** One open stream: events written as the event-stream format frames them. */
export class EventStream {
  private ended = false;
  private readonly closers: (() => void)[] = [];

  constructor(private readonly res: ServerResponse) {
    res.once('close', () => {
      this.ended = true;
      for (const closer of this.closers.splice(0)) closer();
    });
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Runs once the stream has ended, whoever ended it (at once when it already has). */
  onClose(closer: () => void): void {
    if (this.ended) closer();
    else this.closers.push(closer);
  }

  /** One event; `data` goes as one line of JSON. */
  send(name: string, data: unknown, id?: string): void {
    this.write(eventFrame(name, data, id));
  }

  /**
   * Moves the browser's last event id without an event: it resumes from here if the
   * connection breaks before anything is sent.
   */
  position(id: string): void {
    this.write(`id: ${id}\n\n`);
  }

  /** Ends the stream; with `retryMs`, the browser is told to reconnect after that long. */
  end(retryMs?: number): void {
    if (this.ended) return;
    this.ended = true;
    this.res.end(retryMs === undefined ? undefined : `retry: ${retryMs}\n\n`);
  }

  /** Text already framed (eventFrame), as it is. */
  write(text: string): void {
    if (this.ended) return;
    this.res.write(text);
    if (this.res.writableLength > MAX_UNREAD_BYTES) {
      this.ended = true;
      this.res.destroy();
    }
  }
}
