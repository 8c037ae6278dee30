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

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
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
