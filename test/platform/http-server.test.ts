import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHttpServer, DEFAULT_BODY_PACE, type BodyPace } from '../../src/platform/http-server';

/** Test pace: the rule of production, at a twentieth of its times. */
const FAST_PACE: BodyPace = { graceMs: 500, windowMs: 250, minBytesPerSecond: 1024 };

async function paced(pace: BodyPace) {
  const app = express();
  app.post('/upload', (req, res) => {
    let bytes = 0;
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => res.json({ bytes }));
  });
  const server = createHttpServer(app, { bodyPace: pace });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => {
    server.closeAllConnections();
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

/** Sends a declared body of `total` bytes in `chunk`-byte pieces every `everyMs`; resolves with the answer or how the socket ended. */
function trickle(port: number, total: number, chunk: number, everyMs: number): Promise<{ status?: number; body?: string; closedAfterMs: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let answer = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nConnection: close\r\nContent-Length: ${total}\r\n\r\n`);
      const send = () => {
        if (socket.destroyed || sent >= total) return;
        const n = Math.min(chunk, total - sent);
        socket.write(Buffer.alloc(n, 97));
        sent += n;
        timer = setTimeout(send, everyMs);
      };
      send();
    });
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.1 (\d+)/.exec(answer)?.[1];
      resolve({ status: status ? Number(status) : undefined, body: answer.split('\r\n\r\n')[1], closedAfterMs: Date.now() - started });
    });
    socket.setTimeout(10_000, () => socket.destroy());
  });
}

describe('createHttpServer: request bodies that arrive too slowly', () => {
  it('when nothing is configured, then a body must make 1 KB/s after its first 10 s, and Node\'s own whole-request limit is off', () => {
    expect(DEFAULT_BODY_PACE).toEqual({ graceMs: 10_000, windowMs: 5_000, minBytesPerSecond: 1024 });
    expect(createHttpServer(express()).requestTimeout).toBe(0);
  });

  it('when 200 clients each send a byte now and then, then every one is cut with 408 JSON soon after the grace period', async () => {
    const port = await paced(FAST_PACE);
    const answers = await Promise.all(Array.from({ length: 200 }, () => trickle(port, 1_000_000, 1, 100)));
    for (const answer of answers) {
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body!)).toEqual({ error: expect.any(String), code: 'REQUEST_TIMEOUT' });
      expect(answer.closedAfterMs).toBeLessThan(FAST_PACE.graceMs + 3 * FAST_PACE.windowMs + 1000);
    }
  });

  it('when a body keeps a slow but steady pace well past the grace period, then it is received whole', async () => {
    const port = await paced(FAST_PACE);
    // 4 KB/s for about 2.5 s: four times the minimum, ten windows long.
    const answer = await trickle(port, 10_240, 205, 50);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body!)).toEqual({ bytes: 10_240 });
  });

  it('when a body is fast at first and then stalls, then it is cut once a window passes without progress', async () => {
    const port = await paced(FAST_PACE);
    const started = Date.now();
    const answer = await new Promise<{ status?: number }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n');
        socket.write(Buffer.alloc(50_000, 97));
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]) }));
    });
    expect(answer.status).toBe(408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(FAST_PACE.graceMs);
  });
});
