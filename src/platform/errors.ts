import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { Logger } from './logger';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly details?: object,
  ) {
    super(message);
  }
}

/** What a callback API rejected with, as an Error (they may reject with anything). */
export function toError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}

export class BadRequest extends HttpError {
  constructor(message = 'Bad request', code?: string, details?: object) {
    super(400, message, code, details);
  }
}
export class Unauthorized extends HttpError {
  constructor(message = 'Not signed in', code?: string) {
    super(401, message, code);
  }
}
export class Forbidden extends HttpError {
  constructor(message = 'Not allowed', code?: string) {
    super(403, message, code);
  }
}
export class NotFound extends HttpError {
  constructor(message = 'Not found', code?: string) {
    super(404, message, code);
  }
}
export class MethodNotAllowed extends HttpError {
  constructor(message = 'Method not allowed') {
    super(405, message);
  }
}
export class Conflict extends HttpError {
  constructor(message = 'Conflict', code?: string) {
    super(409, message, code);
  }
}
/** What a link opened is gone for good: used, expired or withdrawn. */
export class Gone extends HttpError {
  constructor(message = 'Gone', code?: string) {
    super(410, message, code);
  }
}
export class PayloadTooLarge extends HttpError {
  constructor(message = 'Payload too large', code?: string) {
    super(413, message, code);
  }
}
export class UnsupportedMediaType extends HttpError {
  constructor(message = 'Unsupported media type', code?: string) {
    super(415, message, code);
  }
}
export class TooManyRequests extends HttpError {
  constructor(message = 'Too many requests', code?: string) {
    super(429, message, code);
  }
}

export interface ErrorBody {
  error: string;
  code?: string;
  details?: object;
}

/** Errors raised by body-parser and friends carry `type`/`status`; map the ones clients cause. */
function fromLibraryError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof ZodError) {
    return new BadRequest('Invalid input', 'VALIDATION', { issues: err.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) });
  }
  if (typeof err === 'object' && err !== null) {
    const e = err as { type?: string; status?: number; code?: string; message?: string };
    if (e.type === 'entity.parse.failed') return new BadRequest('Malformed JSON body', 'MALFORMED_JSON');
    if (e.type === 'entity.too.large') return new PayloadTooLarge('Request body too large');
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') return new UnsupportedMediaType('Unsupported body encoding');
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
      return new HttpError(e.status, e.message || 'Bad request');
    }
  }
  return undefined;
}

export function toErrorBody(err: HttpError): ErrorBody {
  const body: ErrorBody = { error: err.message };
  if (err.code) body.code = err.code;
  if (err.details) body.details = err.details;
  return body;
}

export type ErrorPageRenderer = (req: Parameters<RequestHandler>[0], res: Parameters<RequestHandler>[1], status: number, message: string) => void;

/** Paths that answer JSON only, errors included: they never render a page. */
/** The API reference for people: the one page under `/api/`. */
export const API_DOCS_PATH = '/api/docs';

export function isApiPath(path: string): boolean {
  return (path.startsWith('/api/') && path !== API_DOCS_PATH) || path.startsWith('/auth/');
}

function wantsHtml(req: Parameters<RequestHandler>[0]): boolean {
  if (isApiPath(req.path)) return false;
  return req.method === 'GET' && req.accepts(['json', 'html']) === 'html';
}

/**
 * The one place where errors become responses: JSON for APIs, a page for browsers.
 * `recognise` names errors that only the caller knows, such as a database out of reach.
 */
export function errorHandler(logger: Logger, renderPage?: ErrorPageRenderer, recognise?: (err: unknown) => HttpError | undefined): ErrorRequestHandler {
  return (err, req, res, _next) => {
    if (res.destroyed) {
      // The client went away (an upload cut off, say), which is most often the error itself:
      // the request logger reports the aborted request; the details are kept for debugging.
      logger.debug({ err, reqId: req.id }, 'error after the client went away');
      return;
    }
    const known = fromLibraryError(err) ?? recognise?.(err);
    const status = known?.status ?? 500;
    if (status >= 500) logger.error({ err, reqId: req.id }, known ? known.message : 'unhandled error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body: ErrorBody = known ? toErrorBody(known) : { error: 'Internal server error', code: 'INTERNAL' };
    // The prelude, before every route, gave each request its id.
    if (status >= 500) body.details = { requestId: req.id };
    if (status === 429 && !res.getHeader('Retry-After')) res.setHeader('Retry-After', '60');
    // Whatever a route had set up for the answer it meant to send no longer describes this one.
    res.removeHeader('Content-Disposition');
    res.removeHeader('Content-Type');
    if (renderPage && wantsHtml(req)) {
      renderPage(req, res, status, body.error);
      return;
    }
    res.status(status).json(body);
  };
}

export const notFoundHandler: RequestHandler = () => {
  throw new NotFound();
};
