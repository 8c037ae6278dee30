import type { Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import { checkSameOrigin } from '../../platform/csrf';
import { Forbidden, toError } from '../../platform/errors';
import { checkSignedIn } from '../request';
import type { SessionRevoker } from '../members/service';
import { SIGN_IN_TTL_MS, type AuthService } from './service';
import { actorFor } from '../shared/member';

export const SESSION_COOKIE = 'workspace_session';

export function sessionCookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
}

const READS = new Set(['GET', 'HEAD']);
const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Who is asking, and whether they may go on, for application B, decided in one place so
 * that the order of the checks (session, identity, CSRF, password gate, sign-in) is the
 * same on every path:
 * - `identify`, for pages: the user, or none.
 * - `api`, for every API path: also the CSRF check for cookie writes and the password-change
 *   gate, leaving refusals to the routes (sign-in and sign-out must stay reachable).
 * - `signedIn`: `api`, and 401 for nobody.
 */
/** express-session's store for the workspace's cookie sessions, which can also end all of one user's. */
export type CookieSessionStore = session.Store & SessionRevoker;

export function workspaceAccess(opts: { auth: AuthService; store: CookieSessionStore; secret: string; secure: boolean }) {
  const sessions = session({
    name: SESSION_COOKIE,
    secret: opts.secret,
    store: opts.store,
    resave: false,
    saveUninitialized: false,
    cookie: { ...sessionCookieOptions(opts.secure), maxAge: SIGN_IN_TTL_MS },
  });
  const startSession = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => sessions(req, res, (err?: unknown) => (err ? reject(toError(err)) : resolve())));

  /**
   * A bearer token decides alone (a bad one is not rescued by a cookie); otherwise the cookie
   * session. A read sent with a token never uses the cookie session; writes still get it,
   * as signing in and out also start and end one.
   */
  const findUser = async (req: Request, res: Response) => {
    const header = req.headers.authorization;
    if (header === undefined || !READS.has(req.method)) await startSession(req, res);
    if (header !== undefined) {
      const token = BEARER.exec(header)?.[1];
      const user = token === undefined ? undefined : await opts.auth.userFromToken(token);
      if (user) req.workspace = { user, actor: actorFor(user), via: 'token' };
      else req.workspaceTokenRejected = true;
      return;
    }
    const cookieSession = cookieSessionOf(req);
    const userId = cookieSession?.userId;
    const userKey = cookieSession?.userKey;
    if (typeof userId === 'number' && typeof userKey === 'string') {
      const user = await opts.auth.userById(userId, userKey);
      if (user && user.passwordStamp === req.session.passwordStamp) req.workspace = { user, actor: actorFor(user), via: 'cookie' };
    }
  };

  const apiAccess = (signedIn: boolean): RequestHandler => async (req, res, next) => {
    await findUser(req, res);
    checkSameOrigin(req, signedInByCookie);
    checkPasswordChanged(req);
    if (signedIn) checkSignedIn(req);
    next();
  };

  const identify: RequestHandler = async (req, res, next) => {
    await findUser(req, res);
    next();
  };
  return { identify, api: apiAccess(false), signedIn: apiAccess(true) };
}

/**
 * The request's cookie session, when express-session gave it one: a read sent with a bearer
 * token never starts one, nor does express-session while its store is out of reach, whatever
 * its type says.
 */
export function cookieSessionOf(req: Request): Request['session'] | undefined {
  return req.session;
}

function signedInByCookie(req: Request): boolean {
  return req.workspace?.via === 'cookie';
}

/** What a user who must change the password may still reach. */
const OPEN_WHILE_PASSWORD_CHANGE_REQUIRED = new Set([
  'GET /api/auth/me',
  'HEAD /api/auth/me',
  'POST /api/auth/password',
  'POST /api/auth/logout',
  'POST /api/auth/login',
  'POST /api/auth/invitations/accept',
]);

function checkPasswordChanged(req: Request): void {
  if (!req.workspace?.user.mustChangePassword) return;
  // Express matches paths case-insensitively and ignores a trailing slash; so does this.
  const path = `${req.baseUrl}${req.path}`.toLowerCase().replace(/\/+$/, '');
  if (OPEN_WHILE_PASSWORD_CHANGE_REQUIRED.has(`${req.method} ${path}`)) return;
  throw new Forbidden('Change your password first', 'PASSWORD_CHANGE_REQUIRED');
}
