import type { Db } from '../../platform/sqlite';
import { inList, scopedWhere } from '../sql';

export interface Asset {
  id: number;
  brandId: number;
  campaignId: number | null;
  postId: number | null;
  uploadedBy: number | null;
  /** The name the file had on the uploader's computer, cleaned. */
  name: string;
  mimeType: string;
  size: number;
  /** Keys of the original and of its thumbnail in the file store. */
  fileKey: string;
  thumbnailKey: string | null;
  createdAt: string;
}

export type NewAsset = Omit<Asset, 'id'>;

export interface AssetFilter {
  /** Only these brands (undefined: every brand). */
  brandIds: number[] | undefined;
  campaignId?: number;
  postId?: number;
  limit: number;
  offset: number;
}

export interface AssetRepository {
  /** Newest first. */
  list(filter: AssetFilter): Promise<Asset[]>;
  get(id: number): Promise<Asset | undefined>;
  /** The asset whose original or thumbnail is stored under `key`. */
  byFileKey(key: string): Promise<Asset | undefined>;
  /**
   * Stores the assets of one upload in one transaction; those with a `postId` are also
   * appended to that post's attachments, in order.
   */
  createMany(assets: NewAsset[]): Promise<Asset[]>;
  /** Detaches the asset from every post, then removes it, in one transaction. */
  delete(id: number): Promise<boolean>;
  /** The ids among `ids` that are assets of `brandId`. */
  idsInBrand(ids: number[], brandId: number): Promise<number[]>;
  /** Thumbnail keys of those among `ids` that have one. */
  thumbnailKeys(ids: number[]): Promise<Map<number, string>>;
  /** Those of `keys` that some asset stores, as its original or its thumbnail. */
  storedKeys(keys: string[]): Promise<Set<string>>;
}

interface Row {
  id: number;
  brand_id: number;
  campaign_id: number | null;
  post_id: number | null;
  uploaded_by: number | null;
  name: string;
  mime_type: string;
  size: number;
  file_key: string;
  thumbnail_key: string | null;
  created_at: string;
}

const toAsset = (r: Row): Asset => ({
  id: r.id,
  brandId: r.brand_id,
  campaignId: r.campaign_id,
  postId: r.post_id,
  uploadedBy: r.uploaded_by,
  name: r.name,
  mimeType: r.mime_type,
  size: r.size,
  fileKey: r.file_key,
  thumbnailKey: r.thumbnail_key,
  createdAt: r.created_at,
});

export class SqliteAssetRepository implements AssetRepository {
  constructor(private readonly db: Db) {}

  async list(filter: AssetFilter) {
    const where = scopedWhere('brand_id', filter.brandIds, { campaign_id: filter.campaignId, post_id: filter.postId });
    if (!where) return [];
    const rows = this.db
      .prepare(`SELECT * FROM assets ${where.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...where.values, filter.limit, filter.offset) as Row[];
    return rows.map(toAsset);
  }

  async get(id: number) {
    const row = this.db.prepare('SELECT * FROM assets WHERE id = ?').get(id) as Row | undefined;
    return row && toAsset(row);
  }

  async byFileKey(key: string) {
    const row = this.db.prepare('SELECT * FROM assets WHERE file_key = ? OR thumbnail_key = ?').get(key, key) as Row | undefined;
    return row && toAsset(row);
  }

  async createMany(assets: NewAsset[]) {
    const insert = this.db.prepare(
      `INSERT INTO assets (brand_id, campaign_id, post_id, uploaded_by, name, mime_type, size, file_key, thumbnail_key, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    );
    const attach = this.db.prepare(
      `INSERT INTO post_attachments (post_id, asset_id, position)
       VALUES (?, ?, (SELECT COALESCE(MAX(position) + 1, 0) FROM post_attachments WHERE post_id = ?))`,
    );
    return this.db.transaction(() =>
      assets.map((a) => {
        const row = insert.get(a.brandId, a.campaignId, a.postId, a.uploadedBy, a.name, a.mimeType, a.size, a.fileKey, a.thumbnailKey, a.createdAt) as Row;
        if (a.postId !== null) attach.run(a.postId, row.id, a.postId);
        return toAsset(row);
      }),
    )();
  }

  async delete(id: number) {
    return this.db.transaction(() => {
      this.db.prepare('DELETE FROM post_attachments WHERE asset_id = ?').run(id);
      return this.db.prepare('DELETE FROM assets WHERE id = ?').run(id).changes > 0;
    })();
  }

  async idsInBrand(ids: number[], brandId: number) {
    if (ids.length === 0) return [];
    return this.db.prepare(`SELECT id FROM assets WHERE brand_id = ? AND id IN ${inList(ids)}`).pluck().all(brandId, ...ids) as number[];
  }

  async thumbnailKeys(ids: number[]) {
    if (ids.length === 0) return new Map<number, string>();
    const rows = this.db
      .prepare(`SELECT id, thumbnail_key FROM assets WHERE thumbnail_key IS NOT NULL AND id IN ${inList(ids)}`)
      .raw()
      .all(...ids) as [number, string][];
    return new Map(rows);
  }

  async storedKeys(keys: string[]) {
    if (keys.length === 0) return new Set<string>();
    const list = inList(keys);
    const rows = this.db
      .prepare(`SELECT file_key, thumbnail_key FROM assets WHERE file_key IN ${list} OR thumbnail_key IN ${list}`)
      .raw()
      .all(...keys, ...keys) as [string, string | null][];
    return new Set(rows.flat().filter((key): key is string => key !== null));
  }
}
