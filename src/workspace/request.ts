import type { Request, RequestHandler } from 'express';
import { Unauthorized } from '../platform/errors';
import type { Actor } from './access';
import type { UserRecord } from './shared/member';

/** Who a workspace request comes from, as the routes of every feature read it. */
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

/** 401 for nobody: INVALID_TOKEN when a bearer token was sent and refused. */
export function checkSignedIn(req: Request): void {
  if (req.workspace) return;
  if (req.workspaceTokenRejected) throw new Unauthorized('Invalid or expired token', 'INVALID_TOKEN');
  throw new Unauthorized('Sign in first');
}

export const requireSignedIn: RequestHandler = (req, _res, next) => {
  checkSignedIn(req);
  next();
};

export function signedInOf(req: Request): WorkspaceAuth {
  if (!req.workspace) throw new Unauthorized('Sign in first');
  return req.workspace;
}

export function actorOf(req: Request): Actor {
  return signedInOf(req).actor;
}

export function userOf(req: Request): UserRecord {
  return signedInOf(req).user;
}
