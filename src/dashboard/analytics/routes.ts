import { Router } from 'express';
import { validated } from '../../platform/validate';
import { privateAnswers, viewerOf } from '../request';
import { askedFigures, compareQuery, optionsQuery, summaryQuery, type SavedViewLookup } from './asked';
import type { AnalyticsService } from './service';

/** `/api/dashboard`: the figures each session may see (filters, summary, comparison). */
export function analyticsRoutes(figures: AnalyticsService, views: SavedViewLookup) {
  const asked = askedFigures(figures, views);
  const router = Router();
  router.use(privateAnswers);

  router.get(
    '/filters',
    validated({ query: optionsQuery }, async ({ query }, req, res) => {
      res.json(await figures.filters(viewerOf(req), { from: query.from, to: query.to }));
    }),
  );

  router.get(
    '/summary',
    validated({ query: summaryQuery }, async ({ query }, req, res) => {
      const { filters, granularity } = await asked.dashboard(query, req);
      res.json(await figures.summary(viewerOf(req), filters, { granularity, weekStart: query.weekStart, earlier: query.earlier === 'year' }));
    }),
  );

  router.get(
    '/compare',
    validated({ query: compareQuery }, async ({ query }, req, res) => {
      res.json(await asked.compared(await asked.comparison(query, req), req));
    }),
  );

  return router;
}
