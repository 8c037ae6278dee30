import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Config } from '../config';
import { CopyRefused, runCommand } from './cli';
import { openPostgres } from '../platform/db/postgres';
import { createLogger } from '../platform/logger';
import type { SecretsTables } from '../platform/secrets';
import { openRecords, type Records } from '../stores';

/**
 * Every table to copy, parents before children, with the column whose highest value the
 * copy's id sequence must pass. The import staging table holds nothing worth keeping
 * (NOT_COPIED); a test holds every other table of both schemas to this list.
 */
/** Tables whose rows are never worth moving. */
export const NOT_COPIED = ['visits_import'];

export const TABLES: { app: 'dashboard' | 'workspace'; table: string; id?: string }[] = [
  { app: 'dashboard', table: 'users', id: 'id' },
  { app: 'dashboard', table: 'seasons', id: 'id' },
  { app: 'dashboard', table: 'visits' },
  { app: 'dashboard', table: 'visits_version' },
  { app: 'dashboard', table: 'id_marks' },
  { app: 'dashboard', table: 'access_stamps' },
  { app: 'dashboard', table: 'audit_events', id: 'id' },
  { app: 'dashboard', table: 'saved_views', id: 'id' },
  { app: 'dashboard', table: 'annotations', id: 'id' },
  { app: 'dashboard', table: 'report_schedules', id: 'id' },
  { app: 'dashboard', table: 'mail_outbox', id: 'id' },
  { app: 'workspace', table: 'users', id: 'id' },
  { app: 'workspace', table: 'brands', id: 'id' },
  { app: 'workspace', table: 'user_brands' },
  { app: 'workspace', table: 'sessions' },
  { app: 'workspace', table: 'campaigns', id: 'id' },
  { app: 'workspace', table: 'tracks', id: 'id' },
  { app: 'workspace', table: 'posts', id: 'id' },
  { app: 'workspace', table: 'assets', id: 'id' },
  { app: 'workspace', table: 'post_attachments' },
  { app: 'workspace', table: 'projects', id: 'id' },
  { app: 'workspace', table: 'tasks', id: 'id' },
  { app: 'workspace', table: 'budget_entries', id: 'id' },
  { app: 'workspace', table: 'comments', id: 'id' },
  { app: 'workspace', table: 'post_events', id: 'id' },
  { app: 'workspace', table: 'notifications', id: 'id' },
  { app: 'workspace', table: 'mail_outbox', id: 'id' },
  { app: 'workspace', table: 'link_tokens', id: 'id' },
  { app: 'workspace', table: 'notification_settings' },
  { app: 'workspace', table: 'notification_digests' },
];

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters for the widest table. */
const BATCH = 2_000;

export { CopyRefused };

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

/**
 * Copies every record of the SQLite store in `config.dataDir` into the empty PostgreSQL
 * database at `config.database`, in one transaction, with the generated secrets, so that
 * sign-ins made before stay valid. Refuses a database that already holds records. Ids keep
 * their values, and each id sequence starts above every id the SQLite store ever handed out.
 */
