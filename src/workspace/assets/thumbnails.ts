import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 320;

/** Larger pictures are refused rather than decoded: a small file can claim a huge canvas. */
const MAX_INPUT_PIXELS = 100_000_000;

/**
 * A WebP preview of an image, at most THUMBNAIL_SIZE on its longer side, upright as its
 * EXIF orientation says and without its metadata. Rejects when the bytes do not decode.
 */
export async function makeThumbnail(image: Readable): Promise<Buffer> {
  const transform = sharp({ failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 });
  const [thumbnail] = await Promise.all([transform.toBuffer(), pipeline(image, transform)]);
  return thumbnail;
}
