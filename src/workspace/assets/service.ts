import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Clock } from '../../platform/clock';
import { BadRequest, Forbidden, NotFound, UnsupportedMediaType } from '../../platform/errors';
import { isFileKey, type FileStore } from '../../platform/file-store';
import { canSeeBrand, isManagerOrAbove, listedBrands, visibleOrNotFound, type Actor } from '../access';
import type { BrandSight, Change, ChangeFeed, Sight } from '../events/changes';
import type { Placement, PlacementInput } from '../placement';
import type { AttachmentCatalog } from '../posts/service';
import { NAME_MAX } from '../schemas';
import { ACCEPTED_TYPES, officeType, zipEntries, ZIP_CANDIDATE, type FileType } from './file-types';
import type { Asset, AssetRepository, NewAsset } from './repository';
import { makeThumbnail } from './thumbnails';
import type { ReceivedFile, UploadBatch } from './upload';
import { isoTime } from '../shared/values';

/** Where stored files are served; a file's URL is this and its key, nothing of the disk. */
export const UPLOADS_PATH = '/api/uploads';

const MB = 1024 * 1024;

export interface AssetBody {
  id: number;
  name: string;
  mimeType: string;
  size: number;
  /** The size in megabytes, with one decimal. */
  sizeMb: number;
  url: string;
  thumbnailUrl: string | null;
  downloadUrl: string;
  brandId: number;
  campaignId: number | null;
  postId: number | null;
  uploadedBy: number | null;
  createdAt: string;
  can: AssetPermissions;
}

/** What the reader may do with an asset, by the rule that refuses what they may not. */
export interface AssetPermissions {
  delete: boolean;
}

/** Its uploader, managers and superadmins delete an asset. */
export function mayDeleteAsset(actor: Actor, asset: Pick<Asset, 'uploadedBy'>): boolean {
  return asset.uploadedBy === actor.id || isManagerOrAbove(actor);
}

export function assetPermissions(actor: Actor, asset: Pick<Asset, 'uploadedBy'>): AssetPermissions {
  return { delete: mayDeleteAsset(actor, asset) };
}

/** The kinds of file the library filters by: PDF apart from the other documents. */
export const ASSET_TYPES = ['image', 'video', 'pdf', 'document'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

const PDF = 'application/pdf';

/** The stored MIME types of each kind the library filters by. */
const MIME_TYPES_OF: Record<AssetType, string[]> = (() => {
  const all = [...ACCEPTED_TYPES.values()];
  return {
    image: all.filter((t) => t.kind === 'image').map((t) => t.mimeType),
    video: all.filter((t) => t.kind === 'video').map((t) => t.mimeType),
    pdf: [PDF],
    document: all.filter((t) => t.kind === 'document' && t.mimeType !== PDF).map((t) => t.mimeType),
  };
})();

export interface AssetQuery {
  brandId?: number;
  campaignId?: number;
  postId?: number;
  /** Part of the file name. */
  q?: string;
  type?: AssetType;
  uploadedBy?: number;
  limit: number;
  offset: number;
}

/** The most assets one request deletes. */
export const BULK_DELETE_MAX = 200;

/** A stored file ready to send: its type, its size and how a browser should show it. */
export interface ServedFile {
  key: string;
  mimeType: string;
  size: number;
  /** Shown in the page (pictures, video, PDF) or only ever saved (everything else). */
  inline: boolean;
  /** The name a browser shows and saves the file under: the asset's own; a thumbnail has none. */
  name: string | null;
}

export function uploadUrl(key: string): string {
  return `${UPLOADS_PATH}/${key}`;
}

export function sizeInMb(bytes: number): number {
  return Math.round((bytes / MB) * 10) / 10;
}

export function toAssetBody(actor: Actor, asset: Asset): AssetBody {
  return {
    id: asset.id,
    name: asset.name,
    mimeType: asset.mimeType,
    size: asset.size,
    sizeMb: sizeInMb(asset.size),
    url: uploadUrl(asset.fileKey),
    thumbnailUrl: asset.thumbnailKey === null ? null : uploadUrl(asset.thumbnailKey),
    downloadUrl: `/api/assets/${asset.id}/download`,
    brandId: asset.brandId,
    campaignId: asset.campaignId,
    postId: asset.postId,
    uploadedBy: asset.uploadedBy,
    createdAt: asset.createdAt,
    can: assetPermissions(actor, asset),
  };
}

// C0 and C1 controls, and the bidirectional overrides and isolates that can make
// "gpj.exe" read as "exe.jpg".
// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are removed from names.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const EXTENSION_MAX = 16;

/**
 * A file name as the client gave it, made safe to keep and show: no folder part, no
 * control or direction-changing characters, no leading dots, at most NAME_MAX characters
 * (the extension kept when shortened); empty when nothing is left.
 */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const name = base.normalize('NFC').replace(UNSAFE_CHARACTERS, '').replace(/\s+/g, ' ').trim().replace(/^[.\s]+/, '');
  const chars = Array.from(name);
  if (chars.length <= NAME_MAX) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(name.slice(dot)) : [];
  if (ext.length === 0 || ext.length > EXTENSION_MAX) return chars.slice(0, NAME_MAX).join('');
  return chars.slice(0, NAME_MAX - ext.length).join('').trimEnd() + ext.join('');
}

