import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventStreams, MAX_UNREAD_BYTES, SHUTDOWN_RETRY_MS } from '../../src/platform/sse';
import { openStream, serve } from '../support/events';

/** A server whose every request becomes a stream of `streams`. */
async function streamsServer(streams: EventStreams) {
  const held: ReturnType<EventStreams['start']>[] = [];
  const url = await serve((_req, res) => {
    held.push(streams.start(res));
  });
  return { url, held };
}

describe('EventStreams', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('when many streams are open, then one timer beats for all of them, a comment line each time, and it stops when the last closes', async () => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const clearInterval = vi.spyOn(globalThis, 'clearInterval');
    const streams = new EventStreams({ heartbeatMs: 20 });
    const { url } = await streamsServer(streams);
    const clients = await Promise.all(Array.from({ length: 20 }, () => openStream(url)));
    for (const client of clients) expect(await client.nextBlock((b) => b.comments.includes('hb'))).toMatchObject({ comments: ['hb'] });
    expect(setInterval).toHaveBeenCalledTimes(1);
    expect(streams.size).toBe(20);
    for (const client of clients) client.close();
    await vi.waitFor(() => expect(streams.size).toBe(0));
    expect(clearInterval).toHaveBeenCalled();
  });

  it('when the server stops, then every stream is told to come back after 500 ms and ended, and a stream asked for afterwards gets the same at once', async () => {
    const streams = new EventStreams();
    const { url } = await streamsServer(streams);
    const [a, b] = [await openStream(url), await openStream(url)];
    await a.nextBlock((block) => block.retry === 3000);
    streams.closeAll();
    for (const client of [a, b]) {
      await client.ended;
      expect(client.blocks.at(-1)).toMatchObject({ retry: SHUTDOWN_RETRY_MS });
    }
    const late = await openStream(url);
    await late.ended;
    expect(late.status).toBe(200);
    expect(late.blocks).toEqual([{ comments: [], retry: SHUTDOWN_RETRY_MS }]);
  });

  it('when events are sent, then each is framed with its id, name and one line of JSON; a bare position moves the id without an event', async () => {
    const streams = new EventStreams();
    const { url, held } = await streamsServer(streams);
    const client = await openStream(url);
    await vi.waitFor(() => expect(held).toHaveLength(1));
    held[0].position('abc.1-0');
    held[0].send('post', { id: 1, text: 'two\nlines' }, 'abc.2-0');
    expect(await client.next()).toEqual({ comments: [], id: 'abc.2-0', event: 'post', data: { id: 1, text: 'two\nlines' } });
    expect(client.blocks.map((b) => b.id)).toEqual([undefined, 'abc.1-0', 'abc.2-0']);
  });

  it('when a client reads nothing while more than the limit piles up, then its stream is dropped rather than kept in memory', async () => {
    const streams = new EventStreams();
    const { url, held } = await streamsServer(streams);
    const client = await openStream(url);
    await vi.waitFor(() => expect(held).toHaveLength(1));
    const stream = held[0];
    // Sent in one go, the client gets no turn to read: past the sockets' own buffers, it piles up in the server's.
    const big = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 1024 && !stream.closed; i += 1) stream.send('big', big);
    expect(stream.closed).toBe(true);
    await client.ended;
    await vi.waitFor(() => expect(streams.size).toBe(0));
    expect(MAX_UNREAD_BYTES).toBeLessThan(1024 * big.length);
  });
});
