import type { Selectable, Updateable } from 'kysely';
import { readBack } from '../../platform/db/engine';
import { insertComment } from '../comments/repository';
import { groupPairs, type WorkspaceDb, type WorkspaceRecords } from '../records';
import { POST_FIELDS, type Platform, type PostEventKind, type PostField, type PostStatus } from '../domain';
import type { WorkspaceTables } from '../tables';

export interface Post {
  id: number;
  brandId: number;
  campaignId: number | null;
  /** The campaign's name travels with the post, for cards and lists. */
  campaign: { id: number; name: string } | null;
  title: string;
  caption: string | null;
  platform: Platform | null;
  status: PostStatus;
  scheduledAt: string | null;
  publicationUrl: string | null;
  ownerId: number | null;
  /** Asset ids, in their order on the post. */
  attachments: number[];
  createdAt: string;
  updatedAt: string;
}

export type NewPost = Omit<Post, 'id' | 'campaign' | 'updatedAt'>;
export type PostPatch = Partial<
  Pick<Post, 'brandId' | 'campaignId' | 'title' | 'caption' | 'platform' | 'status' | 'scheduledAt' | 'publicationUrl' | 'attachments'>
> & { updatedAt: string };

/** One line of a post's history. */
export interface PostEvent {
  id: number;
  postId: number;
  kind: PostEventKind;
  actorId: number | null;
  /** The member's name while they exist; null once they have left. */
  actorName: string | null;
  from: PostStatus | null;
  to: PostStatus | null;
  /** What an edit changed (`edited`, `reopened`); empty for other events and for edits recorded before fields were. */
  fields: PostField[];
  createdAt: string;
}

/** What a change to a post adds to its history, at the change's `updatedAt`. */
export type NewPostEvent = Pick<PostEvent, 'kind' | 'actorId' | 'from' | 'to'> & { fields?: PostField[] };

/** One post's change, with what it adds to the post's history and thread. */
export interface PostWrite {
  id: number;
  patch: PostPatch;
  events: NewPostEvent[];
  comment?: { authorId: number; body: string };
}

export interface PostFilter {
  /** Only these brands (undefined: every brand). */
  brandIds: number[] | undefined;
  campaignId?: number;
  status?: PostStatus;
  limit: number;
  offset: number;
}

export interface PostRepository {
  /** Newest first. */
  list(filter: PostFilter): Promise<Post[]>;
  get(id: number): Promise<Post | undefined>;
  /** Records the post's "created" event in the same transaction. */
  create(input: NewPost): Promise<Post>;
  /** Adds `events` to the post's history, and `comment` to its thread, in the same transaction as the change. */
  update(id: number, patch: PostPatch, events: NewPostEvent[], comment?: { authorId: number; body: string }): Promise<Post | undefined>;
  /**
   * Several such changes in one transaction, answering the posts in the same order, and the
   * id of the comment each added (if any); if any post is missing, nothing is written and
   * no post is answered.
   */
  updateMany(writes: PostWrite[]): Promise<{ posts: Post[]; commentIds: (number | undefined)[] }>;
  delete(id: number): Promise<boolean>;
  /** Deletes every one of `ids` or none (when any is missing): answers how many went. */
  deleteMany(ids: number[]): Promise<number>;
  /** The post's history, oldest first. */
  history(id: number): Promise<PostEvent[]>;
  /** The posts that have any of `assetIds` among their attachments. */
  attachedTo(assetIds: number[]): Promise<Post[]>;
}

/** A post as selectPosts reads it: its row and its campaign's name. */
type Row = Selectable<WorkspaceTables['posts']> & { campaign_name: string | null };

/** The columns a patch sets; what it leaves undefined is not written. */
function postChange(patch: PostPatch): Updateable<WorkspaceTables['posts']> {
  return {
    brand_id: patch.brandId,
    campaign_id: patch.campaignId,
    title: patch.title,
    caption: patch.caption,
    platform: patch.platform,
    status: patch.status,
    scheduled_at: patch.scheduledAt,
    publication_url: patch.publicationUrl,
    updated_at: patch.updatedAt,
  };
}