export async function copyRecords(config: Config, say: (line: string) => void): Promise<Record<string, number>> {
  if (!config.database) throw new CopyRefused('Set DATABASE_URL to the empty PostgreSQL database to copy into');
  for (const file of ['dashboard.db', 'workspace.db']) {
    if (!fs.existsSync(path.join(config.dataDir, file))) throw new CopyRefused(`There is no ${file} in DATA_DIR (${config.dataDir}) to copy from`);
  }
  const logger = createLogger('silent');
  const source = await openRecords({ dataDir: config.dataDir, database: undefined }, logger);
  // Opened once as the server opens it, which makes the schemas, then on a bare pool that can
  // write every schema inside one transaction.
  const target = await openRecords({ dataDir: config.dataDir, database: config.database }, logger);
  const held = await holdsRecords(target).finally(() => target.close());
  // One transaction of every record, outside any request: its statements may take their time.
  const pool = openPostgres(config.database.url, { max: 1, onError: () => undefined, statementTimeoutMs: 10 * 60 * 1000 });
  try {
    if (held) throw new CopyRefused(`The database already holds records (${held}): db:copy only fills an empty one`);
    const counts: Record<string, number> = {};
    // One transaction for everything: a failure anywhere leaves the database as empty as it was.
    await pool.db.transaction().execute(async (trx) => {
      for (const { app, table, id } of TABLES) {
        const from = db(source, app);
        const into = (trx as unknown as AnyDb).withSchema(app);
        if (table === 'visits_version') await into.deleteFrom(table).execute();
        let copied = 0;
        let batch: Record<string, unknown>[] = [];
        const flush = async () => {
          if (batch.length > 0) await into.insertInto(table).values(batch).execute();
          copied += batch.length;
          batch = [];
        };
        for await (const row of from.selectFrom(table).selectAll().stream(BATCH)) {
          batch.push(row);
          if (batch.length === BATCH) await flush();
        }
        await flush();
        if (id) await restartSequence(trx, source, app, table, id);
        counts[`${app}.${table}`] = copied;
        say(`${app}.${table}: ${copied.toLocaleString('en')} rows`);
      }
      await copySecrets(config, trx);
      for (const { app, table } of TABLES) {
        const [stored] = await (trx as unknown as AnyDb).withSchema(app).selectFrom(table).select(sql<number>`count(*)`.as('n')).execute();
        if (stored.n !== counts[`${app}.${table}`]) throw new Error(`${app}.${table}: ${counts[`${app}.${table}`]} rows read, ${String(stored.n)} stored`);
      }
    });
    return counts;
  } finally {
    await source.close();
    await pool.close();
  }
}

function db(records: Records, app: 'dashboard' | 'workspace'): AnyDb {
  return (app === 'dashboard' ? records.dashboard.db : records.workspace.db) as unknown as AnyDb;
}

/** The first table that holds a row, beyond the one row a new schema starts with. */
async function holdsRecords(records: Records): Promise<string | undefined> {
  for (const { app, table } of TABLES) {
    const [row] = await db(records, app).selectFrom(table).select(sql<number>`count(*)`.as('n')).execute();
    const seeded = table === 'visits_version' ? 1 : 0;
    if (row.n > seeded) return `${app}.${table}`;
  }
  return undefined;
}

/** Starts the id sequence above both the highest id copied and any higher one SQLite handed out before (AUTOINCREMENT never reuses). */
async function restartSequence(trx: Kysely<unknown>, source: Records, app: 'dashboard' | 'workspace', table: string, id: string): Promise<void> {
  const [max] = await db(source, app).selectFrom(table).select(sql<number | null>`max(${sql.ref(id)})`.as('n')).execute();
  const seq = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = ${table}`.execute(db(source, app));
  const highest = Math.max(max.n ?? 0, seq.rows[0]?.seq ?? 0);
  await sql`SELECT setval(pg_get_serial_sequence(${`${app}.${table}`}, ${id}), ${highest + 1}, false)`.execute(trx);
}

/** The secrets of secrets.json that the environment does not set, so tokens and cookies made before stay valid. */
async function copySecrets(config: Config, trx: Kysely<unknown>): Promise<void> {
  const file = path.join(config.dataDir, 'secrets.json');
  if (!fs.existsSync(file)) return;
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const rows = Object.entries(stored)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .map(([name, value]) => ({ name, value }));
  if (rows.length === 0) return;
  await (trx as unknown as Kysely<SecretsTables>)
    .withSchema('platform')
    .insertInto('secrets')
    .values(rows)
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute();
}

async function main(): Promise<void> {
  await runCommand(
    'db:copy',
    async (config, progress) => {
      const counts = await copyRecords(config, progress);
      const total = Object.values(counts).reduce((a, b) => a + b, 0);
      return `Copied ${total.toLocaleString('en')} rows from ${config.dataDir} into the database; row counts checked.`;
    },
    'Nothing was written.\n',
  );
}

if (require.main === module) void main();
