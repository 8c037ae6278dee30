import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqlIdMarks } from '../../src/dashboard/users/repository';
import { describeEngines, testRecords } from '../support/records';
import { MIGRATIONS_DIR } from '../../src/platform/paths';
import { applyLegacySql } from '../../src/platform/db/sqlite';
import { tempDir } from '../support/app';

/** A database with only the migrations of `app` before `stop` applied, as an older release left it. */
function olderDatabase(app: string, stop: string): Database.Database {
  const dir = tempDir();
  const older = path.join(dir, 'older');
  fs.mkdirSync(older);
  for (const file of fs.readdirSync(path.join(MIGRATIONS_DIR, app)).filter((f) => f < stop)) {
    fs.copyFileSync(path.join(MIGRATIONS_DIR, app, file), path.join(older, file));
  }
  const db = new Database(path.join(dir, `${app}.db`));
  db.pragma('foreign_keys = ON');
  applyLegacySql(db, older);
  return db;
}

/** A database brought up to date by the whole SQL history of `app`, the way releases before the query builder opened it. */
function openDatabase(file: string, app: string): Database.Database {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  applyLegacySql(db, path.join(MIGRATIONS_DIR, app));
  return db;
}

describe('migration 005 of the workspace: ids never reused', () => {
  it('when an older database is migrated, then every row, id and reference is kept and members get distinct token keys', async () => {
    const db = olderDatabase('workspace', '005');
    const at = '2026-01-01T00:00:00.000Z';
    db.exec(`
      INSERT INTO brands (id, name, created_at) VALUES (1, 'B', '${at}');
      INSERT INTO users (id, name, email, password_hash, role, created_at) VALUES
        (1, 'A', 'a@x.test', 'h', 'superadmin', '${at}'), (4, 'D', 'd@x.test', 'h', 'manager', '${at}');
      INSERT INTO user_brands VALUES (1, 1), (4, 1);
      INSERT INTO sessions VALUES ('sid', 4, '{}', 9999999999999);
      INSERT INTO campaigns (id, brand_id, name, status, owner_id, created_at, updated_at) VALUES (7, 1, 'C', 'active', 4, '${at}', '${at}');
      INSERT INTO posts (id, brand_id, campaign_id, title, status, owner_id, created_at, updated_at) VALUES (9, 1, 7, 'P', 'idea', 4, '${at}', '${at}');
      INSERT INTO tracks (id, campaign_id, name, created_at, updated_at) VALUES (3, 7, 'T', '${at}', '${at}');
      INSERT INTO tasks (id, brand_id, title, status, priority, visibility, assignee_id, post_id, owner_id, created_at, updated_at)
        VALUES (5, 1, 'K', 'todo', 'low', 'brand', 4, 9, 1, '${at}', '${at}');
    `);
    db.close();
    const migrated = openDatabase(db.name, 'workspace');
    try {
      expect(migrated.prepare('SELECT id FROM users ORDER BY id').pluck().all()).toEqual([1, 4]);
      const keys = migrated.prepare('SELECT token_key FROM users').pluck().all() as string[];
      expect(new Set(keys).size).toBe(2);
      for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
      expect(migrated.prepare('SELECT * FROM tasks').get()).toMatchObject({ id: 5, assignee_id: 4, post_id: 9, owner_id: 1 });
      expect(migrated.pragma('foreign_key_check')).toEqual([]);
      expect(migrated.pragma('foreign_keys', { simple: true })).toBe(1);

      // References still act: deleting the member clears ownership and ends the session.
      migrated.prepare('DELETE FROM users WHERE id = 4').run();
      expect(migrated.prepare('SELECT owner_id FROM posts WHERE id = 9').pluck().get()).toBeNull();
      expect(migrated.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(0);
      // ...and the deleted member's id is never handed out again.
      const next = migrated
        .prepare("INSERT INTO users (name, email, password_hash, role, created_at, token_key) VALUES ('N', 'n@x.test', 'h', 'manager', 'x', 'k') RETURNING id")
        .pluck()
        .get();
      expect(next).toBe(5);
      migrated.prepare('DELETE FROM posts WHERE id = 9').run();
      expect(migrated.prepare("INSERT INTO posts (brand_id, title, status, created_at, updated_at) VALUES (1, 'Q', 'idea', 'x', 'x') RETURNING id").pluck().get()).toBe(10);
    } finally {
      migrated.close();
    }
  });

  it('when two members\' emails differ only in case, then the database refuses the second', () => {
    const db = openDatabase(':memory:', 'workspace');
    const insert = db.prepare("INSERT INTO users (name, email, password_hash, role, created_at, token_key) VALUES ('N', ?, 'h', 'manager', 'x', ?)");
    insert.run('same@x.test', 'k1');
    expect(() => insert.run('SAME@x.test', 'k2')).toThrow(/UNIQUE/);
    db.close();
  });
});

describe('migration 003 of the dashboard', () => {
  it('when an older database is migrated, then users and seasons keep their ids and a deleted top id is not reused', () => {
    const db = olderDatabase('dashboard', '003');
    db.exec(`
      INSERT INTO users (id, name, pin, role) VALUES (2, 'A', '1234', 'viewer'), (6, 'B', '5678', 'admin');
      INSERT INTO seasons (id, name, start_date, end_date) VALUES (3, 'S', '2025-01-01', '2025-02-01');
    `);
    db.close();
    const migrated = openDatabase(db.name, 'dashboard');
    try {
      expect(migrated.prepare('SELECT id, pin FROM users ORDER BY id').all()).toEqual([
        { id: 2, pin: '1234' },
        { id: 6, pin: '5678' },
      ]);
      migrated.prepare('DELETE FROM users WHERE id = 6').run();
      expect(migrated.prepare("INSERT INTO users (name, pin) VALUES ('C', '999999') RETURNING id").pluck().get()).toBe(7);
      expect(() => migrated.prepare("INSERT INTO users (name, pin) VALUES ('D', '1234')").run()).toThrow(/UNIQUE/);
    } finally {
      migrated.close();
    }
  });
});

describeEngines('SqlIdMarks', (kind) => {
  it('when ids are claimed, then each claim is above every earlier one and at least what was asked', async () => {
    const marks = new SqlIdMarks((await testRecords(kind)).dashboard);
    expect(await marks.claim('users', 5)).toBe(5);
    expect(await marks.claim('users', 3)).toBe(6);
    expect(await marks.claim('users', 10)).toBe(10);
    expect(await marks.claim('other', 1)).toBe(1);
  });

  it('when two claims run at once, then they get different ids', async () => {
    const marks = new SqlIdMarks((await testRecords(kind)).dashboard);
    const ids = await Promise.all(Array.from({ length: 10 }, () => marks.claim('users', 1)));
    expect(new Set(ids).size).toBe(10);
  });
});
