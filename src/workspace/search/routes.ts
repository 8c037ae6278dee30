import { Router } from 'express';
import { z } from 'zod';
import { singleLine } from '../../platform/text';
import { validated } from '../../platform/validate';
import { actorOf } from '../request';
import type { SearchService } from './service';

/** The text looked for: trimmed, one line, 2 to 200 characters. */
export const SEARCH_TEXT_MIN = 2;
export const SEARCH_TEXT_MAX = 200;

const searchQuery = z.strictObject({ q: singleLine(SEARCH_TEXT_MAX, SEARCH_TEXT_MIN) });

/** `/api/search`: the records of every kind that the user may see, by their lists' rules. */
export function searchRoutes(search: SearchService) {
  const router = Router();

  router.get(
    '/',
    validated({ query: searchQuery }, async ({ query }, req, res) => {
      res.json({ results: await search.search(actorOf(req), query.q) });
    }),
  );

  return router;
}
