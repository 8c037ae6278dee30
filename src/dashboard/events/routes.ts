import { Router } from 'express';
import { z } from 'zod';
import { validated } from '../../platform/validate';
import { signedInOf } from '../request';
import type { DashboardLive } from './live';

/** Ids are short; anything longer is no id of ours and is answered like an unknown one. */
const EVENT_ID_MAX = 100;

const streamQuery = z.strictObject({ lastEventId: z.string().max(EVENT_ID_MAX).optional() });

/** `/api/dashboard/events`: behind a dashboard session, a stream that says when the figures changed. */
export function dashboardEventsRoutes(live: DashboardLive) {
  const router = Router();

  router.get(
    '/',
    validated({ query: streamQuery }, async ({ query }, req, res) => {
      const header = req.get('Last-Event-ID');
      await live.open(signedInOf(req).id, res, header !== undefined && header.length <= EVENT_ID_MAX ? header : query.lastEventId);
    }),
  );

  return router;
}
