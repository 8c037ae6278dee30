import type { Request, RequestHandler, Response } from 'express';
import compression from 'compression';
import zlib from 'node:zlib';

/** Below this an answer fits in a packet or two anyway and compressing it only costs time. */
export const COMPRESS_ABOVE_BYTES = 1024;
const SECRET_IN_BODY = 'secretInBody';

/**
 * Marks an answer that carries a secret taken from its own request (a single-use link's
 * token): it is sent as it is, so its compressed size cannot be measured to guess the secret.
 */
export function sendUncompressed(res: Response): void {
  res.locals[SECRET_IN_BODY] = true;
}

/**
 * BREACH needs an attacker's guess reflected in the same compressed answer as a secret that
 * stays the same across answers. Pages and reads carry no such secret (no CSRF token: writes
 * are checked by origin; sessions live in cookies, which are headers), so they are compressed.
 * The bodies that do carry tokens are answers to writes (sign-in, a new password, an accepted
 * invitation: a token made fresh each time) and the pages of single-use links, which are
 * marked: neither is compressed. Nor are event streams, which must reach the browser event by
 * event.
 */
function shouldCompress(req: Request, res: Response): boolean {
  if (res.locals[SECRET_IN_BODY] === true) return false;
  const type = String(res.getHeader('Content-Type') ?? '');
  if (type.startsWith('text/event-stream')) return false;
  return compression.filter(req, res);
}

/**
 * Dynamic answers above 1 KB compressed on the fly: brotli when the browser takes it, else
 * gzip. Only reads are (see shouldCompress), and a client that accepts no encoding (a proxy's
 * sub-request, a probe) skips the wrapping of its response altogether.
 */
export function compressAnswers(): RequestHandler {
  const compress = compression({
    threshold: COMPRESS_ABOVE_BYTES,
    filter: shouldCompress,
    // Quality 4 compresses about as well as gzip's default at a fraction of brotli's best cost.
    brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  return (req, res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && req.headers['accept-encoding']) compress(req, res, next);
    else next();
  };
}
