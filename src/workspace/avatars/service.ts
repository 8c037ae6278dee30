import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { NotFound, UnsupportedMediaType } from '../../platform/errors';
import type { FileStore } from '../../platform/file-store';
import { isSuperadmin, type Actor } from '../access';
import type { UserRepository } from '../members/repository';
import type { UserRecord } from '../shared/member';

/** Side of the square picture kept, in pixels: twice the largest shown, for sharp screens. */
export const AVATAR_SIZE = 256;
/** Larger pictures are refused rather than decoded: a small file can claim a huge canvas. */
const MAX_INPUT_PIXELS = 50_000_000;
const URL_PREFIX = '/api/avatars/';

function newAvatarKey(): string {
  return `avatar-${randomBytes(16).toString('hex')}.webp`;
}

export function isAvatarKey(key: string): boolean {
  return /^avatar-[0-9a-f]{32}\.webp$/.test(key);
}

/** The key of a picture stored here, from a user's avatar address; undefined for any other address. */
function keyOf(avatar: string | null): string | undefined {
  const key = avatar?.startsWith(URL_PREFIX) ? avatar.slice(URL_PREFIX.length) : undefined;
  return key !== undefined && isAvatarKey(key) ? key : undefined;
}

/**
 * Profile pictures belong to their person, not to a brand: they are kept apart from the
 * marketing assets and shown to everyone who can see that person (colleagues of any shared
 * brand, superadmins, the person), whichever brand each of them works in.
 */
export class AvatarsService {
  constructor(private readonly deps: { files: FileStore; users: UserRepository }) {}

  /**
   * Makes a square picture of `image` (cropped to its centre, upright, without its metadata)
   * and makes it the user's avatar; a picture kept here before goes.
   */
  async set(user: UserRecord, image: Buffer): Promise<UserRecord> {
    let picture: Buffer;
    try {
      picture = await sharp(image, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover', position: 'attention' })
        .webp({ quality: 80 })
        .toBuffer();
    } catch {
      throw new UnsupportedMediaType('A profile picture must be a JPEG, PNG, WebP, GIF or AVIF image', 'AVATAR_TYPE');
    }
    const key = newAvatarKey();
    await this.deps.files.put(key, Readable.from([picture]));
    return this.replace(user, `${URL_PREFIX}${key}`, key);
  }

  async clear(user: UserRecord): Promise<UserRecord> {
    return this.replace(user, null, undefined);
  }

  /** The picture at `key`, when it is the avatar of someone `viewer` may see; else 404, as for a missing one. */
  async open(viewer: Actor, key: string): Promise<{ stream: Readable; size: number }> {
    const owner = isAvatarKey(key) ? await this.deps.users.findByAvatar(`${URL_PREFIX}${key}`) : undefined;
    const visible =
      owner !== undefined && (isSuperadmin(viewer) || owner.id === viewer.id || owner.brandIds.some((b) => viewer.brandIds.includes(b)));
    const stat = visible ? await this.deps.files.stat(key) : undefined;
    const stream = stat ? await this.deps.files.get(key) : undefined;
    if (!stat || !stream) throw new NotFound('No such picture');
    return { stream, size: stat.size };
  }

  private async replace(user: UserRecord, avatar: string | null, kept: string | undefined): Promise<UserRecord> {
    const updated = await this.deps.users.update(user.id, { avatar });
    if (typeof updated !== 'object') {
      if (kept) await this.deps.files.delete(kept);
      throw new NotFound('This account no longer exists');
    }
    const previous = keyOf(user.avatar);
    if (previous && previous !== kept) await this.deps.files.delete(previous);
    return updated;
  }
}
