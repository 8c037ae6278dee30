import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { searchFoldTranslation } from '../text';
import type { BulkRows, Engine } from './engine';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

function unreachable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  // 08: connection exceptions; 57P01-57P03: the server is shutting down or starting up.
  if (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error/.test(message);
}

export const postgresEngine: Engine = {
  kind: 'postgres',
  isUniqueViolation: (err) => (err as { code?: unknown } | null)?.code === '23505',
  isForeignKeyViolation: (err) => (err as { code?: unknown } | null)?.code === '23503',
  isUnreachable: unreachable,
  locksRows: true,
  greatest: (a, b) => sql<number>`greatest(${a}, ${b})`,
  searchFolded: (text) => sql<string | null>`translate(lower(${text}), ${searchFoldTranslation.from}, ${searchFoldTranslation.to})`,
};

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

const ESCAPED = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value as a field of COPY's text format: tabs, newlines and backslashes escaped, null as \N. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // Most text needs no escape: testing first spares a replace per field of a million rows.
  return ESCAPED.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]) : text;
}

const UNESCAPES: Record<string, string> = { '\\': '\\', t: '\t', n: '\n', r: '\r', b: '\b', f: '\f', v: '\v' };

/** A field of COPY's text format as the value it stands for: \N is null, escapes undone. */
function fromCopyField(field: string): string | null {
  if (field === '\\N') return null;
  return field.includes('\\') ? field.replace(/\\(.)/g, (_, c: string) => UNESCAPES[c] ?? c) : field;
}

/** `rows` as COPY's text format, some thousands of lines per chunk: a chunk per line costs more than the COPY itself. */
function copyLines(rows: Iterable<readonly unknown[]>): Readable {
  return Readable.from(
    (function* () {
      let lines: string[] = [];
      for (const row of rows) {
        lines.push(`${row.map(copyField).join('\t')}\n`);
        if (lines.length === 2_000) {
          yield lines.join('');
          lines = [];
        }
      }
      if (lines.length > 0) yield lines.join('');
    })(),
  );
}

/** The rows of `rows` each key names last, in their order: one INSERT may not update the same row twice. */
function lastOfEachKey(key: readonly string[], columns: readonly string[], rows: readonly (readonly unknown[])[]): Iterable<readonly unknown[]> {
  const keyAt = key.map((k) => columns.indexOf(k));
  const last = new Map<string, readonly unknown[]>();
  for (const row of rows) last.set(keyAt.map((i) => String(row[i] as string)).join('\u0000'), row);
  return last.values();
}

const conflictUpdate = (key: readonly string[], columns: readonly string[]) =>
  `ON CONFLICT (${key.map(quoted).join(', ')}) DO UPDATE SET ${columns
    .filter((c) => !key.includes(c))
    .map((c) => `${quoted(c)} = excluded.${quoted(c)}`)
    .join(', ')}`;

/**
 * Bulk rows on one connection of `pool` per call. Upserts COPY into a temporary table, then
 * INSERT … ON CONFLICT into `schema.table`, in one transaction. Staging tables have no key
 * but a `seq` column that numbers rows as they come: staging is a bare COPY, and the move
 * keeps the last row of each key (DISTINCT ON … seq DESC) in the one pass it makes anyway.
 */
export function postgresBulk(pool: pg.Pool, schema: string): BulkRows {
  const target = (table: string) => `${quoted(schema)}.${quoted(table)}`;

  async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  const runAfter = async (client: pg.PoolClient, after?: string) => {
    if (after) await client.query(`SET LOCAL search_path TO ${quoted(schema)}; ${after}`);
  };

  return {
    async upsert(table, key, columns, rows, after) {
      const list = columns.map(quoted).join(', ');
      await inTransaction(async (client) => {
        await client.query(`CREATE TEMP TABLE IF NOT EXISTS bulk_rows (LIKE ${target(table)} INCLUDING DEFAULTS) ON COMMIT DROP`);
        await pipeline(copyLines(lastOfEachKey(key, columns, rows)), client.query(copyFrom(`COPY bulk_rows (${list}) FROM STDIN`)));
        await client.query(`INSERT INTO ${target(table)} (${list}) SELECT ${list} FROM bulk_rows ${conflictUpdate(key, columns)}`);
        await runAfter(client, after);
      });
    },
    async stage(table, _key, columns, rows) {
      const client = await pool.connect();
      try {
        await pipeline(copyLines(rows), client.query(copyFrom(`COPY ${target(table)} (${columns.map(quoted).join(', ')}) FROM STDIN`)));
      } finally {
        client.release();
      }
    },
    async move(from, into, key, columns, after) {
      const list = columns.map(quoted).join(', ');
      const order = key.map(quoted).join(', ');
      return inTransaction(async (client) => {
        const moved = await client.query(
          `INSERT INTO ${target(into)} (${list})
           SELECT DISTINCT ON (${order}) ${list} FROM ${target(from)} ORDER BY ${order}, seq DESC
           ${conflictUpdate(key, columns)}`,
        );
        await runAfter(client, after);
        return moved.rowCount ?? 0;
      });
    },
    /** One COPY of a snapshot, read as it streams: several times quicker than pages of rows through the driver. */
    async read(table, key, columns, onBatch, batchSize = 10_000) {
      const client = await pool.connect();
      try {
        const stream = client.query(
          copyTo(`COPY (SELECT ${columns.map(quoted).join(', ')} FROM ${target(table)} ORDER BY ${key.map(quoted).join(', ')}) TO STDOUT`),
        );
        // A character may be cut between two chunks: the decoder keeps its first bytes for the next.
        const text = new StringDecoder('utf8');
        let rest = '';
        let batch: unknown[][] = [];
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          const lines = (rest + text.write(chunk)).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) {
            batch.push(line.split('\t').map(fromCopyField));
            if (batch.length === batchSize) {
              onBatch(batch);
              batch = [];
              await setImmediate();
            }
          }
        }
        if (batch.length > 0) onBatch(batch);
      } finally {
        client.release();
      }
    },
    async empty(table) {
      await pool.query(`TRUNCATE ${target(table)}`);
    },
  };
}

/**
 * Values read back as the same plain values SQLite gives: days as `YYYY-MM-DD` text, moments
 * as ISO 8601 text in UTC (whatever the server's time zone), 64-bit counts and sums as numbers.
 */
const OIDS = { date: 1082, timestamptz: 1184, int8: 20, numeric: 1700 } as const;
const parsers = new Map<number, (value: string) => unknown>([
  [OIDS.date, (value) => value],
  [OIDS.timestamptz, (value) => new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString()],
  [OIDS.int8, Number],
  [OIDS.numeric, Number],
]);
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => parsers.get(oid) ?? (pg.types.getTypeParser(oid, format) as unknown)) as pg.CustomTypesConfig['getTypeParser'],
};

/** How long a request may wait for a connection, and for one statement, before the database counts as out of reach. */
const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 8_000;

export interface PostgresPool {
  pool: pg.Pool;
  /** The query builder over the pool; bind it to an application's schema with `withSchema`. */
  db: Kysely<unknown>;
  /** Whether the server answers a trivial query within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export function openPostgres(url: string, opts: { max: number; onError: (err: Error) => void }): PostgresPool {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: STATEMENT_TIMEOUT_MS,
    keepAlive: true,
    types,
    options: '-c TimeZone=UTC',
  });
  // A connection that dies while idle (the server restarted) is reported here, not thrown.
  pool.on('error', opts.onError);
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  const ping = async (timeoutMs: number) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const answered = pool.query('SELECT 1').then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([answered, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  return { pool, db, ping, close: () => db.destroy() };
}
