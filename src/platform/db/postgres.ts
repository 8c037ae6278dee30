import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate } from 'node:timers/promises';
import { Readable } from 'node:stream';
import { Kysely, PostgresDialect, sql, type PostgresPool as KyselyPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { StallGuard } from '../stall';
import { searchFoldTranslation } from '../text';
import { DatabaseUnavailable, type BulkRows, type Engine } from './engine';

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'EAI_AGAIN']);

function unreachable(err: unknown): boolean {
  if (err instanceof DatabaseUnavailable) return true;
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
  for (const row of rows) last.set(keyAt.map((i) => String(row[i])).join('\u0000'), row);
  return last.values();
}

const conflictUpdate = (key: readonly string[], columns: readonly string[]) =>
  `ON CONFLICT (${key.map(quoted).join(', ')}) DO UPDATE SET ${columns
    .filter((c) => !key.includes(c))
    .map((c) => `${quoted(c)} = excluded.${quoted(c)}`)
    .join(', ')}`;

/**
 * How long one statement of bulk work (an import's COPY and move, the demo data) may take:
 * a million rows take their time, so these are bounded far more loosely than a request's
 * statements; a stalled database still refuses them at once.
 */
const BULK_STATEMENT_MS = 10 * 60 * 1000;

/** A statement with the bulk deadline (pg reads `query_timeout` per statement too; its types do not say so). */
const long = (text: string): pg.QueryConfig => ({ text, query_timeout: BULK_STATEMENT_MS }) as pg.QueryConfig;

/** A COPY stream with the bulk deadline, which pg reads from the submitted object itself. */
function longCopy<T extends object>(stream: T): T {
  return Object.assign(stream, { query_timeout: BULK_STATEMENT_MS });
}

/**
 * Bulk rows on one connection of `pool` per call. Upserts COPY into a temporary table, then
 * INSERT … ON CONFLICT into `schema.table`, in one transaction. Staging tables have no key
 * but a `seq` column that numbers rows as they come: staging is a bare COPY, and the move
 * keeps the last row of each key (DISTINCT ON … seq DESC) in the one pass it makes anyway.
 */
