import { Router } from 'express';
import { z } from 'zod';
import { validated } from '../../platform/validate';
import { signedInOf } from '../request';
import type { LiveEvents } from './live';

/** Ids are short; anything longer is no id of ours and is answered like an unknown one. */
const EVENT_ID_MAX = 100;

/** `lastEventId` stands in for the header where a client cannot set one (tests, a page's first connection). */
const streamQuery = z.strictObject({ lastEventId: z.string().max(EVENT_ID_MAX).optional() });

/** `/api/events`: the signed-in member's live stream (text/event-stream). */
export function eventsRoutes(live: LiveEvents) {
  const router = Router();

  router.get(
    '/',
    validated({ query: streamQuery }, async ({ query }, req, res) => {
      const header = req.get('Last-Event-ID');
      const lastEventId = header !== undefined && header.length <= EVENT_ID_MAX ? header : query.lastEventId;
      const auth = signedInOf(req);
      await live.open(auth, auth.via === 'cookie' ? req.sessionID : undefined, res, lastEventId);
    }),
  );

  return router;
}
