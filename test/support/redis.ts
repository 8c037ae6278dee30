import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  /** Stops the server as a crash would; `start` brings it back on the same port (empty unless persistent). */
  kill(): void;
  /** Stops the server as its operator would (SIGTERM), waiting until it has exited. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the process where it stands (SIGSTOP), as a partition looks to its clients: connections stay open, nothing is answered. */
  freeze(): void;
  /** Lets a frozen process go on (SIGCONT). */
  thaw(): void;
}

/**
 * A Redis server of the current test's own, on a free loopback port, stopped when the test
 * finishes: in memory only, or `persistent` with an append-only file (as the README advises
 * running it), so that a restart keeps what was written.
 */
export async function freshRedis(opts: { persistent?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = opts.persistent ? fs.mkdtempSync(path.join(os.tmpdir(), 'museum-redis-')) : undefined;
  const storage = dir ? ['--dir', dir, '--appendonly', 'yes', '--save', ''] : ['--save', '', '--appendonly', 'no'];
  let child: ReturnType<typeof spawn> | undefined;
  // A killed server may still hold the port for a moment: a restart waits until it has exited,
  // or the new one would fail to bind and exit at once.
  let previousExit: Promise<unknown> = Promise.resolve();
  const launch = async () => {
    await previousExit;
    const started = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', ...storage, '--protected-mode', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    previousExit = new Promise((resolve) => started.once('exit', resolve));
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start within 5 s')), 5_000);
      started.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      started.on('exit', (code) => {
        clearTimeout(timer);
        reject(Object.assign(new Error(`redis-server exited with ${String(code)}: ${output.trim().split('\n').slice(-3).join(' | ')}`), { output }));
      });
    });
  };
  // The port is drawn where only another test's engine could take it; should that happen while
  // this one is down, the restart waits for the port a little rather than fail the test.
  const start = async () => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await launch();
        return;
      } catch (error) {
        const inUse = String((error as { output?: string }).output).includes('Address already in use');
        if (!inUse || attempt === 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };
  const kill = () => {
    child?.kill('SIGKILL');
    child = undefined;
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGCONT');
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  onTestFinished(() => {
    kill();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    kill,
    stop,
    start,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
  };
}
