import { readBack } from '../../platform/db/engine';
import type { WorkspaceDb, WorkspaceRecords } from '../records';

export interface Comment {
  id: number;
  postId: number | null;
  taskId: number | null;
  authorId: number | null;
  /** The author's name while they exist; null once they have left. */
  authorName: string | null;
  body: string;
  createdAt: string;
}

export type CommentSubject = { postId: number } | { taskId: number };

export interface NewComment {
  authorId: number;
  body: string;
  createdAt: string;
}

export interface CommentRepository {
  /** Oldest first, as a thread reads. */
  list(subject: CommentSubject): Promise<Comment[]>;
  get(id: number): Promise<Comment | undefined>;
  add(subject: CommentSubject, comment: NewComment): Promise<Comment>;
  delete(id: number): Promise<boolean>;
}

const selectComments = (db: WorkspaceDb) =>
  db
    .selectFrom('comments as c')
    .leftJoin('users as u', 'u.id', 'c.author_id')
    .select(['c.id', 'c.post_id', 'c.task_id', 'c.author_id', 'u.name as author_name', 'c.body', 'c.created_at']);

type Row = Awaited<ReturnType<ReturnType<typeof selectComments>['executeTakeFirstOrThrow']>>;

function toComment(r: Row): Comment {
  return { id: r.id, postId: r.post_id, taskId: r.task_id, authorId: r.author_id, authorName: r.author_name, body: r.body, createdAt: r.created_at };
}

/** Adds a comment inside the caller's transaction, so that a post's move and its reason are one write. */
export async function insertComment(db: WorkspaceDb, subject: CommentSubject, comment: NewComment): Promise<number> {
  const { id } = await db
    .insertInto('comments')
    .values({
      post_id: 'postId' in subject ? subject.postId : null,
      task_id: 'taskId' in subject ? subject.taskId : null,
      author_id: comment.authorId,
      body: comment.body,
      created_at: comment.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export class SqlCommentRepository implements CommentRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async list(subject: CommentSubject) {
    const rows = await selectComments(this.records.db)
      .$if('postId' in subject, (q) => q.where('c.post_id', '=', (subject as { postId: number }).postId))
      .$if('taskId' in subject, (q) => q.where('c.task_id', '=', (subject as { taskId: number }).taskId))
      .orderBy('c.id')
      .execute();
    return rows.map(toComment);
  }

  async get(id: number) {
    const row = await selectComments(this.records.db).where('c.id', '=', id).executeTakeFirst();
    return row && toComment(row);
  }

  async add(subject: CommentSubject, comment: NewComment) {
    const id = await insertComment(this.records.db, subject, comment);
    return readBack(await this.get(id), `Comment ${id}`);
  }

  async delete(id: number) {
    const result = await this.records.db.deleteFrom('comments').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
