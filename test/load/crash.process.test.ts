import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from '../support/app';
import { filesUnder, image, pdf } from '../support/files';
import { callServer, expectIntactAfterStop, useServerProcesses } from '../support/workspace';

const ADMIN = { email: 'admin@kill.test', password: 'First-start-2026' };
const NEW_PASSWORD = 'After-the-kill-1';
const WRITERS = 4;
const UPLOADERS = 3;
/** Acknowledged posts and uploads before the kill, while more of both are in flight. */
const ACKED_POSTS = 40;
const ACKED_UPLOADS = 6;
const BIG_FILE = 2_000_000;

const start = useServerProcesses();

function form(fields: Record<string, string>, files: { name: string; data: Buffer }[]): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  for (const f of files) data.append('files', new Blob([new Uint8Array(f.data)]), f.name);
  return data;
}

/**
 * An upload sent slowly by hand: its first file goes out at once, the rest only when
 * `finish` is called, so the server is caught in the middle of it.
 */
function slowUpload(url: string, token: string, brandId: number, files: Buffer[]) {
  const boundary = `kill-${randomBytes(6).toString('hex')}`;
  const head = (i: number) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big-${i}.pdf"\r\n\r\n`);
  const parts: Buffer[] = [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="brandId"\r\n\r\n${brandId}\r\n`)];
  files.forEach((f, i) => parts.push(head(i), f, Buffer.from('\r\n')));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const body = Buffer.concat(parts);
  const req = http.request(`${url}/api/assets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length },
  });
  const answered = new Promise<number | 'cut'>((resolve) => {
    req.on('response', (res) => resolve(res.statusCode ?? 0));
    req.on('error', () => resolve('cut'));
  });
  const firstFileEnd = parts[0].length + head(0).length + files[0].length;
  req.write(body.subarray(0, firstFileEnd));
  return { answered, finish: () => req.end(body.subarray(firstFileEnd)) };
}

/** The keys of every stored file the assets table names. */
function keysInDatabase(db: Database.Database): string[] {
  const rows = db.prepare('SELECT file_key, thumbnail_key FROM assets').raw().all() as [string, string | null][];
  return rows
    .flat()
    .filter((k): k is string => k !== null)
    .sort();
}

describe('the workspace killed with SIGKILL during writes and uploads, then restarted on the same folders', { timeout: 90_000 }, () => {
  it('when restarted, then the database is intact, every acknowledged post and upload is there, and no file lacks a row or row a file', async () => {
    const dataDir = tempDir('workspace-kill-');
    const uploadDir = path.join(dataDir, 'uploads');
    const env = { DATA_DIR: dataDir, UPLOAD_DIR: uploadDir, ADMIN_PIN: '135790', DEFAULT_ADMIN_EMAIL: ADMIN.email, DEFAULT_ADMIN_PASSWORD: ADMIN.password };
    const first = await start(env);
    const login = await callServer(first.url, 'POST', '/api/auth/login', undefined, ADMIN);
    const changed = await callServer(first.url, 'POST', '/api/auth/password', login.body.token, { currentPassword: ADMIN.password, newPassword: NEW_PASSWORD });
    expect(changed.status).toBe(200);
    const token = changed.body.token as string;
    const brandId = changed.body.user.brandIds[0] as number;
    const campaignId = (await callServer(first.url, 'POST', '/api/campaigns', token, { name: 'Kill', brandId })).body.campaign.id as number;
    const picture = await image('png', 400, 300);

    /** Each acknowledged post and the statuses it may have: the acknowledged one, or one in flight. */
    const posts = new Map<number, string[]>();
    const assets = new Map<number, number>();
    let killed = false;
    let cutShort = 0;
    const untilKilled = async (work: () => Promise<void>) => {
      for (;;) {
        try {
          await work();
        } catch (err) {
          if (!killed) throw err;
          cutShort += 1;
          return;
        }
      }
    };
    const writer = (w: number) =>
      untilKilled(async () => {
        const created = await callServer(first.url, 'POST', '/api/posts', token, { title: `w${w}-${posts.size}`, campaignId });
        expect(created.status).toBe(201);
        // A move in flight at the kill may or may not have landed; either is acceptable.
        posts.set(created.body.post.id, ['idea', 'review']);
        const moved = await callServer(first.url, 'PATCH', `/api/posts/${created.body.post.id}`, token, { status: 'review' });
        expect(moved.status).toBe(200);
        posts.set(created.body.post.id, ['review']);
      });
    const uploader = (u: number) =>
      untilKilled(async () => {
        const files = [
          { name: `u${u}.png`, data: picture },
          { name: `u${u}.pdf`, data: pdf(20_000) },
        ];
        const res = await callServer(first.url, 'POST', '/api/assets', token, form({ brandId: String(brandId), campaignId: String(campaignId) }, files));
        expect(res.status).toBe(201);
        for (const asset of res.body.assets) assets.set(asset.id, asset.size);
      });
    const load = Promise.all([...Array.from({ length: WRITERS }, (_, w) => writer(w)), ...Array.from({ length: UPLOADERS }, (_, u) => uploader(u))]);

    await vi.waitFor(() => expect(posts.size >= ACKED_POSTS && assets.size >= ACKED_UPLOADS).toBe(true), { timeout: 30_000, interval: 20 });
    // One upload is half sent: its first file is being written when the process dies.
    const big = slowUpload(first.url, token, brandId, [pdf(BIG_FILE), pdf(BIG_FILE)]);
    const partials = path.join(uploadDir, '.partial');
    const bigPartial = () => fs.readdirSync(partials).some((f) => (fs.statSync(path.join(partials, f), { throwIfNoEntry: false })?.size ?? 0) >= BIG_FILE / 2);
    await vi.waitFor(() => expect(bigPartial()).toBe(true), { timeout: 10_000, interval: 10 });
    killed = true;
    first.child.kill('SIGKILL');
    big.finish();
    await first.exited;
    await load;
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(await big.answered).toBe('cut');
    expect(cutShort).toBeGreaterThan(0);

    // What a kill between a file's move into place and its row's commit leaves behind.
    const orphan = `${randomBytes(16).toString('hex')}.pdf`;
    fs.writeFileSync(path.join(uploadDir, orphan), pdf(1_000));
    fs.mkdirSync(path.join(uploadDir, '.partial'), { recursive: true });
    fs.writeFileSync(path.join(uploadDir, '.partial', `${orphan}.half`), pdf(500));

    const second = await start(env);
    const again = await callServer(second.url, 'POST', '/api/auth/login', undefined, { email: ADMIN.email, password: NEW_PASSWORD });
    expect(again.status).toBe(200);
    const reader = again.body.token as string;
    for (const [id, statuses] of posts) {
      const stored = await callServer(second.url, 'GET', `/api/posts/${id}`, reader);
      expect(stored.status, `post ${id}`).toBe(200);
      expect(statuses, `post ${id}`).toContain(stored.body.post.status);
    }
    for (const [id, size] of assets) {
      const stored = await callServer(second.url, 'GET', `/api/assets/${id}`, reader);
      expect(stored.status, `asset ${id}`).toBe(200);
      const file = await fetch(`${second.url}${stored.body.asset.url}`, { headers: { Authorization: `Bearer ${reader}` } });
      expect(file.status).toBe(200);
      expect((await file.arrayBuffer()).byteLength).toBe(size);
    }

    await expectIntactAfterStop(second, dataDir, (db) => {
      // Every stored file has its row and every row its files; nothing half-written is left.
      expect(filesUnder(uploadDir)).toEqual(keysInDatabase(db));
    });
    expect(second.output()).toContain('removed stored files that no asset names');
  });
});
