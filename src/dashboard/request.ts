import type { Request, RequestHandler } from 'express';
import { Unauthorized } from '../platform/errors';

/** Who acted, and from where: what a service that changes something records it under. */
export interface AuditContext {
  actor: string;
  ip: string | null;
}

/** Who acts, for the audit trail: the session's name ("anonymous" before sign-in, or `name` when given) and address. */
export function auditOf(req: Request, name?: string): AuditContext {
  return { actor: name ?? req.dashboard?.session.name ?? 'anonymous', ip: req.ip ?? null };
}

/**
 * The session of a route mounted behind the dashboard session, so there always is one here;
 * a route mounted outside it by mistake answers as if signed out, never with someone's figures.
 */
export function signedInOf(req: Request): NonNullable<Request['dashboard']> {
  if (!req.dashboard) throw new Unauthorized('Sign in to the dashboard first');
  return req.dashboard;
}

export function viewerOf(req: Request): NonNullable<Request['dashboard']>['session'] {
  return signedInOf(req).session;
}

/** Figures differ per user: never kept by a shared cache. */
export const privateAnswers: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'private, no-store');
  next();
};
