// Uploads with progress: assets to POST /api/assets, one request per file, so that each file
// has its own progress bar and its own answer; and the signed-in member's profile picture.
import { upload } from '../core/upload.js';
import { guard } from './common.js';

/** An asset as the API answers it, with what the reader may do to it. @typedef {import('../../../src/workspace/assets/service').AssetBody} Asset */

/**
 * Sends one file with the form fields (brandId, campaignId, postId) and resolves with the
 * created asset; `onProgress` gets the fraction sent, from 0 to 1.
 * @param {File} file
 * @param {Record<string, string | number | null | undefined>} fields
 * @param {(fraction: number) => void} [onProgress]
 * @returns {Promise<Asset>}
 */
export async function uploadFile(file, fields, onProgress = () => {}) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== null && value !== '') body.append(name, String(value));
  body.append('files', file, file.name);
  const { assets } = /** @type {{ assets: Asset[] }} */ (await guard(upload({ url: '/api/assets', body, onProgress })));
  onProgress(1);
  return assets[0];
}

/**
 * Makes `file` the signed-in member's picture and resolves with the member as it now is.
 * @param {File} file
 * @param {(fraction: number) => void} [onProgress]
 * @returns {Promise<import('./common.js').Me>}
 */
export async function uploadProfilePicture(file, onProgress = () => {}) {
  const body = new FormData();
  body.append('file', file, file.name);
  const { user } = /** @type {{ user: import('./common.js').Me }} */ (await guard(upload({ url: '/api/auth/me/avatar', body, onProgress })));
  onProgress(1);
  return user;
}
