import type { Request } from 'express';
import { Forbidden } from './errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host')}`;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export function isSameOrigin(req: Request): boolean {
  if (req.get('sec-fetch-site') === 'same-origin') return true;
  const origin = req.get('origin');
  if (origin) return origin === ownOrigin(req);
  const referer = req.get('referer');
  if (referer) return originOf(referer) === ownOrigin(req);
  return false;
}

/**
 * A state-changing request authenticated by a cookie must come from this server's own
 * pages; SameSite=Lax alone still lets same-site subdomains and old browsers through.
 * `usesCookie` tells whether this request's authentication came from a cookie.
 */
export function checkSameOrigin(req: Request, usesCookie: (req: Request) => boolean): void {
  if (SAFE.has(req.method) || !usesCookie(req) || isSameOrigin(req)) return;
  throw new Forbidden('Cross-origin request refused', 'CSRF');
}
