import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { tempDir } from '../support/app';
import { freePort } from '../support/postgres-server';
import { describePostgres, freshDatabase } from '../support/postgres';
import { useServerProcesses } from '../support/workspace';

const start = useServerProcesses();
/** A server that migrates and fills a fresh database takes its time on a busy machine. */
const START_MS = 60_000;
const ADMIN = { email: 'admin@pg.test', password: 'First-start-2026' };

function env(database: string, dataDir: string) {
  return { DATABASE_URL: database, DATA_DIR: dataDir, UPLOAD_DIR: path.join(dataDir, 'uploads'), DEFAULT_ADMIN_EMAIL: ADMIN.email, DEFAULT_ADMIN_PASSWORD: ADMIN.password, ADMIN_PIN: '48151623' };
}

describePostgres('the server on PostgreSQL (DATABASE_URL)', () => {
  it('when it runs and restarts with an empty DATA_DIR, then it wrote no SQLite file and sign-ins made before stay valid', async () => {
    const database = await freshDatabase();
    const first = tempDir();
    let server = await start(env(database, first), START_MS);
    const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('workspace_session='))!.split(';')[0];
    server.child.kill('SIGTERM');
    await server.exited;
    expect(fs.readdirSync(first).filter((f) => /\.db(-wal|-shm)?$|secrets\.json/.test(f))).toEqual([]);

    server = await start(env(database, tempDir()), START_MS);
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it('when the database cannot be reached at start, then one clear line and a non-zero exit', async () => {
    const dataDir = tempDir();
    const result = spawnSync(process.execPath, ['dist/server.js'], {
      cwd: path.resolve(__dirname, '..', '..'),
      env: { PATH: process.env.PATH ?? '', PORT: '0', ...env(`postgres://postgres@127.0.0.1:${await freePort()}/nowhere`, dataDir) },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).not.toBe(0);
    const lines = `${result.stdout}${result.stderr}`.trim().split('\n').filter((l) => l.includes('"level":60') || /DATABASE_URL/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('DATABASE_URL');
  });
});
