// Uploads to POST /api/assets with XMLHttpRequest, whose upload progress events fetch does
// not give; one request per file, so that each file has its own progress and its own answer.
import { ApiError, endsSession, signOut } from './common.js';

/**
 * Sends one file with the form fields (brandId, campaignId, postId) and resolves with the
 * created asset; `onProgress` gets the fraction sent, from 0 to 1.
 */
export function uploadFile(file, fields, onProgress = () => {}) {
  return new Promise((resolve, reject) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) if (value !== undefined && value !== null && value !== '') body.append(name, String(value));
    body.append('files', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/assets');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.responseType = 'json';
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      if (xhr.status === 201) {
        onProgress(1);
        resolve(xhr.response.assets[0]);
        return;
      }
      if (endsSession(xhr.status)) {
        void signOut();
        return;
      }
      reject(new ApiError(xhr.status, xhr.response));
    });
    xhr.addEventListener('error', () => reject(new TypeError('network')));
    xhr.addEventListener('abort', () => reject(new TypeError('aborted')));
    xhr.send(body);
  });
}
