import type { Request, RequestHandler } from 'express';

/** Who acted, and from where: what a service that changes something records it under. */
export interface AuditContext {
  actor: string;
  ip: string | null;
}

/** Who acts, for the audit trail: the session's name ("anonymous" before sign-in, or `name` when given) and address. */
export function auditOf(req: Request, name?: string): AuditContext {
  return { actor: name ?? req.dashboard?.session.name ?? 'anonymous', ip: req.ip ?? null };
}

/** The session of a route mounted behind the dashboard session, so there always is one here. */
export function viewerOf(req: Request): NonNullable<Request['dashboard']>['session'] {
  return req.dashboard!.session;
}

/** Figures differ per user: never kept by a shared cache. */
export const privateAnswers: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'private, no-store');
  next();
};
