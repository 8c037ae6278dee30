import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { bodyBytesOf, DeclaredRequest, DeclaredResponse } from './http-tuning';

/** How slow a request body may arrive before the request is cut with 408. */
export interface BodyPace {
  /** Time a body is given before its pace is checked at all. */
  graceMs: number;
  /** Length of each stretch over which the pace is then measured. */
  windowMs: number;
  minBytesPerSecond: number;
}

/**
 * After the first 10 s, a body must keep up at least 1 KB/s. A slow but real upload (a
 * 25 MB file over a poor line) makes far more; a client holding a connection open with a
 * byte now and then makes far less.
 */
export const DEFAULT_BODY_PACE: BodyPace = { graceMs: 10_000, windowMs: 5_000, minBytesPerSecond: 1024 };

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Cuts `req` with 408 once its body falls below the pace; stops watching when the body is in or the answer has gone. */
function watchBodyPace(req: DeclaredRequest, res: ServerResponse, pace: BodyPace): void {
  if (!hasBody(req)) return;
  let seen = 0;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => clearTimeout(timer);
  const check = () => {
    if (req.complete || res.writableEnded) return;
    const bytes = bodyBytesOf(req);
    if (bytes - seen < (pace.minBytesPerSecond * pace.windowMs) / 1000) {
      if (!res.headersSent) {
        const body = JSON.stringify({ error: 'The request body arrived too slowly', code: 'REQUEST_TIMEOUT' });
        res.writeHead(408, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
        res.end(body);
      }
      req.socket.destroySoon();
      return;
    }
    seen = bytes;
    timer = setTimeout(check, pace.windowMs).unref();
  };
  timer = setTimeout(() => {
    seen = bodyBytesOf(req);
    timer = setTimeout(check, pace.windowMs).unref();
  }, pace.graceMs).unref();
  req.once('end', stop);
  res.once('close', stop);
}

/** The HTTP server for the application (`createApp`), with the requests and responses of http-tuning.ts. */
export function createHttpServer(app: RequestListener, opts: { bodyPace?: BodyPace } = {}): http.Server {
  const pace = opts.bodyPace ?? DEFAULT_BODY_PACE;
  const server = http.createServer(
    { IncomingMessage: DeclaredRequest, ServerResponse: DeclaredResponse },
    (req, res) => {
      watchBodyPace(req, res, pace);
      app(req, res);
    },
  );
  // Node's own limit on a whole request (300 s) would cut a slow but real large upload; the pace above guards instead.
  server.requestTimeout = 0;
  return server;
}
