import http from 'node:http';
import net from 'node:net';
import { onTestFinished } from 'vitest';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** `name=value` of every cookie the answer set, ready for a Cookie header. */
  cookies: Record<string, string>;
}

/**
 * One JSON POST on its own connection from the loopback address `from` (any of 127.0.0.0/8
 * on Linux), so that a test can play many clients at once, each with its own address.
 */
export function postFrom(
  baseUrl: string,
  path: string,
  body: unknown,
  opts: { from?: string; cookie?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const url = new URL(path, baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        agent: false,
        localAddress: opts.from,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(payload),
          Origin: baseUrl,
          ...(opts.cookie ? { Cookie: opts.cookie } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const cookies: Record<string, string> = {};
          for (const line of res.headers['set-cookie'] ?? []) {
            const pair = line.split(';')[0];
            cookies[pair.slice(0, pair.indexOf('='))] = pair;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, cookies });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Counts answers by status: `{401: 10, 429: 40}`. */
export function statusCounts(answers: { status: number }[]): Partial<Record<number, number>> {
  const counts: Partial<Record<number, number>> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/**
 * A TCP relay to `target` (host:port) that a test can cut, as a network failure or a stopped
 * server would: `cut` drops every open connection and refuses new ones, `restore` lets them
 * in again. `freeze` stops it passing on anything while keeping every connection open and
 * accepting new ones, as a partition or a frozen server looks to a client; `thaw` ends that.
 */
export async function cuttableRelay(targetHost: string, targetPort: number) {
  const open = new Set<net.Socket>();
  const pairs = new Set<{ client: net.Socket; upstream?: net.Socket }>();
  let cut = false;
  let frozen = false;
  const join = (pair: { client: net.Socket; upstream?: net.Socket }) => {
    const upstream = (pair.upstream ??= connectUpstream(pair));
    pair.client.pipe(upstream).pipe(pair.client);
  };
  const connectUpstream = (pair: { client: net.Socket }) => {
    const { client } = pair;
    const upstream = net.connect(targetPort, targetHost);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
      pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    return upstream;
  };
  const server = net.createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    open.add(client);
    const pair: { client: net.Socket; upstream?: net.Socket } = { client };
    pairs.add(pair);
    if (frozen) {
      client.pause();
      client.on('error', () => client.destroy());
    } else join(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => {
    for (const socket of open) socket.destroy();
    server.close();
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    freeze() {
      frozen = true;
      for (const { client, upstream } of pairs) {
        if (!upstream) continue;
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const pair of pairs) join(pair);
    },
  };
}
