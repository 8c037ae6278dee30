import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A throwaway PostgreSQL cluster from Debian's `postgresql` package, on a free loopback port,
 * for one test run: made with initdb (as the `postgres` user when the tests run as root,
 * which initdb refuses), tuned for speed over durability, and removed afterwards.
 */
export interface PostgresServer {
  /** Superuser URL of the cluster's `postgres` database. */
  url: string;
  stop(): void;
}

/** The folder of the newest installed PostgreSQL's programs, or undefined when there is none. */
export function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(root, versions[0], 'bin') : undefined;
}

/**
 * The first port the kernel hands out on its own (listen on port 0, or an outgoing connection).
 * Linux's default when the setting cannot be read.
 */
function ephemeralLow(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 1024 ? low : 32768;
  } catch {
    return 32768;
  }
}

function listensOn(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free loopback port for an engine that a test may kill and start again on the same port.
 * It is drawn below the kernel's ephemeral range: in that range, while the engine is down,
 * any other test's server on port 0 (supertest makes one per request) could be given the port,
 * and the engine would fail to bind when it comes back.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  const low = Math.max(1025, high - 12_000);
  for (let tries = 0; tries < 100; tries += 1) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free port between ${String(low)} and ${String(high)}`);
}

/** Runs a PostgreSQL program, as `postgres` when this process is root. */
function run(bin: string, program: string, args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const command = asRoot ? 'runuser' : path.join(bin, program);
  const fullArgs = asRoot ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args;
  const result = spawnSync(command, fullArgs, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout || result.error?.message}`);
}

export async function startPostgres(bin: string): Promise<PostgresServer> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-pg-'));
  const data = path.join(home, 'data');
  fs.mkdirSync(data);
  if (process.getuid?.() === 0) {
    const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()));
    fs.chownSync(home, uid, gid);
    fs.chownSync(data, uid, gid);
  }
  const port = await freePort();
  run(bin, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const options = [
    `-p ${port}`,
    `-k ${home}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=300',
  ].join(' ');
  run(bin, 'pg_ctl', ['-D', data, '-o', options, '-l', path.join(home, 'log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(home, { recursive: true, force: true });
      }
    },
  };
}
