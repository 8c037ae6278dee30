import { sql, type Expression, type SqlBool } from 'kysely';
import type { WorkspaceRecords } from '../records';
import { visibleTo, type TaskAudience } from '../tasks/repository';

/** The kinds of record a search looks through. */
export const SEARCH_TYPES = ['campaign', 'post', 'task', 'project', 'asset'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

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
 * A LIKE pattern for "contains `text`": its wildcards (`%`, `_`) and the escape character
 * itself are escaped, so typed text can never widen the match.
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => ESCAPE + c)}%`;
}

/**
 * Whether `column` contains the pattern, Latin letters in either case: lower() on both
 * sides, which both engines have, rather than ILIKE (PostgreSQL only) or SQLite's LIKE (which
 * ignores case by itself). Text in scripts without case, such as Arabic, matches as written.
 */
function contains(column: Expression<string | null>, pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${column}) like lower(${pattern}) escape ${sql.lit(ESCAPE)}`;
}

interface Row {
  id: number;
  title: string;
  body: string | null;
  in_title: number | boolean;
  created_at: string;
}

export class SqlSearchRepository implements SearchRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async search(filter: SearchFilter): Promise<SearchHit[]> {
    if (filter.brandIds !== undefined && filter.brandIds.length === 0) return [];
    const found = await Promise.all(SEARCH_TYPES.map(async (type) => (await this.find(type, filter)).map((row) => toHit(type, row))));
    return found.flat();
  }

  private find(type: SearchType, filter: SearchFilter): Promise<Row[]> {
    const { db } = this.records;
    const pattern = containsPattern(filter.text);
    const { brandIds, limitPerType } = filter;
    // Each kind's own columns under the same names, so one ranking fits all.
    switch (type) {
      case 'campaign':
        return db
          .selectFrom('campaigns')
          .select((eb) => ['id', 'name as title', 'description as body', 'created_at', rank(eb.ref('name'), pattern)])
          .where((eb) => eb.or([contains(eb.ref('name'), pattern), contains(eb.ref('description'), pattern)]))
          .$if(brandIds !== undefined, (q) => q.where('brand_id', 'in', brandIds!))
          .orderBy('in_title', 'desc')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limitPerType)
          .execute();
      case 'post':
        return db
          .selectFrom('posts')
          .select((eb) => ['id', 'title', 'caption as body', 'created_at', rank(eb.ref('title'), pattern)])
          .where((eb) => eb.or([contains(eb.ref('title'), pattern), contains(eb.ref('caption'), pattern)]))
          .$if(brandIds !== undefined, (q) => q.where('brand_id', 'in', brandIds!))
          .orderBy('in_title', 'desc')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limitPerType)
          .execute();
      case 'task':
        return db
          .selectFrom('tasks')
          .select((eb) => ['id', 'title', 'description as body', 'created_at', rank(eb.ref('title'), pattern)])
          .where((eb) => eb.or([contains(eb.ref('title'), pattern), contains(eb.ref('description'), pattern)]))
          .$if(brandIds !== undefined, (q) => q.where('brand_id', 'in', brandIds!))
          .$if(!filter.tasks.includeOthersPrivate, (q) => q.where(visibleTo(filter.tasks.viewerId)))
          .orderBy('in_title', 'desc')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limitPerType)
          .execute();
      case 'project':
        return db
          .selectFrom('projects')
          .select((eb) => ['id', 'name as title', 'description as body', 'created_at', rank(eb.ref('name'), pattern)])
          .where((eb) => eb.or([contains(eb.ref('name'), pattern), contains(eb.ref('description'), pattern)]))
          .$if(brandIds !== undefined, (q) => q.where('brand_id', 'in', brandIds!))
          .orderBy('in_title', 'desc')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limitPerType)
          .execute();
      case 'asset':
        return db
          .selectFrom('assets')
          .select((eb) => ['id', 'name as title', sql<null>`null`.as('body'), 'created_at', rank(eb.ref('name'), pattern)])
          .where((eb) => contains(eb.ref('name'), pattern))
          .$if(brandIds !== undefined, (q) => q.where('brand_id', 'in', brandIds!))
          .orderBy('in_title', 'desc')
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limitPerType)
          .execute();
    }
  }
}

/** 1 when the title holds the text, else 0: the first key of the order. */
function rank(title: Expression<string>, pattern: string) {
  return sql<number>`case when ${contains(title, pattern)} then 1 else 0 end`.as('in_title');
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
