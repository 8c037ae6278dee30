import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';
import { createHttpServer } from '../../src/platform/http-server';

/** One block of an event stream as the browser's EventSource reads it. */
export interface StreamBlock {
  id?: string;
  event?: string;
  data?: any;
  retry?: number;
  /** Comment lines (`: hb`), without their colon. */
  comments: string[];
}

/** An event: a block with data. */
export type LiveEvent = StreamBlock & { event: string; data: any };

export interface OpenStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The JSON body of an answer that is not a stream. */
  body: any;
  /** Every block received so far, in order. */
  blocks: StreamBlock[];
  /** The events received so far, in order. */
  events(): LiveEvent[];
  /** The last id the stream gave (as EventSource keeps it), from an event or a bare `id:` line. */
  lastId(): string | undefined;
  /**
   * The next event not yet taken by `next` that matches (any event when no test is given);
   * fails after `timeoutMs`, naming what did arrive.
   */
  next(match?: (event: LiveEvent) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  /** The next block (of any kind) not yet taken, including comments and bare ids. */
  nextBlock(match: (block: StreamBlock) => boolean, timeoutMs?: number): Promise<StreamBlock>;
  /** Resolves once the server has ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Serves `app` on a loopback port of its own (the server server.ts makes), closed after the test. */
export async function serve(app: http.RequestListener): Promise<string> {
  const server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Opens an event stream as EventSource does (`Accept: text/event-stream`), closed after the test. */
export function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, (res) => {
      const blocks: StreamBlock[] = [];
      let taken = 0;
      let takenBlocks = 0;
      let buffer = '';
      let raw = '';
      let lastId: string | undefined;
      const waiters = new Set<() => void>();
      const isStream = (res.headers['content-type'] ?? '').startsWith('text/event-stream');
      let finished = false;
      const ended = new Promise<void>((done) => {
        res.on('close', () => {
          finished = true;
          done();
          for (const wake of waiters) wake();
        });
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        if (!isStream) return;
        buffer += chunk;
        let at: number;
        while ((at = buffer.indexOf('\n\n')) !== -1) {
          const text = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const block: StreamBlock = { comments: [] };
          for (const line of text.split('\n')) {
            if (line.startsWith(':')) {
              block.comments.push(line.slice(1).trim());
              continue;
            }
            const colon = line.indexOf(':');
            const field = colon === -1 ? line : line.slice(0, colon);
            const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') lastId = block.id = value;
            else if (field === 'event') block.event = value;
            else if (field === 'data') block.data = JSON.parse(value);
            else if (field === 'retry') block.retry = Number(value);
          }
          blocks.push(block);
        }
        for (const wake of waiters) wake();
      });
      const events = () => blocks.filter((b): b is LiveEvent => b.data !== undefined);
      const waitFor = <T>(find: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> =>
        new Promise((found, fail) => {
          const check = () => {
            const hit = find();
            if (hit !== undefined) {
              cleanup();
              found(hit);
            } else if (finished) {
              cleanup();
              fail(new Error(`the stream ended before ${what()}; it gave ${JSON.stringify(blocks)}`));
            }
          };
          const timer = setTimeout(() => {
            cleanup();
            fail(new Error(`no ${what()} within ${timeoutMs} ms; the stream gave ${JSON.stringify(blocks)}`));
          }, timeoutMs);
          const cleanup = () => {
            clearTimeout(timer);
            waiters.delete(check);
          };
          waiters.add(check);
          check();
        });
      const stream: OpenStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: undefined,
        blocks,
        events,
        lastId: () => lastId,
        next: (match = () => true, timeoutMs = 5_000) =>
          waitFor(
            () => {
              const list = events();
              for (let i = taken; i < list.length; i += 1) {
                if (match(list[i])) {
                  taken = i + 1;
                  return list[i];
                }
              }
              return undefined;
            },
            timeoutMs,
            () => 'matching event',
          ),
        nextBlock: (match, timeoutMs = 5_000) =>
          waitFor(
            () => {
              for (let i = takenBlocks; i < blocks.length; i += 1) {
                if (match(blocks[i])) {
                  takenBlocks = i + 1;
                  return blocks[i];
                }
              }
              return undefined;
            },
            timeoutMs,
            () => 'matching block',
          ),
        ended,
        close: () => req.destroy(),
      };
      onTestFinished(() => {
        req.destroy();
      });
      if (isStream) resolve(stream);
      else
        res.on('end', () => {
          stream.body = raw ? JSON.parse(raw) : undefined;
          resolve(stream);
        });
    });
    req.on('error', reject);
  });
}