/** A new, unguessable key for a stored file. */
export function newFileKey(type: FileType | typeof ZIP_CANDIDATE): string {
  return `${randomBytes(16).toString('hex')}.${type === ZIP_CANDIDATE ? 'zip' : type.ext}`;
}

/** Whether `key` has the shape of the keys given to uploaded files and their thumbnails. */
export function isAssetFileKey(key: string): boolean {
  return /^[0-9a-f]{32}\.[a-z0-9]+(\.[a-z0-9]+)?$/.test(key);
}

function thumbnailKeyFor(fileKey: string): string {
  return `${fileKey.slice(0, fileKey.indexOf('.'))}.thumb.webp`;
}

const THUMBNAIL_TYPE = 'image/webp';

/**
 * What posts say of a change to their media made here: an upload into a post, or assets
 * deleted from under the posts that have them, may be refused or take posts back to review.
 * The posts feature provides it.
 */
export interface PostMedia {
  uploadingTo(actor: Actor, postId: number): Promise<void>;
  /** Answers the ids of the posts that have any of the assets. */
  deletingAssets(actor: Actor, assetIds: number[]): Promise<number[]>;
}

/** What `/api/posts` learns of assets: which ids a brand owns, and their thumbnails. */
export function attachmentCatalog(assets: AssetRepository): AttachmentCatalog {
  return {
    async unknown(assetIds, brandId) {
      const known = new Set(await assets.idsInBrand([...new Set(assetIds)], brandId));
      return assetIds.filter((id) => !known.has(id));
    },
    async thumbnails(assetIds) {
      const keys = await assets.thumbnailKeys([...new Set(assetIds)]);
      return new Map([...keys].map(([id, key]) => [id, uploadUrl(key)]));
    },
  };
}

export class AssetsService {
  constructor(
    private readonly deps: {
      assets: AssetRepository;
      files: FileStore;
      placement: Placement;
      posts: PostMedia;
      live: ChangeFeed;
      clock: Clock;
    },
  ) {}

  async list(actor: Actor, query: AssetQuery): Promise<AssetBody[]> {
    const { q, type, ...rest } = query;
    const brandIds = listedBrands(actor, query.brandId);
    const filter = { ...rest, brandIds, nameContains: q || undefined, mimeTypes: type && MIME_TYPES_OF[type] };
    return (await this.deps.assets.list(filter)).map((asset) => toAssetBody(actor, asset));
  }

  async get(actor: Actor, id: number): Promise<AssetBody> {
    return toAssetBody(actor, await this.visible(actor, id));
  }

