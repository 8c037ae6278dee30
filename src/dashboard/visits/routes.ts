import { Router, type Request } from 'express';
import type { i18n } from 'i18next';
import { requestLanguage } from '../../platform/i18n';
import { validated } from '../../platform/validate';
import { askedFigures, compareQuery, filtersQuery, type SavedViewLookup } from '../analytics/asked';
import type { AnalyticsService } from '../analytics/service';
import { requireDashboardAdmin } from '../auth/middleware';
import { sendExcelCsv } from '../downloads';
import { auditOf, privateAnswers, viewerOf } from '../request';
import { sendComparisonXlsx, sendVisitsXlsx, type SheetLanguage } from './excel';
import type { VisitsService } from './service';
import { currentImport, receiveCsv } from './upload';

/** `/api/dashboard`: the visits in (an administrator's import) and out (CSV and Excel files of the figures); `i18n` labels the Excel files. */
export function visitsRoutes(visits: VisitsService, figures: AnalyticsService, views: SavedViewLookup, i18n: i18n) {
  const asked = askedFigures(figures, views);
  const router = Router();
  router.use(privateAnswers);

  // An Excel file's sheets are labelled, and run right to left, in the language of the page that asks (`lang`, else its cookie).
  const sheetLanguage = (req: Request): SheetLanguage => {
    const lang = requestLanguage(req);
    return { t: i18n.getFixedT(lang), rtl: lang === 'ar' };
  };

  router.get(
    '/export.csv',
    validated({ query: filtersQuery }, async ({ query }, req, res) => {
      const { filters } = await asked.dashboard(query, req);
      await sendExcelCsv(res, await visits.visitsCsvFor(auditOf(req), viewerOf(req), filters, req.query));
    }),
  );

  router.get(
    '/compare.csv',
    validated({ query: compareQuery }, async ({ query }, req, res) => {
      const request = await asked.comparison(query, req);
      await sendExcelCsv(res, await visits.comparisonCsvFor(auditOf(req), viewerOf(req), request.filters, await asked.compared(request, req), req.query));
    }),
  );

  router.get(
    '/export.xlsx',
    validated({ query: filtersQuery }, async ({ query }, req, res) => {
      const { filters } = await asked.dashboard(query, req);
      await sendVisitsXlsx(res, await visits.visitsWorkbookFor(auditOf(req), viewerOf(req), filters, req.query), sheetLanguage(req));
    }),
  );

  router.get(
    '/compare.xlsx',
    validated({ query: compareQuery }, async ({ query }, req, res) => {
      const request = await asked.comparison(query, req);
      await sendComparisonXlsx(res, await visits.comparisonWorkbookFor(auditOf(req), viewerOf(req), request.filters, await asked.compared(request, req), req.query), sheetLanguage(req));
    }),
  );

  router.post('/import', requireDashboardAdmin, receiveCsv(visits), async (req, res) => {
    res.json(await visits.commitImport(auditOf(req), currentImport(res)));
  });

  return router;
}
