import { Router } from 'express';
import { z } from 'zod';
import { idParam, validated } from '../../platform/validate';
import { actorOf } from '../request';
import { name } from '../schemas';
import type { BrandsService } from './service';

const brandBody = z.strictObject({ name });

export function brandsRoutes(brands: BrandsService) {
  const router = Router();

  router.get('/', async (req, res) => {
    res.json({ brands: await brands.list(actorOf(req)) });
  });

  router.post(
    '/',
    validated({ body: brandBody }, async ({ body }, req, res) => {
      res.status(201).json({ brand: await brands.create(actorOf(req), body.name) });
    }),
  );

  router.get(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ brand: await brands.get(actorOf(req), params.id) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: brandBody }, async ({ params, body }, req, res) => {
      res.json({ brand: await brands.rename(actorOf(req), params.id, body.name) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await brands.remove(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
