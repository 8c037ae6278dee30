import { auditOf } from '../request';
import { Router, type CookieOptions } from 'express';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import type { DeviceCookies } from '../../platform/device-cookie';
import { attemptLimiter, clientAddress, type AttemptCounter } from '../../platform/rate-limit';
import { validated } from '../../platform/validate';
import { NO_RESTRICTION } from '../access';
import { SESSION_COOKIE } from './middleware';
import { SESSION_MAX_AGE_MS, type DashboardAuthService } from './service';

const loginBody = z.strictObject({ pin: z.string({ error: 'pin is required' }).min(1, 'pin is required') });

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Wrong PINs per address, and per account from its known devices, in a window. */
export const LOGIN_MAX_FAILURES = 10;
/**
 * Wrong PINs from browsers not known to any account, all addresses together, in a window:
 * many addresses guessing a short PIN share this one budget.
 */
export const LOGIN_GLOBAL_MAX_FAILURES = 100;

export const DEVICE_COOKIE = 'dashboard_device';

/** Who a PIN sign-in opened a session for, as a device cookie names it. */
export function deviceAccount(userId: number | null): string {
  return userId === null ? 'admin' : `u${userId}`;
}

export function authRoutes(deps: {
  auth: DashboardAuthService;
  clock: Clock;
  cookieSecure: boolean;
  attempts: AttemptCounter;
  devices: DeviceCookies;
}) {
  const { auth, devices } = deps;
  const cookie: CookieOptions = { httpOnly: true, sameSite: 'lax', path: '/', secure: deps.cookieSecure };
  const message = 'Too many wrong PINs; try again later';
  const window = { windowMs: LOGIN_WINDOW_MS, message };
  const throttle = attemptLimiter({
    counter: deps.attempts,
    clock: deps.clock,
    isFailure: (res) => res.statusCode === 401,
    rules: [
      { name: 'pin-address', limit: LOGIN_MAX_FAILURES, ...window, key: clientAddress },
      { name: 'pin-global', limit: LOGIN_GLOBAL_MAX_FAILURES, ...window, key: (req) => (devices.account(req) === undefined ? 'all' : undefined) },
      { name: 'pin-device', limit: LOGIN_MAX_FAILURES, ...window, key: (req) => devices.account(req) },
    ],
  });

  const router = Router();

  router.post(
    '/login',
    throttle,
    validated({ body: loginBody }, async ({ body }, req, res) => {
      const result = await auth.signIn(auditOf(req, 'anonymous'), body.pin);
      await auth.logout(req.dashboard?.id);
      const { name, role, allowedMuseums, allowedChannels } = result.session;
      res.cookie(SESSION_COOKIE, result.id, { ...cookie, maxAge: SESSION_MAX_AGE_MS });
      devices.issue(res, deviceAccount(result.session.userId));
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
    await auth.logout(req.dashboard?.id);
    res.clearCookie(SESSION_COOKIE, cookie);
    res.json({ ok: true });
  });

  return router;
}
