import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/app';
import { buildDist, startServer, type ServerProcess } from '../support/workspace';

const ADMIN = { email: 'admin@crash.test', password: 'First-start-2026' };
const NEW_PASSWORD = 'After-the-crash-1';
const WORKERS = 8;
/** Writes acknowledged before the kill; the burst goes on while the process dies. */
const ACKED_BEFORE_KILL = 80;

let running: ServerProcess[] = [];

beforeAll(buildDist, 150_000);

afterEach(async () => {
  for (const server of running) server.child.kill('SIGKILL');
  await Promise.all(running.map((s) => s.exited));
  running = [];
});

async function start(env: Record<string, string>) {
  const server = await startServer(env);
  running.push(server);
  return server;
}

async function call(url: string, method: string, path: string, token?: string, body?: object) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(5_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('the workspace under a crash (node dist/server.js, SIGKILL)', { timeout: 60_000 }, () => {
  it('when the process is killed in the middle of a burst of writes, then after a restart every acknowledged write is there and the database is intact', async () => {
    const dataDir = tempDir('workspace-crash-');
    const env = {
      DATA_DIR: dataDir,
      UPLOAD_DIR: path.join(dataDir, 'uploads'),
      ADMIN_PIN: '135790',
      DEFAULT_ADMIN_EMAIL: ADMIN.email,
      DEFAULT_ADMIN_PASSWORD: ADMIN.password,
    };
    const first = await start(env);
    const login = await call(first.url, 'POST', '/api/auth/login', undefined, ADMIN);
    expect(login.status).toBe(200);
    const changed = await call(first.url, 'POST', '/api/auth/password', login.body.token, { currentPassword: ADMIN.password, newPassword: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    const token = changed.body.token as string;
    const brandId = changed.body.user.brandIds[0] as number;
    const campaignId = (await call(first.url, 'POST', '/api/campaigns', token, { name: 'Burst', brandId })).body.campaign.id as number;

    const acked = new Map<number, string>();
    let killed = false;
    let refused = 0;
    const kill = () => {
      if (killed) return;
      killed = true;
      first.child.kill('SIGKILL');
    };
    const worker = async (w: number) => {
      for (let i = 0; ; i++) {
        const title = `w${w}-${i}`;
        try {
          const res = await call(first.url, 'POST', '/api/posts', token, { title, campaignId, caption: 'x'.repeat(500) });
          if (res.status !== 201) throw new Error(`unexpected ${res.status}`);
          acked.set(res.body.post.id, title);
        } catch (err) {
          if (!killed) throw err;
          refused++;
          return;
        }
        if (acked.size >= ACKED_BEFORE_KILL) kill();
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    await first.exited;
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(refused).toBeGreaterThan(0);

    const second = await start(env);
    const again = await call(second.url, 'POST', '/api/auth/login', undefined, { email: ADMIN.email, password: NEW_PASSWORD });
    expect(again.status).toBe(200);
    const stored = new Map<number, string>();
    for (let offset = 0; ; offset += 200) {
      const page = await call(second.url, 'GET', `/api/posts?campaignId=${campaignId}&limit=200&offset=${offset}`, again.body.token);
      for (const post of page.body.posts) stored.set(post.id, post.title);
      if (page.body.posts.length < 200) break;
    }
    for (const [id, title] of acked) expect(stored.get(id), `post ${id}`).toBe(title);
    // Beyond those, at most the writes that were in flight at the kill.
    expect(stored.size).toBeLessThanOrEqual(acked.size + WORKERS);
    // The token issued before the crash still works: secrets and token versions were kept.
    expect((await call(second.url, 'GET', '/api/auth/me', token)).status).toBe(200);

    second.child.kill('SIGTERM');
    await second.exited;
    const db = new Database(path.join(dataDir, 'workspace.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
    } finally {
      db.close();
    }
  });
});
