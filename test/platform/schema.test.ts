import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { dashboardMigrations } from '../../src/dashboard/migrations';
import { migrateToLatest, type SchemaStep } from '../../src/platform/db/migrate';
import { openPostgres } from '../../src/platform/db/postgres';
import { applyLegacySql, openSqlite } from '../../src/platform/db/sqlite';
import { MIGRATIONS_DIR } from '../../src/platform/paths';
import { workspaceMigrations } from '../../src/workspace/migrations';
import { tempDir } from '../support/app';
import { describePostgres, freshDatabase } from '../support/postgres';

const APPS = { dashboard: dashboardMigrations, workspace: workspaceMigrations };

type Handle = ReturnType<typeof openSqlite>['handle'];

/** Every table's columns and every index, as SQLite describes them, to compare two databases. */
function shape(handle: Handle) {
  const tables = handle.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' AND name <> 'schema_migrations' ORDER BY name").pluck().all() as string[];
  return Object.fromEntries(
    tables.map((table) => [
      table,
      {
        columns: (handle.pragma(`table_info(${table})`) as { name: string; type: string; notnull: number; pk: number; dflt_value: unknown }[])
          .map((c) => `${c.name} ${c.type.toLowerCase()}${c.notnull ? ' not null' : ''}${c.pk ? ` pk${c.pk}` : ''}${c.dflt_value === null ? '' : ` default ${(c.dflt_value as string | number).toString().replace(/'/g, '')}`}`)
          .sort(),
        indexes: (handle.pragma(`index_list(${table})`) as { name: string; unique: number }[])
          .filter((i) => !i.name.startsWith('sqlite_autoindex'))
          .map((i) => `${i.name}${i.unique ? ' unique' : ''}: ${(handle.pragma(`index_info(${i.name})`) as { name: string | null }[]).map((c) => c.name ?? 'expression').join(',')}`)
          .sort(),
        foreignKeys: (handle.pragma(`foreign_key_list(${table})`) as { table: string; from: string; to: string; on_delete: string }[])
          .map((f) => `${f.from} -> ${f.table}.${f.to} on delete ${f.on_delete}`)
          .sort(),
        autoincrement: /AUTOINCREMENT/i.test(handle.prepare("SELECT sql FROM sqlite_master WHERE name = ?").pluck().get(table) as string),
      },
    ]),
  );
}

/** The first step alone: the one that a database made by the SQL history already has. */
function firstStep(steps: Record<string, SchemaStep>): Record<string, SchemaStep> {
  const [name] = Object.keys(steps).sort();
  return { [name]: steps[name] };
}

describe.each(Object.entries(APPS))('the %s schema on SQLite', (app, steps) => {
  it('when a new database is made by the first step, then it has the same tables, columns, keys and indexes as one made by the SQL history', async () => {
    const fresh = openSqlite(':memory:');
    await migrateToLatest(fresh, firstStep(steps), undefined);
    const legacy = openSqlite(':memory:');
    applyLegacySql(legacy.handle, path.join(MIGRATIONS_DIR, app));
    expect(shape(fresh.handle)).toEqual(shape(legacy.handle));
    await fresh.db.destroy();
    await legacy.db.destroy();
  });

  it('when a database made by the SQL history is opened, then the first step changes nothing and the later steps bring it to the shape of a new one', async () => {
    const file = path.join(tempDir(), `${app}.db`);
    const old = openSqlite(file);
    applyLegacySql(old.handle, path.join(MIGRATIONS_DIR, app));
    const before = shape(old.handle);
    await old.db.destroy();
    const reopened = openSqlite(file, path.join(MIGRATIONS_DIR, app));
    expect(await migrateToLatest(reopened, firstStep(steps), undefined)).toEqual(Object.keys(firstStep(steps)));
    expect(shape(reopened.handle)).toEqual(before);
    await migrateToLatest(reopened, steps, undefined);
    const fresh = openSqlite(':memory:');
    await migrateToLatest(fresh, steps, undefined);
    expect(shape(reopened.handle)).toEqual(shape(fresh.handle));
    await reopened.db.destroy();
    await fresh.db.destroy();
  });
});

describePostgres('the schemas on PostgreSQL', () => {
  it('when five instances start together, then each step is applied once, in its own schema per application', async () => {
    const url = await freshDatabase();
    const pools = Array.from({ length: 5 }, () => openPostgres(url, { max: 2, onError: () => undefined }));
    try {
      const applied = await Promise.all(
        pools.flatMap((p) =>
          Object.entries(APPS).map(([app, steps]) => migrateToLatest({ db: p.db.withSchema(app), engine: { kind: 'postgres' } as never }, steps, app)),
        ),
      );
      expect(applied.flat().sort()).toEqual(Object.values(APPS).flatMap((steps) => Object.keys(steps)).sort());
      const tables = await sql<{ schema: string; table: string }>`
        SELECT table_schema AS schema, table_name AS table FROM information_schema.tables
        WHERE table_schema IN ('dashboard', 'workspace') AND table_name NOT LIKE 'kysely%' ORDER BY 1, 2`.execute(pools[0].db);
      expect(tables.rows.filter((r) => r.schema === 'dashboard').map((r) => r.table)).toEqual(['access_stamps', 'annotations', 'audit_events', 'id_marks', 'mail_outbox', 'report_schedules', 'saved_views', 'seasons', 'users', 'visits', 'visits_import', 'visits_version']);
      expect(tables.rows.filter((r) => r.schema === 'workspace').map((r) => r.table)).toContain('post_attachments');
    } finally {
      await Promise.all(pools.map((p) => p.close()));
    }
  });
});
