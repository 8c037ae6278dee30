// Pieces shared by the in-process benchmarks: a plain HTTP client and a server that times
// each request from its arrival to the last byte of the answer.
import http from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const { createHttpServer } = createRequire(import.meta.url)('../dist/platform/http-server.js');

/** One request; `body` may be a string/Buffer, a readable stream, or an array of chunks. */
export function request(url, { method = 'GET', headers = {}, body, agent } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
    if (body && typeof body.pipe === 'function') body.pipe(req);
    else if (Array.isArray(body)) {
      (async () => {
        for (const part of body) if (!req.write(part)) await new Promise((r) => req.once('drain', r));
        req.end();
      })().catch(reject);
    } else req.end(body);
  });
}

/**
 * Serves `app` on loopback, on the application's HTTP server as server.ts makes it;
 * `serverTimes` collects each request's server time in ms.
 */
export async function timedServer(app) {
  const serverTimes = [];
  const server = createHttpServer((req, res) => {
    const start = performance.now();
    res.on('finish', () => serverTimes.push(performance.now() - start));
    app(req, res);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    base,
    agent,
    serverTimes,
    close() {
      agent.destroy();
      server.close();
    },
  };
}

/**
 * The median time of `runs` calls of `fn` after `warmup` unmeasured ones; its answers are
 * summed so that the work cannot be optimised away.
 */
export function timeCall(fn, { warmup, runs }) {
  let sink = 0;
  for (let k = 0; k < warmup; k += 1) sink += Number(fn());
  const times = [];
  for (let k = 0; k < runs; k += 1) {
    const start = performance.now();
    sink += Number(fn());
    times.push(performance.now() - start);
  }
  if (Number.isNaN(sink)) throw new Error('the measured call gave no number');
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
