import type { Db } from '../../platform/sqlite';
import { assignments, groupPairs, inList, scopedWhere } from '../sql';
import type { Platform, PostStatus } from '../domain';

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
  create(input: NewPost): Promise<Post>;
  update(id: number, patch: PostPatch): Promise<Post | undefined>;
  delete(id: number): Promise<boolean>;
}

interface Row {
  id: number;
  brand_id: number;
  campaign_id: number | null;
  campaign_name: string | null;
  title: string;
  caption: string | null;
  platform: Platform | null;
  status: PostStatus;
  scheduled_at: string | null;
  publication_url: string | null;
  owner_id: number | null;
  created_at: string;
  updated_at: string;
}

const SELECT = 'SELECT p.*, c.name AS campaign_name FROM posts p LEFT JOIN campaigns c ON c.id = p.campaign_id';

const COLUMNS = {
  brandId: 'brand_id',
  campaignId: 'campaign_id',
  title: 'title',
  caption: 'caption',
  platform: 'platform',
  status: 'status',
  scheduledAt: 'scheduled_at',
  publicationUrl: 'publication_url',
  updatedAt: 'updated_at',
} as const;

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

export class SqlitePostRepository implements PostRepository {
  constructor(private readonly db: Db) {}

  async list(filter: PostFilter) {
    const where = scopedWhere('p.brand_id', filter.brandIds, { 'p.campaign_id': filter.campaignId, 'p.status': filter.status });
    if (!where) return [];
    const rows = this.db
      .prepare(`${SELECT} ${where.sql} ORDER BY p.created_at DESC, p.id DESC LIMIT ? OFFSET ?`)
      .all(...where.values, filter.limit, filter.offset) as Row[];
    const attachments = this.attachmentsOf(rows.map((r) => r.id));
    return rows.map((r) => toPost(r, attachments.get(r.id) ?? []));
  }

  async get(id: number) {
    return this.read(id);
  }

  async create(p: NewPost) {
    return this.db.transaction(() => {
      const { id } = this.db
        .prepare(
          `INSERT INTO posts (brand_id, campaign_id, title, caption, platform, status, scheduled_at, publication_url, owner_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        )
        .get(p.brandId, p.campaignId, p.title, p.caption, p.platform, p.status, p.scheduledAt, p.publicationUrl, p.ownerId, p.createdAt, p.createdAt) as {
        id: number;
      };
      this.setAttachments(id, p.attachments);
      return this.read(id)!;
    })();
  }

  async update(id: number, patch: PostPatch) {
    return this.db.transaction(() => {
      const set = assignments(patch, COLUMNS);
      if (this.db.prepare(`UPDATE posts SET ${set.sql} WHERE id = ?`).run(...set.values, id).changes === 0) return undefined;
      if (patch.attachments !== undefined) this.setAttachments(id, patch.attachments);
      return this.read(id);
    })();
  }

  async delete(id: number) {
    return this.db.prepare('DELETE FROM posts WHERE id = ?').run(id).changes > 0;
  }

  private read(id: number): Post | undefined {
    const row = this.db.prepare(`${SELECT} WHERE p.id = ?`).get(id) as Row | undefined;
    return row && toPost(row, this.attachmentsOf([id]).get(id) ?? []);
  }

  private attachmentsOf(postIds: number[]): Map<number, number[]> {
    if (postIds.length === 0) return new Map();
    const rows = this.db
      .prepare(`SELECT post_id, asset_id FROM post_attachments WHERE post_id IN ${inList(postIds)} ORDER BY post_id, position`)
      .raw()
      .all(...postIds) as [number, number][];
    return groupPairs(rows);
  }

  private setAttachments(postId: number, assetIds: number[]): void {
    this.db.prepare('DELETE FROM post_attachments WHERE post_id = ?').run(postId);
    const insert = this.db.prepare('INSERT INTO post_attachments (post_id, asset_id, position) VALUES (?, ?, ?)');
    [...new Set(assetIds)].forEach((assetId, position) => insert.run(postId, assetId, position));
  }
}
