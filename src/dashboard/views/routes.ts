import { Router, type Request } from 'express';
import { z } from 'zod';
import { singleLine } from '../../platform/text';
import { idParam, validated } from '../../platform/validate';
import { VIEW_PAGES } from '../domain';
import { viewerOf } from '../request';
import { MAX_QUERY_LENGTH } from './address';
import type { SavedViewsService, ViewActor } from './service';

const name = singleLine(200);
const query = z.string().max(MAX_QUERY_LENGTH);

const createBody = z.strictObject({ name, query, shared: z.boolean().default(false), page: z.enum(VIEW_PAGES).default('dashboard') });
const updateBody = z
  .strictObject({ name: name.optional(), query: query.optional(), shared: z.boolean().optional(), page: z.enum(VIEW_PAGES).optional() })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

/** Mounted behind the dashboard session. */
function actor(req: Request): ViewActor {
  return viewerOf(req);
}

/** `/api/dashboard/views`: any dashboard user saves, shares and opens views; see SavedViewsService for who may change one. */
export function savedViewsRoutes(views: SavedViewsService) {
  const router = Router();
  router.use((_req, res, next) => {
    // Each reader's list differs: never kept by a shared cache.
    res.set('Cache-Control', 'private, no-store');
    next();
  });

  router.get('/', async (req, res) => {
    res.json({ views: await views.list(actor(req)) });
  });

  router.get(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ view: await views.get(actor(req), params.id) });
    }),
  );

  router.post(
    '/',
    validated({ body: createBody }, async ({ body }, req, res) => {
      res.status(201).json({ view: await views.create(actor(req), body) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateBody }, async ({ params, body }, req, res) => {
      res.json({ view: await views.update(actor(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await views.remove(actor(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
