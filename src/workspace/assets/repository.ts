import { sql, type NotNull, type Selectable } from 'kysely';
import type { WorkspaceRecords } from '../records';
import type { WorkspaceTables } from '../tables';
import { containsPattern, contains } from '../search/repository';

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
  /** Names that contain this text, Latin letters in either case; `%` and `_` stand for themselves. */
  nameContains?: string;
  /** Only files of these MIME types. */
  mimeTypes?: readonly string[];
  uploadedBy?: number;
  limit: number;
  offset: number;
}

export interface AssetRepository {
  /** Newest first. */
  list(filter: AssetFilter): Promise<Asset[]>;
  get(id: number): Promise<Asset | undefined>;
  /** Those of `ids` that exist, in no particular order. */
  getMany(ids: readonly number[]): Promise<Asset[]>;
  /** The asset whose original or thumbnail is stored under `key`. */
  byFileKey(key: string): Promise<Asset | undefined>;
  /**
   * Stores the assets of one upload in one transaction; those with a `postId` are also
   * appended to that post's attachments, in order.
   */
  createMany(assets: NewAsset[]): Promise<Asset[]>;
  /** Detaches the asset from every post, then removes it, in one transaction. */
  delete(id: number): Promise<boolean>;
  /** Detaches the assets from every post, then removes them, in one transaction; how many went. */
  deleteMany(ids: readonly number[]): Promise<number>;
  /** The ids among `ids` that are assets of `brandId`. */
  idsInBrand(ids: number[], brandId: number): Promise<number[]>;
  /** Thumbnail keys of those among `ids` that have one. */
  thumbnailKeys(ids: number[]): Promise<Map<number, string>>;
  /** Those of `keys` that some asset stores, as its original or its thumbnail. */
  storedKeys(keys: string[]): Promise<Set<string>>;
}

type Row = Selectable<WorkspaceTables['assets']>;

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

export class SqlAssetRepository implements AssetRepository {
  constructor(private readonly records: WorkspaceRecords) {}

  async list(filter: AssetFilter) {
    if (filter.brandIds?.length === 0 || filter.mimeTypes?.length === 0) return [];
    const namePattern = filter.nameContains === undefined ? undefined : containsPattern(filter.nameContains);
    const rows = await this.records.db
      .selectFrom('assets')
      .selectAll()
      .$call((q) => (filter.brandIds === undefined ? q : q.where('brand_id', 'in', filter.brandIds)))
      .$call((q) => (filter.campaignId === undefined ? q : q.where('campaign_id', '=', filter.campaignId)))
      .$call((q) => (filter.postId === undefined ? q : q.where('post_id', '=', filter.postId)))
      .$call((q) => (filter.uploadedBy === undefined ? q : q.where('uploaded_by', '=', filter.uploadedBy)))
      .$call((q) => (filter.mimeTypes === undefined ? q : q.where('mime_type', 'in', [...filter.mimeTypes])))
      .$call((q) => (namePattern === undefined ? q : q.where((eb) => contains(this.records.engine, eb.ref('name'), namePattern))))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    return rows.map(toAsset);
  }

  async get(id: number) {
    const row = await this.records.db.selectFrom('assets').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAsset(row);
  }

  async getMany(ids: readonly number[]) {
    if (ids.length === 0) return [];
    const rows = await this.records.db.selectFrom('assets').selectAll().where('id', 'in', [...ids]).execute();
    return rows.map(toAsset);
  }

  async byFileKey(key: string) {
    const row = await this.records.db
      .selectFrom('assets')
      .selectAll()
      .where((eb) => eb.or([eb('file_key', '=', key), eb('thumbnail_key', '=', key)]))
      .executeTakeFirst();
    return row && toAsset(row);
  }

  async createMany(assets: NewAsset[]) {
    return this.records.db.transaction().execute(async (trx) => {
      // Each post's row is held to the end, so that uploads to one post at the same moment
      // take their places one after the other instead of the same ones.
      const postIds = [...new Set(assets.flatMap((a) => (a.postId === null ? [] : [a.postId])))];
      if (postIds.length > 0 && this.records.engine.locksRows) {
        await trx.selectFrom('posts').select('id').where('id', 'in', postIds).orderBy('id').forUpdate().execute();
      }
      const created: Asset[] = [];
      for (const a of assets) {
        const row = await trx
          .insertInto('assets')
          .values({
            brand_id: a.brandId,
            campaign_id: a.campaignId,
            post_id: a.postId,
            uploaded_by: a.uploadedBy,
            name: a.name,
            mime_type: a.mimeType,
            size: a.size,
            file_key: a.fileKey,
            thumbnail_key: a.thumbnailKey,
            created_at: a.createdAt,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (a.postId !== null) {
          const postId = a.postId;
          await trx
            .insertInto('post_attachments')
            .values((eb) => ({
              post_id: postId,
              asset_id: row.id,
              position: eb
                .selectFrom('post_attachments')
                .select(sql<number>`coalesce(max(position) + 1, 0)`.as('next'))
                .where('post_id', '=', postId),
            }))
            .execute();
        }
        created.push(toAsset(row));
      }
      return created;
    });
  }

  async delete(id: number) {
    return this.records.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('post_attachments').where('asset_id', '=', id).execute();
      const result = await trx.deleteFrom('assets').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async deleteMany(ids: readonly number[]) {
    if (ids.length === 0) return 0;
    return this.records.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('post_attachments').where('asset_id', 'in', [...ids]).execute();
      const result = await trx.deleteFrom('assets').where('id', 'in', [...ids]).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  async idsInBrand(ids: number[], brandId: number) {
    if (ids.length === 0) return [];
    const rows = await this.records.db.selectFrom('assets').select('id').where('brand_id', '=', brandId).where('id', 'in', ids).execute();
    return rows.map((r) => r.id);
  }

  async thumbnailKeys(ids: number[]) {
    if (ids.length === 0) return new Map<number, string>();
    const rows = await this.records.db
      .selectFrom('assets')
      .select(['id', 'thumbnail_key'])
      .where('thumbnail_key', 'is not', null)
      .$narrowType<{ thumbnail_key: NotNull }>()
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r.thumbnail_key]));
  }

  async storedKeys(keys: string[]) {
    if (keys.length === 0) return new Set<string>();
    const rows = await this.records.db
      .selectFrom('assets')
      .select(['file_key', 'thumbnail_key'])
      .where((eb) => eb.or([eb('file_key', 'in', keys), eb('thumbnail_key', 'in', keys)]))
      .execute();
    return new Set(rows.flatMap((r) => [r.file_key, r.thumbnail_key]).filter((key): key is string => key !== null));
  }
}
