import { Router } from 'express';
import { z } from 'zod';
import { validated } from '../../platform/validate';
import { csvLine } from '../../platform/csv';
import { AUDIT_ACTIONS, AUDIT_PAGE_MAX, type AuditTrail } from './service';

const auditQuery = z.strictObject({
  action: z.enum(AUDIT_ACTIONS).optional(),
  actor: z.string().min(1).max(200).optional(),
  /** The `nextCursor` of the page before. */
  cursor: z.string().regex(/^[1-9]\d{0,15}$/, 'must be the nextCursor of the page before').transform(Number).optional(),
  limit: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().int().min(1).max(AUDIT_PAGE_MAX)).optional(),
  lang: z.string().optional(),
});

/** `/api/audit`: mounted behind dashboardAccess(auth, 'admin'). */
export function auditRoutes(trail: AuditTrail) {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'private, no-store');
    next();
  });

  router.get(
    '/',
    validated({ query: auditQuery }, async ({ query }, _req, res) => {
      res.json(await trail.page({ action: query.action, actor: query.actor, beforeId: query.cursor, limit: query.limit ?? 50 }));
    }),
  );

  router.get(
    '/export.csv',
    validated({ query: auditQuery }, async ({ query }, _req, res) => {
      const { events } = await trail.page({ action: query.action, actor: query.actor, beforeId: query.cursor, limit: query.limit ?? AUDIT_PAGE_MAX });
      const lines = [csvLine(['id', 'at', 'actor', 'action', 'target', 'before', 'after', 'ip'])];
      for (const e of events) {
        const text = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));
        lines.push(csvLine([e.id, e.at, e.actor, e.action, e.target ?? '', text(e.before), text(e.after), e.ip ?? '']));
      }
      res.type('text/csv; charset=utf-8');
      res.attachment('audit.csv');
      res.send(lines.join(''));
    }),
  );

  return router;
}
