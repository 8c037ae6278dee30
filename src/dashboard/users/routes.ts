import { Router } from 'express';
import { z } from 'zod';
import { idParam, validated } from '../../platform/validate';
import type { DashboardUsersService } from './service';

const name = z.string().trim().min(1, 'name is required').max(200);
const role = z.enum(['admin', 'viewer']);
const list = z.array(z.string().trim().min(1).max(200)).max(1000);

const createBody = z.strictObject({
  name,
  pin: z.string().regex(/^\d{4,12}$/, 'PIN must be 4 to 12 digits'),
  role,
  allowedMuseums: list.optional(),
  allowedChannels: list.optional(),
});

const updateBody = z
  .strictObject({ name: name.optional(), role: role.optional(), allowedMuseums: list.optional(), allowedChannels: list.optional() })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

/** Mounted behind dashboardAccess(auth, 'admin'). */
export function usersRoutes(users: DashboardUsersService) {
  const router = Router();

  router.get('/', async (_req, res) => {
    res.json({ users: await users.list() });
  });

  router.post(
    '/',
    validated({ body: createBody }, async ({ body }, _req, res) => {
      res.status(201).json({ user: await users.create(body) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateBody }, async ({ params, body }, _req, res) => {
      res.json({ user: await users.update(params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, _req, res) => {
      await users.remove(params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
