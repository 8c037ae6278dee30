import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { describeWhenAvailable } from './engine-suite';
import { nginxConfig } from './nginx-config';
import { freePort } from './postgres-server';

const NGINX = '/usr/sbin/nginx';

/** Suites that need Debian's nginx: skipped without it (failed in CI). */
export const describeNginx = describeWhenAvailable(
  fs.existsSync(NGINX) ? undefined : "nginx is not installed: install Debian's package `nginx` (apt-get install nginx) to run these tests",
);

export interface Nginx {
  url: string;
  log(): string;
}

/** Debian's nginx in front of `upstreams` (loopback ports), on a free port of its own, stopped after the test. */
export async function startNginx(upstreams: number[]): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-nginx-'));
  const port = await freePort();
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, nginxConfig({ dir, port, upstreams }));
  const child = spawn(NGINX, ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  onTestFinished(async () => {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const log = () => `${output}${fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`;
  await listening(port, () => child.exitCode !== null, log);
  return { url: `http://127.0.0.1:${port}`, log };
}

/** Resolves once `port` accepts connections; fails when the process exits or 10 s pass. */
async function listening(port: number, gone: () => boolean, log: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (gone() || Date.now() - started > 10_000) throw new Error(`nginx did not start:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
