import { Router } from 'express';
import { z } from 'zod';
import { validated } from '../../platform/validate';
import { actorOf } from '../request';
import { id } from '../schemas';
import type { NotificationsService } from './service';

const markRead = z.union([z.strictObject({ ids: z.array(id).min(1).max(500) }), z.strictObject({ all: z.literal(true) })]);

/** `/api/notifications`: each member's own; nobody reads or marks another's. */
export function notificationsRoutes(notifications: NotificationsService) {
  const router = Router();

  router.get(
    '/',
    validated({}, async (_input, req, res) => {
      res.json(await notifications.list(actorOf(req)));
    }),
  );

  router.post(
    '/read',
    validated({ body: markRead }, async ({ body }, req, res) => {
      const marked = await notifications.markRead(actorOf(req), 'all' in body ? 'all' : body.ids);
      res.json({ ok: true, marked, ...(await notifications.list(actorOf(req))) });
    }),
  );

  return router;
}
