import type { Request, RequestHandler } from 'express';
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

export function loadDashboardSession(auth: DashboardAuthService): RequestHandler {
  return async (req, _res, next) => {
    const id = req.cookies?.[SESSION_COOKIE];
    if (typeof id === 'string') {
      const session = await auth.lookup(id);
      if (session) req.dashboard = { id, session };
    }
    next();
  };
}

export function signedInToDashboard(req: Request): boolean {
  return req.dashboard !== undefined;
}

export const requireDashboardSession: RequestHandler = (req, _res, next) => {
  if (!req.dashboard) throw new Unauthorized('Sign in to the dashboard first');
  next();
};

export const requireDashboardAdmin: RequestHandler = (req, _res, next) => {
  if (!req.dashboard) throw new Unauthorized('Sign in to the dashboard first');
  if (req.dashboard.session.role !== 'admin') throw new Forbidden('Administrators only');
  next();
};
