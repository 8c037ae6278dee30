import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openPostgres } from '../../src/platform/db/postgres';
import { copyRecords, CopyRefused, NOT_COPIED, TABLES } from '../../src/tools/db-copy';
import { describePostgres, freshDatabase } from '../support/postgres';
import { buildWorkspace } from '../support/workspace';

/** A store with a little of everything, made through the API, and the settings to copy it into `url`. */
async function populated(url: string) {
  const ws = await buildWorkspace({ engine: 'sqlite' });
  const brand = await ws.brand('Copied brand');
  const manager = await ws.user('manager', { brandIds: [brand.id] });
  const campaign = (await ws.as(manager).post('/api/campaigns').send({ name: 'Spring', brandId: brand.id })).body.campaign;
  for (let i = 0; i < 3; i += 1) await ws.as(manager).post('/api/posts').send({ title: `Post ${i}`, campaignId: campaign.id });
  // The newest post goes: its id must never come back after the copy either.
  const last = (await ws.as(manager).post('/api/posts').send({ title: 'Gone', campaignId: campaign.id })).body.post.id as number;
  await ws.as(manager).delete(`/api/posts/${last}`);
  await ws.as(manager).post('/api/tasks').send({ title: 'Brief', brandId: brand.id, dueDate: '2026-02-01' });
  fs.writeFileSync(path.join(ws.config.dataDir, 'secrets.json'), JSON.stringify({ jwtSecret: 'j'.repeat(64), sessionSecret: 's'.repeat(64) }));
  const config = loadConfig({ DATA_DIR: ws.config.dataDir, UPLOAD_DIR: ws.config.uploadDir, DATABASE_URL: url, LOG_LEVEL: 'silent' });
  return { ws, config, lastPost: last, manager };
}

describe('npm run db:copy, its list of tables', () => {
  it('when a schema step adds a table, then the copy moves it too (or names it as not worth moving)', async () => {
    const ws = await buildWorkspace({ engine: 'sqlite' });
    const tables = (handle: typeof ws.db) =>
      handle.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' AND name <> 'schema_migrations'").pluck().all() as string[];
    const listed = (app: string) => TABLES.filter((t) => t.app === app).map((t) => t.table).sort();
    expect(tables(ws.db).filter((t) => !NOT_COPIED.includes(t)).sort()).toEqual(listed('dashboard'));
    expect(tables(ws.workspaceDb).sort()).toEqual(listed('workspace'));
  });
});

describePostgres('npm run db:copy', () => {
  it('when the database is empty, then every row arrives with its id, ids go on above the highest ever handed out, and the secrets come too', async () => {
    const url = await freshDatabase();
    const { ws, config, lastPost } = await populated(url);
    const lines: string[] = [];
    const counts = await copyRecords(config, (line) => lines.push(line));
    expect(counts['workspace.posts']).toBe(3);
    expect(counts['dashboard.visits']).toBe(0);
    expect(lines).toContain('workspace.posts: 3 rows');
    const pg = openPostgres(url, { max: 1, onError: () => undefined });
    try {
      const source = ws.workspaceDb.prepare('SELECT id, title, created_at FROM posts ORDER BY id').all();
      const copied = await sql<{ id: number; title: string; created_at: string }>`SELECT id, title, created_at FROM workspace.posts ORDER BY id`.execute(pg.db);
      expect(copied.rows).toEqual(source);
      const task = await sql<{ due_date: string }>`SELECT due_date FROM workspace.tasks`.execute(pg.db);
      expect(task.rows).toEqual([{ due_date: '2026-02-01' }]);
      const next = await sql<{ id: number }>`
        INSERT INTO workspace.posts (brand_id, title, status, created_at, updated_at)
        SELECT id, 'After', 'idea', now(), now() FROM workspace.brands LIMIT 1 RETURNING id`.execute(pg.db);
      expect(next.rows[0].id).toBeGreaterThan(lastPost);
      const secrets = await sql<{ name: string; value: string }>`SELECT name, value FROM platform.secrets ORDER BY name`.execute(pg.db);
      expect(secrets.rows).toEqual([
        { name: 'jwtSecret', value: 'j'.repeat(64) },
        { name: 'sessionSecret', value: 's'.repeat(64) },
      ]);
    } finally {
      await pg.close();
    }
  });

  it('when the database already holds records, then it is refused and nothing changes', async () => {
    const url = await freshDatabase();
    const { config } = await populated(url);
    await copyRecords(config, () => undefined);
    await expect(copyRecords(config, () => undefined)).rejects.toThrow(CopyRefused);
    const pg = openPostgres(url, { max: 1, onError: () => undefined });
    try {
      const posts = await sql<{ n: number }>`SELECT count(*) AS n FROM workspace.posts`.execute(pg.db);
      expect(posts.rows[0].n).toBe(3);
    } finally {
      await pg.close();
    }
  });

  it('when a row cannot be stored, then the whole copy is undone and the database stays empty', async () => {
    const url = await freshDatabase();
    const { ws, config } = await populated(url);
    // SQLite keeps whatever text it is given; PostgreSQL refuses it as a day.
    ws.workspaceDb.prepare("UPDATE tasks SET due_date = 'someday'").run();
    await expect(copyRecords(config, () => undefined)).rejects.toThrow();
    const pg = openPostgres(url, { max: 1, onError: () => undefined });
    try {
      for (const table of ['workspace.users', 'workspace.posts', 'dashboard.users', 'platform.secrets']) {
        const rows = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.raw(table)}`.execute(pg.db);
        expect(rows.rows[0].n, table).toBe(0);
      }
    } finally {
      await pg.close();
    }
  });

  it('when DATABASE_URL is not set, then it is refused before anything is opened', async () => {
    const ws = await buildWorkspace({ engine: 'sqlite' });
    await expect(copyRecords(ws.config, () => undefined)).rejects.toThrow(/DATABASE_URL/);
  });
});
