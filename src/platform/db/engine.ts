import type { Expression, Kysely } from 'kysely';
import { HttpError } from '../errors';

export type EngineKind = 'sqlite' | 'postgres';

/**
 * What differs between the two engines beyond the SQL the query builder writes: how each
 * says that a constraint refused a write, or that it cannot be reached at all. One small
 * object per engine (sqlite.ts, postgres.ts); repositories ask it, never an engine's codes.
 */
export interface Engine {
  readonly kind: EngineKind;
  isUniqueViolation(err: unknown): boolean;
  isForeignKeyViolation(err: unknown): boolean;
  /** The database could not be reached or stopped answering, as opposed to refusing a statement. */
  isUnreachable(err: unknown): boolean;
  /**
   * Whether SELECT … FOR UPDATE exists and is needed: PostgreSQL runs transactions side by
   * side; SQLite has none of it, and its one connection runs one transaction at a time.
   */
  readonly locksRows: boolean;
  /** The larger of two numbers: `max(a, b)` in SQLite, `greatest(a, b)` in PostgreSQL. */
  greatest(a: Expression<number>, b: Expression<number>): Expression<number>;
  /** Text as search compares it (`foldForSearch`): a function of ours in SQLite, `translate(lower(…))` in PostgreSQL. */
  searchFolded(text: Expression<string | null>): Expression<string | null>;
}

/**
 * Many rows in and out at the speed each engine allows (prepared statements in one
 * transaction on SQLite, COPY on PostgreSQL), which a query builder's multi-row statements
 * do not reach at a million rows.
 */
export interface BulkRows {
  /**
   * Adds `rows` (values in the order of `columns`) to `table`; a row whose `key` columns
   * match a stored row, or a row before it in `rows`, replaces it. `after`, portable SQL
   * without parameters, runs in the same transaction.
   */
  upsert(table: string, key: readonly string[], columns: readonly string[], rows: readonly (readonly unknown[])[], after?: string): Promise<void>;
  /**
   * Adds `rows` to the staging table `table`, to be moved by `move`. Where several rows share
   * a key, the last one staged wins, then or at the move (PostgreSQL stages without looking,
   * in a table without a key, and sorts it out once at the move).
   */
  stage(table: string, key: readonly string[], columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void>;
  /**
   * Moves every row staged in `from` into `into` in one transaction, a staged row replacing a
   * stored one of the same `key`, with `after` (as for upsert); answers how many rows moved.
   */
  move(from: string, into: string, key: readonly string[], columns: readonly string[], after?: string): Promise<number>;
  /**
   * Every row of `table` in `key` order, as values in the order of `columns`, handed over in
   * batches with a turn of the event loop between them. PostgreSQL hands text (COPY's), which
   * the caller reads as the column's type; SQLite hands its own values.
   */
  read(table: string, key: readonly string[], columns: readonly string[], onBatch: (rows: unknown[][]) => void, batchSize?: number): Promise<void>;
  /** Removes every row of `table` the quickest way the engine has (TRUNCATE on PostgreSQL). */
  empty(table: string): Promise<void>;
}

/** The records of one application on one engine. */
export interface RecordsDb<T> {
  db: Kysely<T>;
  engine: Engine;
  bulk: BulkRows;
}

/** The database is out of reach: 503, so that a load balancer or a client tries again later. */
export class DatabaseUnavailable extends HttpError {
  constructor(override readonly cause?: unknown) {
    super(503, 'The database cannot be reached right now; try again shortly', 'UNAVAILABLE');
  }
}

/** A write's 1 or 0 for a flag, which both engines take (PostgreSQL reads '1' as true). */
export function flag(value: boolean): number {
  return value ? 1 : 0;
}

/** A flag as either engine reads it back: 0/1 from SQLite, false/true from PostgreSQL. */
export function isSet(value: number | boolean): boolean {
  return value === true || value === 1;
}

/**
 * A row read back after writing it: only a delete at the same moment takes it away, and a
 * write that cannot show what it wrote fails there rather than handing on nothing.
 */
export function readBack<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw new Error(`${what} was gone as soon as it was written`);
  return row;
}
