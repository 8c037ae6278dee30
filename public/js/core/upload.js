// Sends a file with XMLHttpRequest rather than fetch: only it reports upload progress. Used by
// the dashboard's CSV import and the workspace's asset uploads, each behind its session rule.
import { ApiError, parseJson } from './api.js';

/**
 * @typedef {object} UploadRequest
 * @property {string} url
 * @property {XMLHttpRequestBodyInit} body
 * @property {Record<string, string>} [headers]
 * @property {(fraction: number) => void} [onProgress] the share of the body sent, from 0 to 1
 * @property {() => void} [onSent] the body is sent and the server is working on it
 */

/**
 * POSTs `body` and resolves with the answer's JSON when it is a success; rejects with an
 * ApiError for an error status, or a TypeError when the request fails on the way.
 * @param {UploadRequest} request
 * @returns {Promise<unknown>}
 */
export function upload({ url, body, headers = {}, onProgress, onSent }) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.(event.loaded / event.total);
    });
    xhr.upload.addEventListener('load', () => onSent?.());
    xhr.addEventListener('load', () => {
      const answer = parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(answer);
      else reject(new ApiError(xhr.status, answer));
    });
    xhr.addEventListener('error', () => reject(new TypeError('network')));
    xhr.addEventListener('abort', () => reject(new TypeError('aborted')));
    xhr.send(body);
  });
}