function toPost(r: Row, attachments: number[]): Post {
  return {
    id: r.id,
    brandId: r.brand_id,
    campaignId: r.campaign_id,
    campaign: r.campaign_id !== null && r.campaign_name !== null ? { id: r.campaign_id, name: r.campaign_name } : null,
    title: r.title,
    caption: r.caption,
    platform: r.platform,
    status: r.status,
    scheduledAt: r.scheduled_at,
    publicationUrl: r.publication_url,
    ownerId: r.owner_id,
    attachments,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Rolls back a write of several posts when one of them has gone meanwhile. */
class PostGone extends Error {}

const selectPosts = (db: WorkspaceDb) =>
  db.selectFrom('posts as p').leftJoin('campaigns as c', 'c.id', 'p.campaign_id').selectAll('p').select('c.name as campaign_name');

export class SqlPostRepository implements PostRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async list(filter: PostFilter) {
    if (filter.brandIds !== undefined && filter.brandIds.length === 0) return [];
    const { db } = this.records;
    const rows = await selectPosts(db)
      .$call((q) => (filter.brandIds === undefined ? q : q.where('p.brand_id', 'in', filter.brandIds)))
      .$call((q) => (filter.campaignId === undefined ? q : q.where('p.campaign_id', '=', filter.campaignId)))
      .$call((q) => (filter.status === undefined ? q : q.where('p.status', '=', filter.status)))
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    const attachments = await attachmentsOf(db, rows.map((r) => r.id));
    return rows.map((r) => toPost(r, attachments.get(r.id) ?? []));
  }

  async get(id: number) {
    return readPost(this.records.db, id);
  }

  async create(p: NewPost) {
    return this.records.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('posts')
        .values({
          brand_id: p.brandId,
          campaign_id: p.campaignId,
          title: p.title,
          caption: p.caption,
          platform: p.platform,
          status: p.status,
          scheduled_at: p.scheduledAt,
          publication_url: p.publicationUrl,
          owner_id: p.ownerId,
          created_at: p.createdAt,
          updated_at: p.createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setAttachments(trx, id, p.attachments);
      await addEvents(trx, id, [{ kind: 'created', actorId: p.ownerId, from: null, to: p.status }], p.createdAt);
      return readBack(await readPost(trx, id), `Post ${id}`);
    });
  }

  async update(id: number, patch: PostPatch, events: NewPostEvent[], comment?: { authorId: number; body: string }) {
    const { posts } = await this.updateMany([{ id, patch, events, comment }]);
    return posts.at(0);
  }

  async updateMany(writes: PostWrite[]) {
    try {
      return await this.records.db.transaction().execute(async (trx) => {
        const posts: Post[] = [];
        const commentIds: (number | undefined)[] = [];
        for (const { id, patch, events, comment } of writes) {
          const result = await trx.updateTable('posts').set(postChange(patch)).where('id', '=', id).executeTakeFirst();
          if (Number(result.numUpdatedRows) === 0) throw new PostGone();
          if (patch.attachments !== undefined) await setAttachments(trx, id, patch.attachments);
          await addEvents(trx, id, events, patch.updatedAt);
          commentIds.push(comment ? await insertComment(trx, { postId: id }, { ...comment, createdAt: patch.updatedAt }) : undefined);
          posts.push(readBack(await readPost(trx, id), `Post ${id}`));
        }
        return { posts, commentIds };
      });
    } catch (err) {
      if (err instanceof PostGone) return { posts: [], commentIds: [] };
      throw err;
    }
  }

  async delete(id: number) {
    return (await this.deleteMany([id])) === 1;
  }

  async deleteMany(ids: number[]) {
    if (ids.length === 0) return 0;
    try {
      return await this.records.db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom('posts').where('id', 'in', ids).executeTakeFirst();
        const deleted = Number(result.numDeletedRows);
        // All or none: a post that went meanwhile undoes the whole delete.
        if (deleted !== new Set(ids).size) throw new PostGone();
        return deleted;
      });
    } catch (err) {
      if (err instanceof PostGone) return 0;
      throw err;
    }
  }

  async history(id: number) {
    const rows = await this.records.db
      .selectFrom('post_events as e')
      .leftJoin('users as u', 'u.id', 'e.actor_id')
      .select(['e.id', 'e.post_id', 'e.kind', 'e.actor_id', 'u.name as actor_name', 'e.from_status', 'e.to_status', 'e.fields', 'e.created_at'])
      .where('e.post_id', '=', id)
      .orderBy('e.id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      postId: r.post_id,
      kind: r.kind,
      actorId: r.actor_id,
      actorName: r.actor_name,
      from: r.from_status,
      to: r.to_status,
      fields: readFields(r.fields),
      createdAt: r.created_at,
    }));
  }

  async attachedTo(assetIds: number[]) {
    if (assetIds.length === 0) return [];
    const { db } = this.records;
    const rows = await selectPosts(db)
      .where('p.id', 'in', db.selectFrom('post_attachments').select('post_id').where('asset_id', 'in', assetIds))
      .orderBy('p.id')
      .execute();
    const attachments = await attachmentsOf(db, rows.map((r) => r.id));
    return rows.map((r) => toPost(r, attachments.get(r.id) ?? []));
  }
}

/** Stored as the names, comma-separated; anything not of the vocabulary is left out. */
function readFields(stored: string | null): PostField[] {
  const names = new Set(stored ? stored.split(',') : []);
  return POST_FIELDS.filter((f) => names.has(f));
}

async function readPost(db: WorkspaceDb, id: number): Promise<Post | undefined> {
  const row = await selectPosts(db).where('p.id', '=', id).executeTakeFirst();
  return row && toPost(row, (await attachmentsOf(db, [id])).get(id) ?? []);
}

async function addEvents(db: WorkspaceDb, postId: number, events: NewPostEvent[], at: string): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('post_events')
    .values(
      events.map((e) => ({ post_id: postId, actor_id: e.actorId, kind: e.kind, from_status: e.from, to_status: e.to, fields: e.fields?.length ? e.fields.join(',') : null, created_at: at })),
    )
    .execute();
}

async function attachmentsOf(db: WorkspaceDb, postIds: number[]): Promise<Map<number, number[]>> {
  if (postIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('post_attachments')
    .select(['post_id', 'asset_id'])
    .where('post_id', 'in', postIds)
    .orderBy('post_id')
    .orderBy('position')
    .execute();
  return groupPairs(rows.map((r) => [r.post_id, r.asset_id] as const));
}

async function setAttachments(db: WorkspaceDb, postId: number, assetIds: number[]): Promise<void> {
  await db.deleteFrom('post_attachments').where('post_id', '=', postId).execute();
  const unique = [...new Set(assetIds)];
  if (unique.length > 0) {
    await db
      .insertInto('post_attachments')
      .values(unique.map((assetId, position) => ({ post_id: postId, asset_id: assetId, position })))
      .execute();
  }
}
