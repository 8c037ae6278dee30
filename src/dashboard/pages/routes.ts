import { Router, type Request, type RequestHandler, type Response } from 'express';
import { requireDashboardAdmin } from '../auth/middleware';
import { mayWriteNotes } from '../annotations/service';
import { mayScheduleForOthers } from '../reports/service';
import type { DashboardSession } from '../auth/session-store';
import { DASHBOARD_ROLES } from '../domain';
import { UNRESTRICTED_ROLES } from '../users/service';
import { viewerOf } from '../request';
import type { AnalyticsService } from '../analytics/service';

/** Pages redirect to the PIN page instead of answering 401. */
const signInFirst: RequestHandler = (req, res, next) => {
  if (!req.dashboard) {
    res.redirect(303, `/dashboard/login?next=${encodeURIComponent(req.originalUrl)}`);
    return;
  }
  next();
};

function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/dashboard(\/[\w/-]*)?(\?[^\s]*)?$/.test(value) ? value : '/dashboard';
}

/**
 * The `dashboard.*` locale subtrees a page script needs, as JSON for its `data-strings`
 * attribute: EJS escapes the attribute, so no string can break out of it.
 */
function clientStrings(res: Response, sections: readonly string[]): string {
  const { t } = res.locals;
  return JSON.stringify(Object.fromEntries(sections.map((s) => [s, t(`dashboard.${s}`, { returnObjects: true })])));
}

/**
 * A page of application A; `context` is what its template and script know beyond strings,
 * given to the template as locals and to the script as JSON in `data-context`.
 */
function dashboardPage(
  view: string,
  titleKey: string,
  sections: readonly string[],
  staticContext: Record<string, unknown> = {},
  sessionContext: (session: DashboardSession, query: Request['query']) => Record<string, unknown> | Promise<Record<string, unknown>> = () => ({}),
): RequestHandler {
  return async (req, res) => {
    const session = viewerOf(req);
    const context = { ...staticContext, ...(await sessionContext(session, req.query)) };
    res.page(`dashboard/${view}`, {
      ...context,
      title: res.locals.t(titleKey),
      session,
      active: view === 'home' ? 'dashboard' : view,
      styles: ['dashboard'],
      strings: clientStrings(res, sections),
      context: JSON.stringify(context),
    });
  };
}

const DATA_STRINGS = ['filters', 'range', 'access', 'totals', 'charts', 'state', 'drill', 'views', 'errors', 'live'] as const;

/**
 * The filters a page's script would otherwise ask /api/dashboard/filters for before anything
 * else, read with the page under the reader's own access: its figures no longer wait for that
 * round trip. When they cannot be read, or not within FILTERS_WAIT_MS (an engine that stopped
 * answering would hold the page until its deadline), the page goes without them; its script
 * then asks, and shows its error state with a retry if that fails too.
 */
const FILTERS_WAIT_MS = 250;

async function filtersSent(figures: Pick<AnalyticsService, 'filters'>, session: DashboardSession) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, FILTERS_WAIT_MS, undefined);
  });
  try {
    const filters = await Promise.race([figures.filters(session), late]);
    return filters ? { filters } : {};
  } catch {
    return {};
  } finally {
    clearTimeout(timer);
  }
}

export function dashboardPages(currency: string, figures: Pick<AnalyticsService, 'filters'>) {
  const router = Router();

  router.get('/login', (req, res) => {
    if (req.dashboard) {
      res.redirect(303, safeNext(req.query.next));
      return;
    }
    res.page('dashboard/login', { title: res.locals.t('dashboard.login.title'), next: safeNext(req.query.next), bodyClass: 'auth-page' });
  });

  router.get(
    '/',
    signInFirst,
    dashboardPage('home', 'dashboard.title', [...DATA_STRINGS, 'notes', 'reports'], { currency }, async (session) => ({
      can: { writeNotes: mayWriteNotes(session), scheduleForOthers: mayScheduleForOthers(session) },
      me: session.userId,
      ...(await filtersSent(figures, session)),
    })),
  );
  router.get(
    '/comparison',
    signInFirst,
    // The two named sides are drawn shown only when the address chooses them, as the page's
    // script will: showing or hiding them later would move everything below (layout shift).
    dashboardPage('comparison', 'dashboard.comparison.title', [...DATA_STRINGS, 'comparison'], { currency }, async (session, query) => ({
      namedSides: query.against === 'sides' || (query.against === undefined && query.a !== undefined),
      ...(await filtersSent(figures, session)),
    })),
  );
  router.get(
    '/settings',
    signInFirst,
    requireDashboardAdmin,
    dashboardPage('settings', 'dashboard.settings.title', ['settings', 'role', 'errors', 'audit'], { roles: DASHBOARD_ROLES, unrestrictedRoles: UNRESTRICTED_ROLES }),
  );

  return router;
}