export function postgresBulk(database: Pick<PostgresPool, 'pool' | 'guard'>, schema: string): BulkRows {
  const { pool, guard } = database;
  const target = (table: string) => `${quoted(schema)}.${quoted(table)}`;

  const connect = async () => {
    guard.check();
    return pool.connect();
  };

  async function inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await connect();
    try {
      await client.query(long('BEGIN'));
      const result = await work(client);
      await client.query(long('COMMIT'));
      return result;
    } catch (err) {
      await client.query(long('ROLLBACK')).catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  const runAfter = async (client: pg.PoolClient, after?: string) => {
    if (after) await client.query(long(`SET LOCAL search_path TO ${quoted(schema)}; ${after}`));
  };

  return {
    async upsert(table, key, columns, rows, after) {
      const list = columns.map(quoted).join(', ');
      await inTransaction(async (client) => {
        await client.query(long(`CREATE TEMP TABLE IF NOT EXISTS bulk_rows (LIKE ${target(table)} INCLUDING DEFAULTS) ON COMMIT DROP`));
        await pipeline(copyLines(lastOfEachKey(key, columns, rows)), client.query(longCopy(copyFrom(`COPY bulk_rows (${list}) FROM STDIN`))));
        await client.query(long(`INSERT INTO ${target(table)} (${list}) SELECT ${list} FROM bulk_rows ${conflictUpdate(key, columns)}`));
        await runAfter(client, after);
      });
    },
    async stage(table, _key, columns, rows) {
      const client = await connect();
      try {
        await pipeline(copyLines(rows), client.query(longCopy(copyFrom(`COPY ${target(table)} (${columns.map(quoted).join(', ')}) FROM STDIN`))));
      } finally {
        client.release();
      }
    },
    async move(from, into, key, columns, after) {
      const list = columns.map(quoted).join(', ');
      const order = key.map(quoted).join(', ');
      return inTransaction(async (client) => {
        const moved = await client.query(
          long(`INSERT INTO ${target(into)} (${list})
           SELECT DISTINCT ON (${order}) ${list} FROM ${target(from)} ORDER BY ${order}, seq DESC
           ${conflictUpdate(key, columns)}`),
        );
        await runAfter(client, after);
        return moved.rowCount ?? 0;
      });
    },
    /** One COPY of a snapshot, read as it streams: several times quicker than pages of rows through the driver. */
    async read(table, key, columns, onBatch, batchSize = 10_000) {
      const client = await connect();
      try {
        const stream = client.query(
          longCopy(copyTo(`COPY (SELECT ${columns.map(quoted).join(', ')} FROM ${target(table)} ORDER BY ${key.map(quoted).join(', ')}) TO STDOUT`)),
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
      guard.check();
      await pool.query(long(`TRUNCATE ${target(table)}`));
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
  getTypeParser: (oid, format) => parsers.get(oid) ?? (pg.types.getTypeParser(oid, format) as unknown),
};

/**
 * How long a request may wait for a connection, and for one statement, before the database
 * counts as out of reach: together within the 5 s in which a request that needs the
 * database is answered, whether the server is down or has stopped answering.
 */
const CONNECT_TIMEOUT_MS = 3_000;
const STATEMENT_TIMEOUT_MS = 4_000;
/** Pause between two looks at a database that stopped answering. */
const PROBE_RETRY_MS = 250;

export interface PostgresPool {
  pool: pg.Pool;
  /** The query builder over the pool; bind it to an application's schema with `withSchema`. */
  db: Kysely<unknown>;
  /** Knows when the server stopped answering; bulk work asks it before it starts. */
  guard: StallGuard;
  /** Whether the server answers a trivial query within `timeoutMs`. */
  ping(timeoutMs: number): Promise<boolean>;
  /**
   * Runs `work` while holding the advisory lock `name`, on a connection of its own:
   * instances that ask together take turns, and a holder that dies frees it with its connection.
   */
  exclusively<T>(name: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface PostgresOptions {
  max: number;
  onError: (err: Error) => void;
  /** For tools that run long statements outside any request; the request deadline otherwise. */
  statementTimeoutMs?: number;
  onStall?: () => void;
  onRecover?: () => void;
}

export function openPostgres(url: string, opts: PostgresOptions): PostgresPool {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: opts.statementTimeoutMs ?? STATEMENT_TIMEOUT_MS,
    keepAlive: true,
    types,
    options: '-c TimeZone=UTC',
  });
  // A connection that dies while idle (the server restarted) is reported here, not thrown.
  pool.on('error', opts.onError);
  const guard = new StallGuard({
    deadlineMs: STATEMENT_TIMEOUT_MS,
    // Each look on a connection of its own: the pool's may all be waiting on the stopped server.
    probe: async () => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, query_timeout: STATEMENT_TIMEOUT_MS });
      try {
        await client.connect();
        await client.query('SELECT 1');
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    retryMs: PROBE_RETRY_MS,
    unavailable: (cause) => new DatabaseUnavailable(cause),
    onStall: opts.onStall,
    onRecover: opts.onRecover,
  });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: guardedPool(pool, guard) }) });
  const ping = (timeoutMs: number) => guard.answers(() => pool.query('SELECT 1'), timeoutMs);
  const exclusively = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    guard.check();
    const client = await pool.connect();
    let unlocked = false;
    try {
      // Waits as long as the holder's own work may take: bulk statements' bound.
      await client.query({ text: 'SELECT pg_advisory_lock(hashtext($1))', values: [name], query_timeout: BULK_STATEMENT_MS } as pg.QueryConfig);
      try {
        return await work();
      } finally {
        unlocked = await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]).then(
          () => true,
          () => false,
        );
      }
    } finally {
      // A connection whose lock could not be given back is closed, which gives it back.
      client.release(!unlocked);
    }
  };
  return {
    pool,
    db,
    guard,
    ping,
    exclusively,
    close: async () => {
      guard.close();
      await db.destroy();
    },
  };
}

/**
 * The pool as the query builder sees it. pg ends a statement that outlived its
 * query_timeout but keeps its connection, still waiting on the server behind it: such a
 * connection is dropped when it goes back, rather than handed to the next request, and the
 * database counts as stalled until it answers again. Meanwhile connections are refused at
 * once, and so are the statements of a transaction already under way (its ROLLBACK too).
 */
function guardedPool(pool: pg.Pool, guard: StallGuard): KyselyPool {
  return {
    options: pool.options,
    async connect(): Promise<PostgresPoolClient> {
      guard.check();
      const client = await pool.connect().catch((err: unknown) => {
        throw guard.isStalled ? new DatabaseUnavailable(err) : err;
      });
      let spoilt = false;
      const query = async (text: string, parameters: readonly unknown[]) => {
        if (guard.isStalled) {
          spoilt = true;
          throw new DatabaseUnavailable();
        }
        try {
          return await client.query(text, parameters as unknown[]);
        } catch (err) {
          if (err instanceof Error && err.message === 'Query read timeout') {
            spoilt = true;
            guard.stall();
          }
          throw err;
        }
      };
      return {
        processID: (client as pg.PoolClient & { processID?: number }).processID,
        query: query as unknown as PostgresPoolClient['query'],
        release: (destroy?: boolean) => client.release(destroy === true || spoilt),
      };
    },
    end: () => pool.end(),
  };
}
