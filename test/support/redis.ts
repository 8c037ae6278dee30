import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { describe, onTestFinished } from 'vitest';
import { freePort } from './postgres-server';

const REDIS_SERVER = '/usr/bin/redis-server';
const missing = fs.existsSync(REDIS_SERVER) ? undefined : "Redis is not installed: install Debian's package `redis-server` (apt-get install redis-server) to run these tests";

/**
 * Suites that need Redis. Without it they are skipped and say why; in CI (CI=true) a missing
 * Redis fails the run instead of skipping.
 */
export const describeRedis: typeof describe = !missing
  ? describe
  : process.env.CI
    ? (((name: string) =>
        describe(name, () => {
          throw new Error(missing);
        })) as typeof describe)
    : (describe.skip as typeof describe);

if (missing && !process.env.CI) console.warn(missing);

export interface RedisServer {
  url: string;
  /** Stops the server as a crash would; `start` brings it back on the same port, empty. */
  kill(): void;
  start(): Promise<void>;
}

/** A Redis server of the current test's own, on a free loopback port, in memory only, stopped when the test finishes. */
export async function freshRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ReturnType<typeof spawn> | undefined;
  const start = async () => {
    const started = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start within 5 s')), 5_000);
      started.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${String(code)}`));
      });
    });
  };
  const kill = () => {
    child?.kill('SIGKILL');
    child = undefined;
  };
  await start();
  onTestFinished(kill);
  return { url: `redis://127.0.0.1:${port}`, kill, start };
}
