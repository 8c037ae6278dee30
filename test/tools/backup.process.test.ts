import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/app';
import { pdf } from '../support/files';
import { callServer, expectIntactAfterStop, useServerProcesses } from '../support/workspace';

const ROOT = path.resolve(__dirname, '..', '..');
const ADMIN = { email: 'admin@backup.test', password: 'First-start-2026' };
const NEW_PASSWORD = 'Kept-in-backup-1';
const WRITERS = 4;
/** Writes acknowledged before the backup starts; the writers go on while it runs. */
const ACKED_BEFORE_BACKUP = 60;

/** A start makes four years of demo visits, which takes a busy machine a while. */
const STARTUP_MS = 60_000;
const startServer = useServerProcesses();
const start = (env: Record<string, string>) => startServer(env, STARTUP_MS);

/** `node dist/tools/backup.js <folder>` with only the given environment (plus PATH), as `npm run backup -- <folder>` runs it. */
function runBackup(env: Record<string, string>, folder: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['dist/tools/backup.js', folder], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

async function upload(url: string, token: string, brandId: number, data: Buffer, name: string) {
  const form = new FormData();
  form.set('brandId', String(brandId));
  form.set('files', new Blob([new Uint8Array(data)], { type: 'application/pdf' }), name);
  const res = await callServer(url, 'POST', '/api/assets', token, form);
  if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.assets[0].id as number;
}

async function download(url: string, token: string, id: number): Promise<Buffer | number> {
  const res = await fetch(`${url}/api/assets/${id}/download`, { headers: { Authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
  return res.ok ? Buffer.from(await res.arrayBuffer()) : res.status;
}

describe('npm run backup while the server runs (node dist/server.js, SQLite)', { timeout: 240_000 }, () => {
  it('when the backup runs during a steady stream of posts and uploads, then a server started on an empty DATA_DIR and UPLOAD_DIR holding its copy finds every write acknowledged before it began, uploaded bytes included', async () => {
    const dataDir = tempDir('backup-live-');
    const env = { DATA_DIR: dataDir, UPLOAD_DIR: path.join(dataDir, 'uploads'), ADMIN_PIN: '135790', DEFAULT_ADMIN_EMAIL: ADMIN.email, DEFAULT_ADMIN_PASSWORD: ADMIN.password };
    const live = await start(env);
    const login = await callServer(live.url, 'POST', '/api/auth/login', undefined, ADMIN);
    expect(login.status).toBe(200);
    const changed = await callServer(live.url, 'POST', '/api/auth/password', login.body.token, { currentPassword: ADMIN.password, newPassword: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    const token = changed.body.token as string;
    const brandId = changed.body.user.brandIds[0] as number;
    const campaignId = (await callServer(live.url, 'POST', '/api/campaigns', token, { name: 'Backed up', brandId })).body.campaign.id as number;

    const posts = new Map<number, { title: string; at: number }>();
    const files = new Map<number, { data: Buffer; at: number }>();
    let stop = false;
    const postWriter = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const title = `w${w}-${i}`;
        const res = await callServer(live.url, 'POST', '/api/posts', token, { title, campaignId, caption: 'x'.repeat(300) });
        if (res.status !== 201) throw new Error(`a post answered ${res.status}`);
        posts.set(res.body.post.id as number, { title, at: performance.now() });
      }
    };
    const fileWriter = async () => {
      for (let i = 0; !stop; i++) {
        const data = pdf(20_000 + i * 131);
        files.set(await upload(live.url, token, brandId, data, `f${i}.pdf`), { data, at: performance.now() });
      }
    };
    const writing = Promise.all([...Array.from({ length: WRITERS }, (_, w) => postWriter(w)), fileWriter()]);
    try {
      await expect.poll(() => posts.size >= ACKED_BEFORE_BACKUP && files.size >= 3, { timeout: 30_000, interval: 20 }).toBe(true);
      const folder = tempDir('backup-target-');
      const began = performance.now();
      const run = await runBackup(env, folder);
      const ended = performance.now();
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/dashboard\.db: copied and checked/);
      expect(run.stdout).toMatch(/workspace\.db: copied and checked/);
      expect(run.stdout).toMatch(/To restore, stop the server and start it with DATA_DIR=\S+ UPLOAD_DIR=\S+/);
      const during = [...posts.values()].filter((p) => p.at > began && p.at < ended).length;
      expect(during, 'posts acknowledged while the backup ran').toBeGreaterThan(0);

      stop = true;
      await writing;
      const before = {
        posts: [...posts].filter(([, p]) => p.at < began),
        files: [...files].filter(([, f]) => f.at < began),
      };
      expect(before.posts.length).toBeGreaterThanOrEqual(ACKED_BEFORE_BACKUP);

      const [stamp] = fs.readdirSync(folder);
      expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ$/);
      expect(fs.readdirSync(path.join(folder, stamp)).sort()).toEqual(['data', 'uploads']);
      // Restored as an operator would: the two folders copied into empty ones.
      const restored = tempDir('backup-restored-');
      const restoredEnv = { ...env, DATA_DIR: path.join(restored, 'data'), UPLOAD_DIR: path.join(restored, 'files') };
      fs.cpSync(path.join(folder, stamp, 'data'), restoredEnv.DATA_DIR, { recursive: true });
      fs.cpSync(path.join(folder, stamp, 'uploads'), restoredEnv.UPLOAD_DIR, { recursive: true });
      live.child.kill('SIGTERM');
      await live.exited;

      const back = await start(restoredEnv);
      // The token issued before the backup still works: the generated secrets came along.
      expect((await callServer(back.url, 'GET', '/api/auth/me', token)).status).toBe(200);
      const again = await callServer(back.url, 'POST', '/api/auth/login', undefined, { email: ADMIN.email, password: NEW_PASSWORD });
      expect(again.status).toBe(200);
      const stored = new Map<number, string>();
      for (let offset = 0; ; offset += 200) {
        const page = await callServer(back.url, 'GET', `/api/posts?campaignId=${campaignId}&limit=200&offset=${offset}`, token);
        for (const post of page.body.posts) stored.set(post.id, post.title);
        if (page.body.posts.length < 200) break;
      }
      for (const [id, { title }] of before.posts) expect(stored.get(id), `post ${id}`).toBe(title);
      for (const [id, { data }] of before.files) {
        const got = await download(back.url, token, id);
        expect(Buffer.isBuffer(got) && got.equals(data), `upload ${id}: ${Buffer.isBuffer(got) ? `${got.length} bytes` : got}`).toBe(true);
      }
      await expectIntactAfterStop(back, restoredEnv.DATA_DIR);
    } finally {
      stop = true;
      await writing.catch(() => undefined);
    }
  });

  it('when the backup is asked for the PostgreSQL records or a folder it cannot write, then it exits 2 with a line that says why and writes nothing', async () => {
    const dataDir = tempDir('backup-refused-');
    const env = { DATA_DIR: dataDir, UPLOAD_DIR: path.join(dataDir, 'uploads'), ADMIN_PIN: '135790' };
    const live = await start(env);
    const notADir = path.join(tempDir('backup-file-'), 'a-file');
    fs.writeFileSync(notADir, 'x');
    const folder = tempDir('backup-nothing-');

    const cases: [Record<string, string>, string, RegExp][] = [
      [{ ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' }, folder, /PostgreSQL \(DATABASE_URL\): back them up with pg_dump/],
      [{ ...env, S3_BUCKET: 'museum-uploads' }, folder, /bucket museum-uploads \(S3_BUCKET\): keep them with the bucket's versioning/],
      [env, path.join(notADir, 'backups'), /cannot be written to \(ENOTDIR\)/],
      [env, path.join(dataDir, 'backups'), /lies inside DATA_DIR/],
    ];
    for (const [withEnv, into, says] of cases) {
      const run = await runBackup(withEnv, into);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/^backup: /);
      expect(run.stderr).toMatch(says);
      expect(run.stdout).toBe('');
    }
    const none = await runBackup(env, '');
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/npm run backup -- <folder>/);
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'backups'))).toBe(false);
    expect((await fetch(`${live.url}/healthz`)).status).toBe(200);
  });
});
