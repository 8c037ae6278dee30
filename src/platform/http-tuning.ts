/**
 * Every trick of this server that leans on how Node, Express, V8 or helmet work inside, in
 * one place, each with what it relies on. test/platform/http-tuning.test.ts fails as soon as
 * one of these reliances stops holding, so that an upgrade cannot quietly break or slow them.
 *
 * 1. Declared fields. Relies on Express 5 giving every request and response a new prototype
 *    (Object.setPrototypeOf(req, app.request)), after which V8 up to Node 22 adds each field
 *    new to the object the slow way, at about 1.5 µs apiece; a signed-in read gained some
 *    fifteen, more than all of its own work. Declared in the constructor, before the swap,
 *    setting them later is an ordinary store. Node 24's V8 adds them at the ordinary speed,
 *    where declaring them costs about 1 µs a request: kept while Node 22 is supported. A
 *    getter of Express's request (query, path, ip, ...) must never be declared: an own field
 *    would hide it.
 * 2. Counted body bytes. Relies on Node's HTTP parser handing every body chunk to the
 *    request's push(), whether or not anything reads the body yet. It is an own field of each
 *    request, because the prototype swap above would drop an override made in a subclass.
 * 3. Security headers recorded once. Relies on helmet setting only headers that do not depend
 *    on the request, so it can run once against a recorder; its chain of thirteen middleware
 *    per request cost more than the headers themselves.
 * 4. `req.log` as one getter on express.request. Relies on express.request being the
 *    prototype Express gives every request; a getter defined on each request instead cost
 *    more than the rest of the request logger together.
 * 5. The matched route kept with its mount path. Relies on the router assigning `req.route`
 *    when a route matches, while `req.baseUrl` is the path its router is mounted at; read
 *    when the answer goes, `req.baseUrl` is already unwound if an error left the router for
 *    the app's error handler. `route` is therefore an accessor on express.request rather
 *    than a declared field (which would hide it), and what it keeps is declared instead.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import express from 'express';
import type { Logger } from 'pino';
import { routeName } from './route-names';

export const BASE_LOGGER = Symbol('base logger');
export const CHILD_LOGGER = Symbol('child logger');
const BODY_BYTES = Symbol('body bytes');
const MATCHED_ROUTE = Symbol('matched route');
const MATCHED_MOUNT = Symbol('matched mount');

// ## 1. Declared fields

/** The fields that Express, its middleware and this application set on a request. */
export const REQUEST_FIELDS = {
  // Express and its router
  res: undefined,
  next: undefined,
  baseUrl: undefined,
  originalUrl: undefined,
  params: undefined,
  [MATCHED_ROUTE]: undefined,
  [MATCHED_MOUNT]: undefined,
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

// ## 2. Counted body bytes

function countingPush(this: DeclaredRequest, chunk: unknown, encoding?: BufferEncoding): boolean {
  if (chunk) this[BODY_BYTES] += (chunk as Buffer).length;
  return http.IncomingMessage.prototype.push.call(this, chunk, encoding);
}

export class DeclaredRequest extends http.IncomingMessage {
  /** Body bytes received from the client so far, whether or not anything has read them yet. */
  [BODY_BYTES] = 0;

  constructor(socket: Socket) {
    super(socket);
    Object.assign(this, REQUEST_FIELDS);
    this.push = countingPush;
  }
}

/** Body bytes received so far for a request made by createHttpServer. */
export function bodyBytesOf(req: DeclaredRequest): number {
  return req[BODY_BYTES];
}

export class DeclaredResponse<Request extends IncomingMessage = IncomingMessage> extends http.ServerResponse<Request> {
  constructor(req: Request) {
    super(req);
    Object.assign(this, RESPONSE_FIELDS);
  }
}

// ## 3. Headers recorded once

type HeaderMiddleware = (req: never, res: never, next: (err?: unknown) => void) => void;

/** Runs `middleware` once against a recorder; the answer sets what it set, on any response, in one loop. */
export function recordHeaders(middleware: HeaderMiddleware): (res: ServerResponse) => void {
  const headers: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  middleware({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet failed while its headers were recorded', { cause: err });
  });
  return (res) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}

// ## 4. req.log

type LoggedRequest = IncomingMessage & { id: string; [BASE_LOGGER]?: Logger; [CHILD_LOGGER]?: Logger };

Object.defineProperty(express.request, 'log', {
  configurable: true,
  get(this: LoggedRequest) {
    return (this[CHILD_LOGGER] ??= this[BASE_LOGGER]?.child({ reqId: this.id }));
  },
});

/** Hands a request the logger that its `req.log` derives a child from, on first use. */
export function setBaseLogger(req: IncomingMessage, logger: Logger): void {
  (req as LoggedRequest)[BASE_LOGGER] = logger;
}

// ## 5. The matched route with its mount path

interface MatchedRequest {
  baseUrl?: string;
  [MATCHED_ROUTE]?: { path: unknown };
  [MATCHED_MOUNT]?: string;
}

Object.defineProperty(express.request, 'route', {
  configurable: true,
  get(this: MatchedRequest) {
    return this[MATCHED_ROUTE];
  },
  set(this: MatchedRequest, route: { path: unknown }) {
    this[MATCHED_ROUTE] = route;
    this[MATCHED_MOUNT] = this.baseUrl ?? '';
  },
});

/**
 * The pattern of the route that matched `req`, under the path its router is mounted at
 * (`/api/posts` and `/:id` make `/api/posts/:id`); undefined when no route matched. The
 * mount path is as the address spelled it, which the routers match whatever its case: in
 * lower case it is the path as registered, always literal here. A pattern is named as the
 * route table names it (route-names.ts), so a label and the table agree.
 */
export function matchedRouteOf(req: IncomingMessage): string | undefined {
  const { [MATCHED_ROUTE]: route, [MATCHED_MOUNT]: mount = '' } = req as MatchedRequest;
  if (route === undefined) return undefined;
  const path = routeName(route.path);
  const base = mount.toLowerCase();
  return path === '/' && base !== '' ? base : base + path;
}