  /**
   * What each of `readers` is told of a change to asset `id`: its body as listed, or `gone`
   * where they could see it before (`was`) and no longer can.
   */
  async sights(readers: readonly Actor[], id: number, was?: BrandSight): Promise<Sight<AssetBody>[]> {
    const asset = await this.deps.assets.get(id);
    return readers.map((reader) => {
      if (asset && canSeeBrand(reader, asset.brandId)) return { body: toAssetBody(reader, asset) };
      return was && canSeeBrand(reader, was.brandId) ? 'gone' : undefined;
    });
  }

  /** Refuses an upload whose brand, campaign or post the actor may not upload into. */
  async checkTarget(actor: Actor, target: PlacementInput): Promise<void> {
    await this.deps.placement.resolve(actor, target, { post: 'edit' });
  }

  /**
   * Any role uploads into their brands: the brand given, or that of the campaign or post
   * given (the asset joins the post's attachments, which takes the right to edit it, and is
   * an edit of the post by the approval rule).
   * Every file must prove its type; images get a thumbnail. All files become assets, or
   * none do and the batch is discarded by the caller.
   */
  async upload(actor: Actor, target: PlacementInput, received: ReceivedFile[], batch: UploadBatch): Promise<AssetBody[]> {
    if (received.length === 0) throw new BadRequest('Send at least one file in the field "files"', 'NO_FILES');
    const placed = await this.deps.placement.resolve(actor, target, { post: 'edit' });
    const createdAt = isoTime(this.deps.clock.now());
    const assets: NewAsset[] = [];
    for (const file of received) {
      const type = await this.provenType(file);
      const thumbnailKey = type.kind === 'image' ? await this.storeThumbnail(file, batch) : null;
      assets.push({
        ...placed,
        uploadedBy: actor.id,
        name: cleanFileName(file.originalName) || `file.${type.ext}`,
        mimeType: type.mimeType,
        size: file.size,
        fileKey: file.key,
        thumbnailKey,
        createdAt,
      });
    }
    if (placed.postId !== null) await this.deps.posts.uploadingTo(actor, placed.postId);
    const created = await batch.keep(() => this.deps.assets.createMany(assets));
    const changes: Change[] = created.map((asset) => ({ type: 'asset', id: asset.id, action: 'created', by: actor.id }));
    if (placed.postId !== null) changes.push({ type: 'post', id: placed.postId, action: 'updated', by: actor.id });
    await this.deps.live.publish(...changes);
    return created.map((asset) => toAssetBody(actor, asset));
  }

  /**
   * The uploader, managers and superadmins delete; the asset leaves its posts first, which
   * is an edit of each of them by the approval rule.
   */
  async remove(actor: Actor, id: number): Promise<void> {
    const asset = await this.visible(actor, id);
    if (!mayDeleteAsset(actor, asset)) {
      throw new Forbidden('Only its uploader, managers and superadmins delete an asset', 'NOT_ASSET_UPLOADER');
    }
    const posts = await this.deps.posts.deletingAssets(actor, [id]);
    if (!(await this.deps.assets.delete(id))) throw new NotFound('No such asset');
    await this.deps.live.publish(...deletions(actor, [asset], posts));
    await this.deleteFiles([asset]);
  }

  /**
   * Several assets at once, all or none: every one must be the actor's to see (else 404,
   * as for one) and to delete (else 403), before any is touched. The rows go in one
   * transaction, detached from their posts first; the files once it has committed.
   */
  async removeMany(actor: Actor, ids: readonly number[]): Promise<number> {
    const unique = [...new Set(ids)];
    const found = new Map((await this.deps.assets.getMany(unique)).map((a) => [a.id, a]));
    const assets = unique.map((id) => visibleOrNotFound(actor, found.get(id), 'asset'));
    if (!assets.every((asset) => mayDeleteAsset(actor, asset))) {
      throw new Forbidden('Only its uploader, managers and superadmins delete an asset', 'NOT_ASSET_UPLOADER');
    }
    const posts = await this.deps.posts.deletingAssets(actor, unique);
    const deleted = await this.deps.assets.deleteMany(unique);
    await this.deps.live.publish(...deletions(actor, assets, posts));
    await this.deleteFiles(assets);
    return deleted;
  }

