import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { BASE_LOGGER, CHILD_LOGGER } from './logger';

/**
 * The fields that Express, its middleware and this application set on a request, all
 * declared when the request is made. Express gives every request and response a new
 * prototype (Object.setPrototypeOf), and V8 then adds each field that is new to the object
 * the slow way, at about 1.5 µs apiece; a signed-in read gained some fifteen, more than
 * all of its own work. Declared before that, setting them costs next to nothing.
 * A getter of Express's request (query, path, ip, ...) must never be listed here: an own
 * field would hide it.
 */
export const REQUEST_FIELDS = {
  // Express and its router
  res: undefined,
  next: undefined,
  baseUrl: undefined,
  originalUrl: undefined,
  params: undefined,
  route: undefined,
  _parsedUrl: undefined,
  _parsedOriginalUrl: undefined,
  // body-parser, multer, cookie-parser, express-session
  body: undefined,
  file: undefined,
  files: undefined,
  secret: undefined,
  cookies: undefined,
  signedCookies: undefined,
  session: undefined,
  sessionID: undefined,
  sessionStore: undefined,
  // this application
  id: undefined,
  lang: undefined,
  dashboard: undefined,
  workspace: undefined,
  workspaceTokenRejected: undefined,
  [BASE_LOGGER]: undefined,
  [CHILD_LOGGER]: undefined,
};

const RESPONSE_FIELDS = { locals: undefined, statusCode: 200, statusMessage: undefined };

const BODY_BYTES = Symbol('bodyBytes');

/**
 * Node's HTTP parser hands every body chunk to the request's push(), the one place that sees
 * them all, read or not. It is an own field of each request because Express replaces the
 * request's prototype, which would drop an override made in a subclass.
 */
function countingPush(this: DeclaredRequest, chunk: unknown, encoding?: BufferEncoding): boolean {
  if (chunk) this[BODY_BYTES] += (chunk as Buffer).length;
  return http.IncomingMessage.prototype.push.call(this, chunk, encoding);
}

class DeclaredRequest extends http.IncomingMessage {
  /** Body bytes received from the client so far, whether or not anything has read them yet. */
  [BODY_BYTES] = 0;

  constructor(socket: Socket) {
    super(socket);
    Object.assign(this, REQUEST_FIELDS);
    this.push = countingPush;
  }
}

class DeclaredResponse<Request extends IncomingMessage = IncomingMessage> extends http.ServerResponse<Request> {
  constructor(req: Request) {
    super(req);
    Object.assign(this, RESPONSE_FIELDS);
  }
}

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
    const bytes = req[BODY_BYTES];
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
    seen = req[BODY_BYTES];
    timer = setTimeout(check, pace.windowMs).unref();
  }, pace.graceMs).unref();
  req.once('end', stop);
  res.once('close', stop);
}

/** The HTTP server for the application (`createApp`), with requests and responses as above. */
export function createHttpServer(app: RequestListener, opts: { bodyPace?: BodyPace } = {}): http.Server {
  const pace = opts.bodyPace ?? DEFAULT_BODY_PACE;
  const server = http.createServer(
    { IncomingMessage: DeclaredRequest, ServerResponse: DeclaredResponse as typeof ServerResponse },
    (req, res) => {
      watchBodyPace(req as DeclaredRequest, res, pace);
      app(req, res);
    },
  );
  // Node's own limit on a whole request (300 s) would cut a slow but real large upload; the pace above guards instead.
  server.requestTimeout = 0;
  return server;
}
