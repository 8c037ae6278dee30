import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Engine } from '../../platform/db/engine';
import { foldForSearch } from '../../platform/text';
import type { WorkspaceRecords } from '../records';
import type { WorkspaceTables } from '../tables';
import { visibleTo, type TaskAudience } from '../tasks/repository';
import { SEARCH_TYPES, type SearchType } from '../domain';

/** One record whose title or body holds the text. */
export interface SearchHit {
  type: SearchType;
  id: number;
  /** A campaign's or project's name, a post's or task's title, an asset's file name. */
  title: string;
  /** A description or a caption; null for assets, which have none. */
  body: string | null;
  /** Whether the title holds the text (else only the body does). */
  inTitle: boolean;
  createdAt: string;
}

export interface SearchFilter {
  /** The text as typed: every character stands for itself, `%`, `_` and `\` included. */
  text: string;
  /** Only these brands (undefined: every brand). */
  brandIds: number[] | undefined;
  /** Who reads tasks: the same audience as the task lists'. */
  tasks: Omit<TaskAudience, 'brandIds'>;
  /** At most this many of each kind. */
  limitPerType: number;
}

export interface SearchRepository {
  /** Of each kind, up to `limitPerType`: title matches first, then newest first. */
  search(filter: SearchFilter): Promise<SearchHit[]>;
}

/** The one character that makes the next one stand for itself in a LIKE pattern. */
const ESCAPE = '\\';

/**
 * A LIKE pattern for "contains `text`", folded as search compares text: its wildcards (`%`,
 * `_`) and the escape character itself are escaped, so typed text can never widen the match.
 */
export function containsPattern(text: string): string {
  return `%${foldForSearch(text).replace(/[\\%_]/g, (c) => ESCAPE + c)}%`;
}

/**
 * Whether `column`, folded as search compares text (letters in either case, Arabic spelling
 * variants and marks), contains the pattern of `containsPattern`. Both engines fold the column
 * the same way, so a word matches alike on SQLite and PostgreSQL.
 */
export function contains(engine: Engine, column: Expression<string | null>, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`${engine.searchFolded(column)} like ${pattern} escape ${sql.lit(ESCAPE)}`;
}

interface Row {
  id: number;
  title: string;
  body: string | null;
  in_title: number | boolean;
  created_at: string;
}

/** The tables searched, each with `id`, `brand_id` and `created_at`. */
type SearchedTable = 'campaigns' | 'posts' | 'tasks' | 'projects' | 'assets';

export class SqlSearchRepository implements SearchRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async search(filter: SearchFilter): Promise<SearchHit[]> {
    if (filter.brandIds !== undefined && filter.brandIds.length === 0) return [];
    const found = await Promise.all(SEARCH_TYPES.map(async (type) => (await this.find(type, filter)).map((row) => toHit(type, row))));
    return found.flat();
  }

  /** One kind's matches: its own title and body columns, read under the same names for all. */
  private find(type: SearchType, filter: SearchFilter): Promise<Row[]> {
    const { db, engine } = this.records;
    const p = containsPattern(filter.text);
    const texts = titleAndBody(engine);
    const holds = titleOrBody(engine);
    switch (type) {
      case 'campaign':
        return ranked(
          db.selectFrom('campaigns').select((eb) => ['id', 'created_at', ...texts(eb.ref('name'), eb.ref('description'), p)]).where((eb) => holds(eb.ref('name'), eb.ref('description'), p)),
          filter,
        );
      case 'post':
        return ranked(
          db.selectFrom('posts').select((eb) => ['id', 'created_at', ...texts(eb.ref('title'), eb.ref('caption'), p)]).where((eb) => holds(eb.ref('title'), eb.ref('caption'), p)),
          filter,
        );
      case 'task':
        return ranked(
          db
            .selectFrom('tasks')
            .select((eb) => ['id', 'created_at', ...texts(eb.ref('title'), eb.ref('description'), p)])
            .where((eb) => holds(eb.ref('title'), eb.ref('description'), p))
            // Others' private tasks by the task lists' own condition.
            .$if(!filter.tasks.includeOthersPrivate, (q) => q.where(visibleTo(filter.tasks.viewerId))),
          filter,
        );
      case 'project':
        return ranked(
          db.selectFrom('projects').select((eb) => ['id', 'created_at', ...texts(eb.ref('name'), eb.ref('description'), p)]).where((eb) => holds(eb.ref('name'), eb.ref('description'), p)),
          filter,
        );
      case 'asset':
        // A file has a name and nothing more to search.
        return ranked(db.selectFrom('assets').select((eb) => ['id', 'created_at', ...texts(eb.ref('name'), null, p)]).where((eb) => contains(engine, eb.ref('name'), p)), filter);
    }
  }
}

/** A kind's title and body as `title` and `body`, and `in_title`: 1 when the title holds the text, else 0. */
const titleAndBody = (engine: Engine) => (title: Expression<string>, body: Expression<string | null> | null, pattern: string) =>
  [
    sql<string>`${title}`.as('title'),
    (body ? sql<string | null>`${body}` : sql<null>`null`).as('body'),
    sql<number>`case when ${contains(engine, title, pattern)} then 1 else 0 end`.as('in_title'),
  ] as const;

/** Whether the title or the body holds the text. */
const titleOrBody = (engine: Engine) => (title: Expression<string>, body: Expression<string | null>, pattern: string): Expression<SqlBool> =>
  sql<SqlBool>`(${contains(engine, title, pattern)} or ${contains(engine, body, pattern)})`;

/** The brand scope, then title matches first, the newest first, at most `limitPerType`. */
function ranked<T extends SearchedTable>(query: SelectQueryBuilder<WorkspaceTables, T, Row>, filter: SearchFilter): Promise<Row[]> {
  const { brandIds } = filter;
  return query
    .$call((q) => (brandIds === undefined ? q : q.where(sql.ref<number>('brand_id'), 'in', brandIds)))
    .orderBy('in_title', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limitPerType)
    .execute();
}

function toHit(type: SearchType, row: Row): SearchHit {
  return {
    type,
    id: row.id,
    title: row.title,
    body: row.body,
    inTitle: Number(row.in_title) === 1,
    createdAt: row.created_at,
  };
}
