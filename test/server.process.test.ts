import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulatorForTest } from './support/airtable-emulator';
import { tempDir } from './support/app';
import { buildDist, BUILD_HOOK_MS } from './support/workspace';

const ROOT = path.resolve(__dirname, '..');
const ADMIN_PIN = '246810';
const STARTUP_MS = 15_000;
const EXIT_MS = 10_000;

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const running = new Set<ChildProcess>();

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `node dist/server.js` with only the given environment (plus PATH), so nothing leaks in from the test runner. */
function launch(env: Record<string, string>) {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exit = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    /** pino's JSON lines from stdout. */
    logs: () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    exited: (what = 'the server to exit') => bounded(exit, EXIT_MS, what),
  };
}

/** Starts the server on a free port and waits until /healthz answers {ok:true}. */
async function start(env: Record<string, string>) {
  const proc = launch({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
  try {
    const listening = await vi.waitFor(
      () => {
        const line = proc.logs().find((l) => String(l.msg).startsWith('Listening on'));
        if (!line) throw new Error('no "Listening on" line yet');
        return line;
      },
      { timeout: STARTUP_MS, interval: 50 },
    );
    expect(listening.port).toEqual(expect.any(Number));
    const url = `http://127.0.0.1:${listening.port as number}`;
    await vi.waitFor(
      async () => {
        const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ ok: true });
      },
      { timeout: STARTUP_MS, interval: 50 },
    );
    return { ...proc, url };
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- stdout\n${proc.stdout()}\n--- stderr\n${proc.stderr()}`, { cause: err });
  }
}

function dirs() {
  const data = tempDir('museum-process-');
  return { DATA_DIR: data, UPLOAD_DIR: path.join(data, 'uploads') };
}

async function login(url: string, pin: string) {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ pin }),
    signal: AbortSignal.timeout(5_000),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('service_session='))?.split(';')[0];
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, cookie };
}

async function check(url: string, cookie: string) {
  const res = await fetch(`${url}/auth/check`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(5_000) });
  return res.json();
}

beforeAll(buildDist, BUILD_HOOK_MS);

afterEach(async () => {
  const left = [...running];
  for (const child of left) child.kill('SIGKILL');
  await bounded(
    Promise.all(left.map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve))))),
    EXIT_MS,
    'killed servers to exit',
  );
});

describe('the server process (node dist/server.js)', { timeout: 40_000 }, () => {
  it('when started with ADMIN_PIN on port 0, then /healthz is ok and that PIN signs in and the cookie works', async () => {
    const server = await start({ ...dirs(), ADMIN_PIN });
    const { status, body, cookie } = await login(server.url, ADMIN_PIN);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, name: 'Admin', role: 'admin', allowedMuseums: '[]', allowedChannels: '[]' });
    expect(cookie).toMatch(/^service_session=[0-9a-f]{64}$/);
    expect(await check(server.url, cookie!)).toEqual({ authenticated: true, name: 'Admin', role: 'admin', allowedMuseums: '[]', allowedChannels: '[]' });
    expect((await login(server.url, '135790')).status).toBe(401);
    expect(server.stdout()).not.toContain(ADMIN_PIN);
  });

  it('when ADMIN_PIN is unset, then a 6-digit PIN is printed once in the log and it signs in', async () => {
    const server = await start(dirs());
    const line = server.logs().find((l) => /PIN/.test(String(l.msg)))!;
    const pin = /\b(\d{6})\b/.exec(String(line.msg))![1];
    const signedIn = await login(server.url, pin);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.name).toBe('Admin');
    expect((await check(server.url, signedIn.cookie!)).authenticated).toBe(true);
    expect(server.stdout().split(pin).length - 1).toBe(1);
  });

  it('when started, then secrets.json is created with mode 0600 and a restart keeps it', async () => {
    const env = { ...dirs(), ADMIN_PIN };
    const file = path.join(env.DATA_DIR, 'secrets.json');
    const first = await start(env);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const secrets = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(secrets.jwtSecret).toMatch(/^[0-9a-f]{64,}$/);
    expect(secrets.sessionSecret).toMatch(/^[0-9a-f]{64,}$/);
    expect(first.stdout()).not.toContain(secrets.jwtSecret);
    first.child.kill('SIGTERM');
    expect(await first.exited()).toEqual({ code: 0, signal: null });

    const second = await start(env);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(secrets);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await login(second.url, ADMIN_PIN)).status).toBe(200);
  });

  it('when SIGTERM arrives during a request, then that request is answered, new connections are refused and it exits 0 right after', async () => {
    const emulator = await startEmulatorForTest();
    emulator.seed('Users', [{ Id: 1, Name: 'Slow Airtable user', PIN: '1357', Role: 'viewer' }]);
    const server = await start({
      ...dirs(),
      ADMIN_PIN,
      AIRTABLE_API_KEY: emulator.apiKey,
      AIRTABLE_BASE_ID: emulator.baseId,
      AIRTABLE_ENDPOINT_URL: emulator.url,
    });
    expect(server.logs().find((l) => String(l.msg).startsWith('Listening on'))?.users).toBe('airtable');
    emulator.delayMs = 1_500;

    let answeredAt = 0;
    const inFlight = login(server.url, '1357').then((r) => {
      answeredAt = Date.now();
      return r;
    });
    await vi.waitFor(() => expect(emulator.listRequests()).toHaveLength(1), { timeout: 5_000, interval: 20 });
    server.child.kill('SIGTERM');
    await vi.waitFor(() => expect(server.logs().some((l) => String(l.msg).startsWith('shutting down'))).toBe(true), { timeout: 5_000, interval: 20 });
    await expect(fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();

    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.name).toBe('Slow Airtable user');
    const exit = await server.exited();
    // Not the keep-alive idle timeout (5 s): the answered connection is closed at once.
    expect(Date.now() - answeredAt).toBeLessThan(2_500);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.logs().at(-1)?.msg).toBe('stopped');
  });

  it.each([
    ['PORT', 'abc'],
    ['LOG_LEVEL', 'loud'],
    ['ADMIN_PIN', '12ab'],
  ])('when %s=%s, then it exits non-zero printing one line that names the variable', async (name, value) => {
    const proc = launch({ ...dirs(), [name]: value });
    const exit = await proc.exited();
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    const lines = proc.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
    expect(proc.stdout()).toBe('');
  });

  it('when Node is older than the floor better-sqlite3 needs, then it exits 1 naming the Node it needs, before it opens or writes anything', async () => {
    const env = dirs();
    // Node 22.13 is not on this machine; the process is told it is one, before the server's code runs.
    const olderNode = path.join(tempDir('museum-old-node-'), 'older-node.cjs');
    fs.writeFileSync(olderNode, "Object.defineProperty(process, 'version', { value: 'v22.13.1' });\n");
    const proc = launch({ ...env, NODE_OPTIONS: `--require ${olderNode}` });
    expect(await proc.exited()).toEqual({ code: 1, signal: null });
    expect(proc.stderr().trim()).toBe("Museum Platform needs Node >=22.14 (package.json's engines); this is Node v22.13.1. Put a newer Node first on PATH and run it again.");
    expect(proc.stdout()).toBe('');
    expect(fs.existsSync(env.DATA_DIR) ? fs.readdirSync(env.DATA_DIR) : []).toEqual([]);
  });
});
