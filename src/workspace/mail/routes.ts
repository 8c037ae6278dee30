import { Router } from 'express';
import { z } from 'zod';
import { MAIL_STATUSES } from '../../platform/mail/outbox';
import { idParam, validated } from '../../platform/validate';
import { actorOf } from '../request';
import { pageQuery, queryId } from '../schemas';
import type { MailService } from './service';

export const MAIL_PAGE_DEFAULT = 50;
export const MAIL_PAGE_MAX = 200;

const listQuery = z.strictObject({
  limit: pageQuery(MAIL_PAGE_DEFAULT, MAIL_PAGE_MAX).limit,
  before: queryId.optional(),
  status: z.enum(MAIL_STATUSES).optional(),
});

/** `/api/mail`: the outbox, for superadmins. */
export function mailRoutes(mail: MailService) {
  const router = Router();

  router.get(
    '/',
    validated({ query: listQuery }, async ({ query }, req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await mail.list(actorOf(req), query));
    }),
  );

  router.post(
    '/:id/retry',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ message: await mail.retry(actorOf(req), params.id) });
    }),
  );

  return router;
}
