import type { Request, RequestHandler } from 'express';
import { cookieOf } from '../../platform/cookies';
import { checkSameOrigin } from '../../platform/csrf';
import { Forbidden, Unauthorized } from '../../platform/errors';
import type { DashboardAuthService } from './service';
import type { DashboardSession } from './session-store';

export const SESSION_COOKIE = 'service_session';

declare module 'express-serve-static-core' {
  interface Request {
    /** Application A's session, when the service_session cookie names a live one. */
    dashboard?: { id: string; session: DashboardSession };
  }
}

/** Who must be signed in for a path: anyone (sign-in itself), a session, or an administrator. */
export type DashboardNeed = 'anyone' | 'session' | 'admin';

/**
 * Loads application A's session and applies `need`, then the CSRF check for cookie writes,
 * in one place (as the workspace does), so every path runs the checks in the same order.
 */
export function dashboardAccess(auth: DashboardAuthService, need: DashboardNeed): RequestHandler {
  return async (req, _res, next) => {
    const id = cookieOf(req, SESSION_COOKIE);
    if (id !== undefined) {
      const session = await auth.lookup(id);
      if (session) req.dashboard = { id, session };
    }
    if (need !== 'anyone') {
      checkSignedIn(req, need);
      checkSameOrigin(req, signedInToDashboard);
    }
    next();
  };
}

function signedInToDashboard(req: Request): boolean {
  return req.dashboard !== undefined;
}

function checkSignedIn(req: Request, need: 'session' | 'admin'): void {
  if (!req.dashboard) throw new Unauthorized('Sign in to the dashboard first');
  if (need === 'admin' && req.dashboard.session.role !== 'admin') throw new Forbidden('Administrators only', 'ADMIN_ONLY');
}

export const requireDashboardAdmin: RequestHandler = (req, _res, next) => {
  checkSignedIn(req, 'admin');
  next();
};