  private async deleteFiles(assets: readonly Asset[]): Promise<void> {
    const keys = assets.flatMap((a) => [a.fileKey, a.thumbnailKey]).filter((k): k is string => k !== null);
    await Promise.all(keys.map((k) => this.deps.files.delete(k)));
  }

  /** The original file of an asset, for a download. */
  async download(actor: Actor, id: number): Promise<ServedFile> {
    const asset = await this.visible(actor, id);
    return this.served(asset, asset.fileKey);
  }

  /**
   * A stored file by its key, an original or a thumbnail, if the actor may see its asset;
   * any other key (another brand's, a made-up one, a path) is simply not found.
   */
  async fileAt(actor: Actor, key: string): Promise<ServedFile> {
    const asset = visibleOrNotFound(actor, isFileKey(key) ? await this.deps.assets.byFileKey(key) : undefined, 'file');
    return this.served(asset, key);
  }

  async open(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const stream = await this.deps.files.get(key, range);
    if (!stream) throw new NotFound('No such file');
    return stream;
  }

  private async served(asset: Asset, key: string): Promise<ServedFile> {
    const stat = await this.deps.files.stat(key);
    if (!stat) throw new NotFound('No such file');
    const thumbnail = key === asset.thumbnailKey;
    const type = ACCEPTED_TYPES.get(thumbnail ? THUMBNAIL_TYPE : asset.mimeType);
    return {
      key,
      mimeType: type?.mimeType ?? 'application/octet-stream',
      size: stat.size,
      inline: type !== undefined && (type.kind !== 'document' || type.mimeType === 'application/pdf'),
      name: thumbnail ? null : asset.name,
    };
  }

  private async visible(actor: Actor, id: number): Promise<Asset> {
    return visibleOrNotFound(actor, await this.deps.assets.get(id), 'asset');
  }

  /** The type of a received file; a zip must show itself an Office document by its entries. */
  private async provenType(file: ReceivedFile): Promise<FileType> {
    if (file.type !== ZIP_CANDIDATE) return file.type;
    const entries = await zipEntries(file.size, (offset, length) => this.readBytes(file.key, offset, length));
    const type = entries && officeType(entries);
    if (!type) throw new UnsupportedMediaType(`"${file.originalName}" is not a file type the workspace accepts`, 'FILE_TYPE');
    return type;
  }

  private async readBytes(key: string, offset: number, length: number): Promise<Buffer> {
    if (length === 0) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    for await (const chunk of await this.open(key, { start: offset, end: offset + length - 1 })) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** Pictures that do not decode are refused: their first bytes claimed a type they are not. */
  private async storeThumbnail(file: ReceivedFile, batch: UploadBatch): Promise<string> {
    let thumbnail: Buffer;
    try {
      thumbnail = await makeThumbnail(await this.open(file.key));
    } catch {
      throw new UnsupportedMediaType(`"${file.originalName}" is not a readable image`, 'FILE_TYPE');
    }
    const key = thumbnailKeyFor(file.key);
    await batch.put(key, Readable.from([thumbnail]));
    return key;
  }
}

/** Assets gone, and the posts whose media they left. */
function deletions(actor: Actor, assets: readonly Asset[], postIds: readonly number[]): Change[] {
  return [
    ...assets.map((asset): Change => ({ type: 'asset', id: asset.id, action: 'deleted', was: { brandId: asset.brandId }, by: actor.id })),
    ...postIds.map((id): Change => ({ type: 'post', id, action: 'updated', by: actor.id })),
  ];
}
