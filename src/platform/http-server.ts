import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { BASE_LOGGER, CHILD_LOGGER } from './logger';

/**
 * The fields that Express, its middleware and this application set on a request, all
 * declared when the request is made. Express gives every request and response a new
 * prototype (Object.setPrototypeOf), and V8 up to Node 22 then adds each field that is new
 * to the object the slow way, at about 1.5 µs apiece; a signed-in read gained some fifteen,
 * more than all of its own work. Declared before that, setting them costs next to nothing.
 * Node 24's V8 adds them at the ordinary speed, where declaring them costs about 1 µs a
 * request: kept while Node 22 is supported.
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

class DeclaredRequest extends http.IncomingMessage {
  constructor(socket: Socket) {
    super(socket);
    Object.assign(this, REQUEST_FIELDS);
  }
}

class DeclaredResponse<Request extends IncomingMessage = IncomingMessage> extends http.ServerResponse<Request> {
  constructor(req: Request) {
    super(req);
    Object.assign(this, RESPONSE_FIELDS);
  }
}

/** The HTTP server for the application (`createApp`), with requests and responses as above. */
export function createHttpServer(app: RequestListener): http.Server {
  return http.createServer({ IncomingMessage: DeclaredRequest, ServerResponse: DeclaredResponse as typeof ServerResponse }, app);
}
