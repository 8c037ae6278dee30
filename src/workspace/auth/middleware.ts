import type { Request, RequestHandler } from 'express';
import session from 'express-session';
import { Forbidden, Unauthorized } from '../../platform/errors';
import type { Actor } from '../access';
import type { UserRecord } from '../members/repository';
import type { SqliteSessionStore } from './repository';
import { actorFor, SIGN_IN_TTL_MS, type AuthService } from './service';

export const SESSION_COOKIE = 'workspace_session';

export interface WorkspaceAuth {
  user: UserRecord;
  actor: Actor;
  via: 'token' | 'cookie';
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Application B's signed-in user, from a bearer token or the workspace_session cookie. */
    workspace?: WorkspaceAuth;
    /** Set when a bearer token was sent but is not (or no longer) valid. */
    workspaceTokenRejected?: boolean;
  }
}

export function sessionCookieOptions(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax' as const, secure, path: '/' };
}

const READS = new Set(['GET', 'HEAD']);

export function workspaceSessions(opts: { store: SqliteSessionStore; secret: string; secure: boolean }): RequestHandler {
  const sessions = session({
    name: SESSION_COOKIE,
    secret: opts.secret,
    store: opts.store,
    resave: false,
    saveUninitialized: false,
    cookie: { ...sessionCookieOptions(opts.secure), maxAge: SIGN_IN_TTL_MS },
  });
  // A bearer token decides alone who is asking (see `authenticate`), so a read sent with
  // one never uses the cookie session, and setting one up cost a third of such a request.
  // Writes still get it: signing in and out also start and end the cookie session.
  return (req, res, next) => {
    if (req.headers.authorization !== undefined && READS.has(req.method)) return next();
    return sessions(req, res, next);
  };
}

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Finds who is asking. A bearer token, when sent, decides alone (a bad one is not rescued
 * by a cookie); otherwise the cookie session. Refusing is left to `requireSignedIn`, so
 * that sign-in and sign-out stay reachable.
 */
export function authenticate(auth: AuthService): RequestHandler {
  return async (req, _res, next) => {
    const header = req.get('authorization');
    if (header !== undefined) {
      const token = BEARER.exec(header)?.[1];
      const user = token === undefined ? undefined : await auth.userFromToken(token);
      if (user) req.workspace = { user, actor: actorFor(user), via: 'token' };
      else req.workspaceTokenRejected = true;
      return next();
    }
    const userId = req.session?.userId;
    if (typeof userId === 'number') {
      const user = await auth.userById(userId);
      if (user) req.workspace = { user, actor: actorFor(user), via: 'cookie' };
    }
    next();
  };
}

export function signedInByCookie(req: Request): boolean {
  return req.workspace?.via === 'cookie';
}

export const requireSignedIn: RequestHandler = (req, _res, next) => {
  if (req.workspace) return next();
  if (req.workspaceTokenRejected) throw new Unauthorized('Invalid or expired token', 'INVALID_TOKEN');
  throw new Unauthorized('Sign in first');
};

/** What a user who must change the password may still reach. */
const OPEN_WHILE_PASSWORD_CHANGE_REQUIRED = new Set([
  'GET /api/auth/me',
  'HEAD /api/auth/me',
  'POST /api/auth/password',
  'POST /api/auth/logout',
  'POST /api/auth/login',
]);

export const requirePasswordChanged: RequestHandler = (req, _res, next) => {
  if (!req.workspace?.user.mustChangePassword) return next();
  // Express matches paths case-insensitively and ignores a trailing slash; so does this.
  const path = `${req.baseUrl}${req.path}`.toLowerCase().replace(/\/+$/, '');
  if (OPEN_WHILE_PASSWORD_CHANGE_REQUIRED.has(`${req.method} ${path}`)) return next();
  throw new Forbidden('Change your password first', 'PASSWORD_CHANGE_REQUIRED');
};

export function actorOf(req: Request): Actor {
  if (!req.workspace) throw new Unauthorized('Sign in first');
  return req.workspace.actor;
}

export function userOf(req: Request): UserRecord {
  if (!req.workspace) throw new Unauthorized('Sign in first');
  return req.workspace.user;
}
