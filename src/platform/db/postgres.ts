import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { BulkWriter, Engine } from './engine';

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
};

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A value as a field of COPY's text format: tabs, newlines and backslashes escaped, null as \N. */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
}

/**
 * COPY into a temporary table, then one INSERT … ON CONFLICT into `schema.table`, all in one
 * transaction on one connection. Rows repeating a key within the batch keep the last one
 * first, since one INSERT may not update the same row twice.
 */
export function postgresBulk(pool: pg.Pool, schema: string): BulkWriter {
  return {
    async upsert(table, key, columns, rows, after) {
      const keyAt = key.map((k) => columns.indexOf(k));
      const last = new Map<string, readonly unknown[]>();
      for (const row of rows) last.set(keyAt.map((i) => String(row[i] as string)).join('\u0000'), row);
      const target = `${quoted(schema)}.${quoted(table)}`;
      const list = columns.map(quoted).join(', ');
      const values = columns.filter((c) => !key.includes(c));
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`CREATE TEMP TABLE IF NOT EXISTS bulk_rows (LIKE ${target} INCLUDING DEFAULTS) ON COMMIT DROP`);
        const lines = Readable.from(
          (function* () {
            // Some thousands of lines per chunk: a chunk per line costs more than the COPY itself.
            let lines: string[] = [];
            for (const row of last.values()) {
              lines.push(`${row.map(copyField).join('\t')}\n`);
              if (lines.length === 2_000) {
                yield lines.join('');
                lines = [];
              }
            }
            if (lines.length > 0) yield lines.join('');
          })(),
        );
        await pipeline(lines, client.query(copyFrom(`COPY bulk_rows (${list}) FROM STDIN`)));
        await client.query(
          `INSERT INTO ${target} (${list}) SELECT ${list} FROM bulk_rows
           ON CONFLICT (${key.map(quoted).join(', ')}) DO UPDATE SET ${values.map((c) => `${quoted(c)} = excluded.${quoted(c)}`).join(', ')}`,
        );
        if (after) await client.query(`SET LOCAL search_path TO ${quoted(schema)}; ${after}`);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async empty(table) {
      await pool.query(`TRUNCATE ${quoted(schema)}.${quoted(table)}`);
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
