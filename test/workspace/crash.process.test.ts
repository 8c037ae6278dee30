import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/app';
import { callServer, expectIntactAfterStop, useServerProcesses } from '../support/workspace';

const ADMIN = { email: 'admin@crash.test', password: 'First-start-2026' };
const NEW_PASSWORD = 'After-the-crash-1';
const WORKERS = 8;
/** Writes acknowledged before the kill; the burst goes on while the process dies. */
const ACKED_BEFORE_KILL = 80;

const start = useServerProcesses();

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
    const login = await callServer(first.url, 'POST', '/api/auth/login', undefined, ADMIN);
    expect(login.status).toBe(200);
    const changed = await callServer(first.url, 'POST', '/api/auth/password', login.body.token, { currentPassword: ADMIN.password, newPassword: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    const token = changed.body.token as string;
    const brandId = changed.body.user.brandIds[0] as number;
    const campaignId = (await callServer(first.url, 'POST', '/api/campaigns', token, { name: 'Burst', brandId })).body.campaign.id as number;

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
          const res = await callServer(first.url, 'POST', '/api/posts', token, { title, campaignId, caption: 'x'.repeat(500) });
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
    const again = await callServer(second.url, 'POST', '/api/auth/login', undefined, { email: ADMIN.email, password: NEW_PASSWORD });
    expect(again.status).toBe(200);
    const stored = new Map<number, string>();
    for (let offset = 0; ; offset += 200) {
      const page = await callServer(second.url, 'GET', `/api/posts?campaignId=${campaignId}&limit=200&offset=${offset}`, again.body.token);
      for (const post of page.body.posts) stored.set(post.id, post.title);
      if (page.body.posts.length < 200) break;
    }
    for (const [id, title] of acked) expect(stored.get(id), `post ${id}`).toBe(title);
    // Beyond those, at most the writes that were in flight at the kill.
    expect(stored.size).toBeLessThanOrEqual(acked.size + WORKERS);
    // The token issued before the crash still works: secrets and token versions were kept.
    expect((await callServer(second.url, 'GET', '/api/auth/me', token)).status).toBe(200);

    await expectIntactAfterStop(second, dataDir);
  });
});
