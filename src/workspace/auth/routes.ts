import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import { BadRequest, Unauthorized } from '../../platform/errors';
import { clientAddress, failureLimiter } from '../../platform/rate-limit';
import { validated } from '../../platform/validate';
import { toUserBody } from '../members/service';
import { nonEmpty, optionalText, password, NAME_MAX } from '../schemas';
import { requireSignedIn, SESSION_COOKIE, sessionCookieOptions, userOf } from './middleware';
import type { AuthService } from './service';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_MAX_FAILURES = 10;

const loginBody = z.strictObject({
  email: z.string().trim().min(1, 'email is required').max(254),
  password: z.string().min(1, 'password is required').max(1000),
});

/** An avatar is a web address or a path on this server, never a `javascript:` or data URL. */
const avatar = optionalText(2000).refine((v) => v === null || /^(https?:\/\/[^\s]+|\/(?!\/)[^\s]*)$/i.test(v), 'must be an http(s) URL or a path');

const profileBody = nonEmpty(
  z.strictObject({
    name: z.string().trim().min(1).max(NAME_MAX).optional(),
    avatar: avatar.optional(),
    jobTitle: optionalText(NAME_MAX).optional(),
    phone: optionalText(40)
      .refine((v) => v === null || /^[+0-9 ().-]{3,40}$/.test(v), 'must be a phone number')
      .optional(),
    language: z.enum(['en', 'ar']).optional(),
  }),
);

const passwordBody = z.strictObject({
  currentPassword: z.string().min(1, 'currentPassword is required').max(1000),
  newPassword: password,
});

const onboardingBody = z.strictObject({ completed: z.boolean() });

/** Sign-out takes no input; anything sent is refused like any unknown field. */
const logoutBody = z.strictObject({});

function emailKey(req: Request): string | undefined {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? `email:${email.trim().toLowerCase()}` : undefined;
}

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
}

export function authRoutes(deps: { auth: AuthService; clock: Clock; cookieSecure: boolean }) {
  const { auth, clock } = deps;
  const loginFailed = { clock, windowMs: LOGIN_WINDOW_MS, limit: LOGIN_MAX_FAILURES, isFailure: (res: { statusCode: number }) => res.statusCode === 401 };
  const perAddress = failureLimiter({ ...loginFailed, key: (req) => `address:${clientAddress(req)}`, message: 'Too many failed sign-ins; try again later' });
  const perEmail = failureLimiter({ ...loginFailed, key: emailKey, message: 'Too many failed sign-ins; try again later' });
  const perUser = failureLimiter({
    clock,
    windowMs: LOGIN_WINDOW_MS,
    limit: LOGIN_MAX_FAILURES,
    isFailure: (res) => res.locals.wrongPassword === true,
    key: (req) => (req.workspace ? `password:${req.workspace.user.id}` : undefined),
    message: 'Too many wrong passwords; try again later',
  });

  const router = Router();

  router.post(
    '/login',
    perAddress,
    perEmail,
    validated({ body: loginBody }, async ({ body }, req, res) => {
      const signedIn = await auth.login(body.email.toLowerCase(), body.password);
      if (!signedIn) throw new Unauthorized('Wrong email or password', 'INVALID_CREDENTIALS');
      // A fresh session id at every sign-in, so a planted cookie never becomes a signed-in one.
      await regenerate(req);
      req.session.userId = signedIn.user.id;
      res.json({ token: signedIn.token, user: toUserBody(signedIn.user) });
    }),
  );

  router.get('/me', requireSignedIn, (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ user: toUserBody(userOf(req)) });
  });

  router.patch(
    '/me',
    requireSignedIn,
    validated({ body: profileBody }, async ({ body }, req, res) => {
      res.json({ user: toUserBody(await auth.updateProfile(userOf(req), body)) });
    }),
  );

  router.post(
    '/password',
    requireSignedIn,
    perUser,
    validated({ body: passwordBody }, async ({ body }, req, res) => {
      const keepSid = req.workspace?.via === 'cookie' ? req.sessionID : undefined;
      const result = await auth.changePassword(userOf(req), body.currentPassword, body.newPassword, keepSid);
      if (result === 'wrong-password') {
        res.locals.wrongPassword = true;
        throw new BadRequest('The current password is wrong', 'WRONG_PASSWORD');
      }
      res.json({ token: result.token, user: toUserBody(result.user) });
    }),
  );

  router.post(
    '/onboarding',
    requireSignedIn,
    validated({ body: onboardingBody }, async ({ body }, req, res) => {
      res.json({ user: toUserBody(await auth.setOnboarding(userOf(req), body.completed)) });
    }),
  );

  /** Answers the same with or without a sign-in, so a client can always clean up. */
  router.post(
    '/logout',
    validated({ body: logoutBody }, async (_input, req, res) => {
      if (req.workspace) await auth.logout(req.workspace.user);
      if (req.session) await destroy(req);
      res.clearCookie(SESSION_COOKIE, sessionCookieOptions(deps.cookieSecure));
      res.json({ ok: true });
    }),
  );

  return router;
}
