import { Router, type CookieOptions } from 'express';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import { Unauthorized } from '../../platform/errors';
import { clientAddress, failureLimiter } from '../../platform/rate-limit';
import { validated } from '../../platform/validate';
import { NO_RESTRICTION } from '../access';
import { SESSION_COOKIE } from './middleware';
import { SESSION_MAX_AGE_MS, type DashboardAuthService } from './service';

const loginBody = z.strictObject({ pin: z.string({ error: 'pin is required' }).min(1, 'pin is required') });

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 10;

export function authRoutes(deps: { auth: DashboardAuthService; clock: Clock; cookieSecure: boolean }) {
  const { auth } = deps;
  const cookie: CookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: deps.cookieSecure };
  const throttle = failureLimiter({
    clock: deps.clock,
    windowMs: LOGIN_WINDOW_MS,
    limit: LOGIN_MAX_FAILURES,
    isFailure: (res) => res.statusCode === 401,
    key: clientAddress,
    message: 'Too many wrong PINs; try again later',
  });

  const router = Router();

  router.post(
    '/login',
    throttle,
    validated({ body: loginBody }, async ({ body }, req, res) => {
      const result = await auth.login(body.pin);
      if (!result) throw new Unauthorized('Invalid PIN');
      await auth.logout(req.cookies?.[SESSION_COOKIE]);
      const { name, role, allowedMuseums, allowedChannels } = result.session;
      res.cookie(SESSION_COOKIE, result.id, { ...cookie, maxAge: SESSION_MAX_AGE_MS });
      res.json({ ok: true, name, role, allowedMuseums, allowedChannels });
    }),
  );

  router.get('/check', (req, res) => {
    res.set('Cache-Control', 'no-store');
    const s = req.dashboard?.session;
    res.json({
      authenticated: Boolean(s),
      name: s?.name ?? null,
      role: s?.role ?? null,
      allowedMuseums: s?.allowedMuseums ?? NO_RESTRICTION,
      allowedChannels: s?.allowedChannels ?? NO_RESTRICTION,
    });
  });

  router.post('/logout', async (req, res) => {
    await auth.logout(req.cookies?.[SESSION_COOKIE]);
    res.clearCookie(SESSION_COOKIE, cookie);
    res.json({ ok: true });
  });

  return router;
}
