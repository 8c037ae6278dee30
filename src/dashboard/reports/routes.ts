import { Router, type Request } from 'express';
import { z } from 'zod';
import { LANGUAGES, requestLanguage } from '../../platform/i18n';
import { idParam, validated } from '../../platform/validate';
import { MAX_QUERY_LENGTH } from '../views/address';
import { FREQUENCIES } from '../domain';
import { viewerOf } from '../request';
import type { ReportActor, ReportsService } from './service';

const userId = z.number().int().positive();
const what = { viewId: z.number().int().positive().optional(), query: z.string().max(MAX_QUERY_LENGTH).optional() };
const oneWhat = { message: 'give viewId (a saved view) or query (a Dashboard address), not both', path: ['viewId'] };

const createBody = z
  .strictObject({ ...what, frequency: z.enum(FREQUENCIES), userId, language: z.enum(LANGUAGES).optional() })
  .refine((b) => (b.viewId === undefined) !== (b.query === undefined), oneWhat);
const updateBody = z
  .strictObject({ ...what, frequency: z.enum(FREQUENCIES).optional(), userId: userId.optional(), language: z.enum(LANGUAGES).optional() })
  .refine((b) => b.viewId === undefined || b.query === undefined, oneWhat)
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

/** Mounted behind the dashboard session. */
function actor(req: Request): ReportActor {
  return viewerOf(req);
}

/** `/api/dashboard/reports`: administrators schedule reports for anyone, everyone else for themselves. */
export function reportsRoutes(reports: ReportsService) {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'private, no-store');
    next();
  });

  router.get('/', async (req, res) => {
    res.json({ reports: await reports.list(actor(req)) });
  });

  router.post(
    '/',
    validated({ body: createBody }, async ({ body }, req, res) => {
      res.status(201).json({ report: await reports.create(actor(req), body, requestLanguage(req)) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateBody }, async ({ params, body }, req, res) => {
      res.json({ report: await reports.update(actor(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await reports.remove(actor(req), params.id);
      res.json({ ok: true });
    }),
  );

  router.post(
    '/:id/send',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await reports.sendNow(actor(req), params.id);
      res.status(202).json({ ok: true });
    }),
  );

  return router;
}
