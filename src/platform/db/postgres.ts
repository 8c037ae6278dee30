import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Engine } from './engine';

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
};

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
