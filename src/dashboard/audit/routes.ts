import { Router } from 'express';
import { z } from 'zod';
import { validated } from '../../platform/validate';
import { sendExcelCsv } from '../downloads';
import { AUDIT_ACTIONS } from '../domain';
import { AUDIT_PAGE_MAX, type AuditTrail } from './service';
import { auditOf, privateAnswers } from '../request';

const auditFilter = {
  action: z.enum(AUDIT_ACTIONS).optional(),
  actor: z.string().min(1).max(200).optional(),
  lang: z.string().optional(),
};

const auditQuery = z.strictObject({
  ...auditFilter,
  /** The `nextCursor` of the page before. */
  cursor: z.string().regex(/^[1-9]\d{0,15}$/, 'must be the nextCursor of the page before').transform(Number).optional(),
  limit: z.string().regex(/^\d{1,3}$/).transform(Number).pipe(z.number().int().min(1).max(AUDIT_PAGE_MAX)).optional(),
});

/** The export has every matching event, so it takes no page. */
const exportQuery = z.strictObject(auditFilter);

/** `/api/audit`: mounted behind dashboardAccess(auth, 'admin'). */
export function auditRoutes(trail: AuditTrail) {
  const router = Router();
  router.use(privateAnswers);

  router.get(
    '/',
    validated({ query: auditQuery }, async ({ query }, _req, res) => {
      res.json(await trail.page({ action: query.action, actor: query.actor, beforeId: query.cursor, limit: query.limit ?? 50 }));
    }),
  );

  router.get(
    '/export.csv',
    validated({ query: exportQuery }, async ({ query }, req, res) => {
      await sendExcelCsv(res, await trail.exportCsv(auditOf(req), { action: query.action, actor: query.actor }));
    }),
  );

  return router;
}
