import { Router } from 'express';
import { z } from 'zod';
import { singleLine } from '../../platform/text';
import { idParam, validated } from '../../platform/validate';
import { requireDashboardAdmin } from '../auth/middleware';
import { auditOf } from '../request';
import { isoDate } from '../schemas';
import type { SeasonsService } from './service';

const seasonName = singleLine(200);
const seasonBody = z.strictObject({ name: seasonName, startDate: isoDate, endDate: isoDate });
const seasonPatch = z
  .strictObject({ name: seasonName.optional(), startDate: isoDate.optional(), endDate: isoDate.optional() })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

/** `/api/seasons`: any dashboard session reads, administrators write. */
export function seasonsRoutes(seasons: SeasonsService) {
  const router = Router();

  router.get('/', async (_req, res) => {
    res.json({ seasons: await seasons.list() });
  });

  router.post(
    '/',
    requireDashboardAdmin,
    validated({ body: seasonBody }, async ({ body }, req, res) => {
      res.status(201).json({ season: await seasons.create(auditOf(req), body) });
    }),
  );

  router.patch(
    '/:id',
    requireDashboardAdmin,
    validated({ params: idParam, body: seasonPatch }, async ({ params, body }, req, res) => {
      res.json({ season: await seasons.update(auditOf(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    requireDashboardAdmin,
    validated({ params: idParam }, async ({ params }, req, res) => {
      await seasons.remove(auditOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
