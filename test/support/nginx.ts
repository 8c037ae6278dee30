import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { describeWhenAvailable } from './engine-suite';
import { freePort } from './postgres-server';

const NGINX = '/usr/sbin/nginx';

/** Suites that need Debian's nginx: skipped without it (failed in CI). */
export const describeNginx = describeWhenAvailable(
  fs.existsSync(NGINX) ? undefined : "nginx is not installed: install Debian's package `nginx` (apt-get install nginx) to run these tests",
);

/**
 * The configuration the README gives for several instances, on loopback ports: HTTP/1.1 to
 * the upstreams, nothing buffered, reads that outwait the heartbeat. The answer names the
 * instance that served it (X-Upstream), so a test can tell where a stream is held.
 */
export function nginxConfig(opts: { dir: string; port: number; upstreams: number[] }): string {
  const { dir } = opts;
  return `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
worker_rlimit_nofile 16384;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
daemon off;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream museum {
${opts.upstreams.map((port) => `    server 127.0.0.1:${port} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${opts.port};
    location / {
      proxy_pass http://museum;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_request_buffering off;
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

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
