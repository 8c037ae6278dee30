import { Router, type RequestHandler } from 'express';

/** Pages redirect to the PIN page instead of answering 401. */
const signInFirst: RequestHandler = (req, res, next) => {
  if (!req.dashboard) return res.redirect(303, `/dashboard/login?next=${encodeURIComponent(req.originalUrl)}`);
  next();
};

function safeNext(value: unknown): string {
  return typeof value === 'string' && /^\/dashboard(\/[\w/-]*)?(\?[^\s]*)?$/.test(value) ? value : '/dashboard';
}

export function dashboardPages() {
  const router = Router();

  router.get('/login', (req, res) => {
    if (req.dashboard) return res.redirect(303, safeNext(req.query.next));
    res.page('dashboard/login', { title: res.locals.t('dashboard.login.title'), next: safeNext(req.query.next), bodyClass: 'auth-page' });
  });

  router.get('/', signInFirst, (req, res) => {
    res.page('dashboard/home', { title: res.locals.t('dashboard.title'), session: req.dashboard!.session, active: 'dashboard' });
  });

  return router;
}
