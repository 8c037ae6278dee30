import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import { BadRequest, toError, Unauthorized } from '../../platform/errors';
import type { DeviceCookies } from '../../platform/device-cookie';
import { attemptLimiter, clientAddress, type AttemptCounter } from '../../platform/rate-limit';
import { validated } from '../../platform/validate';
import { toUserBody } from '../members/service';
import { language, name, nonEmpty, optionalText, password, timeZone, NAME_MAX } from '../schemas';
import { requireSignedIn, userOf } from '../request';
import { LINK_TOKEN_PATTERN } from './links';
import { cookieSessionOf, SESSION_COOKIE, sessionCookieOptions } from './middleware';
import type { AuthService, SignedIn } from './service';

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failed sign-ins per address, per email from unknown browsers, and per account from its known ones. */
export const LOGIN_MAX_FAILURES = 10;

export const DEVICE_COOKIE = 'workspace_device';

const loginBody = z.strictObject({
  email: z.string().trim().min(1, 'email is required').max(254),
  password: z.string().min(1, 'password is required').max(1000),
});

/** An avatar is a web address or a path on this server, never a `javascript:` or data URL. */
const avatar = optionalText(2000).refine((v) => v === null || /^(https?:\/\/[^\s]+|\/(?!\/)[^\s]*)$/i.test(v), 'must be an http(s) URL or a path');

const profileBody = nonEmpty(
  z.strictObject({
    name: name.optional(),
    avatar: avatar.optional(),
    jobTitle: optionalText(NAME_MAX).optional(),
    phone: optionalText(40)
      .refine((v) => v === null || /^[+0-9 ().-]{3,40}$/.test(v), 'must be a phone number')
      .optional(),
    language: language.optional(),
    timeZone: timeZone.optional(),
  }),
);

const passwordBody = z.strictObject({
  currentPassword: z.string().min(1, 'currentPassword is required').max(1000),
  newPassword: password,
});

const onboardingBody = z.strictObject({ completed: z.boolean() });

const resetRequestBody = z.strictObject({ email: z.string().trim().min(1, 'email is required').max(254) });

const linkToken = z.string().regex(LINK_TOKEN_PATTERN, 'must be the token of a link');
const resetConfirmBody = z.strictObject({ token: linkToken, newPassword: password });
const acceptInvitationBody = z.strictObject({ token: linkToken, password });

/** Reset links asked for per address, and per email whoever asks, in a window: each is a mail someone receives. */
export const RESET_REQUESTS_PER_ADDRESS = 10;
export const RESET_REQUESTS_PER_EMAIL = 3;

/** Sign-out takes no input; anything sent is refused like any unknown field. */
const logoutBody = z.strictObject({});

function emailOf(req: Request): string | undefined {
  const email = (req.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined;
}

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(toError(err)) : resolve())));
}

function destroy(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.destroy((err) => (err ? reject(toError(err)) : resolve())));
}

export function authRoutes(deps: { auth: AuthService; clock: Clock; cookieSecure: boolean; attempts: AttemptCounter; devices: DeviceCookies }) {
  const { auth, clock, devices } = deps;
  const window = { windowMs: LOGIN_WINDOW_MS, limit: LOGIN_MAX_FAILURES, message: 'Too many failed sign-ins; try again later' };
  const known = new WeakMap<Request, Promise<string | undefined>>();
  /** The account this browser is known for, when that is the account of the email it signs in with; looked up once a request. */
  const knownAccount = (req: Request) => {
    let found = known.get(req);
    if (!found) {
      const account = devices.account(req);
      const email = emailOf(req);
      found = account === undefined || email === undefined ? Promise.resolve(undefined) : auth.accountKey(email).then((key) => (key === account ? account : undefined));
      known.set(req, found);
    }
    return found;
  };
  // An attacker without the account's device cookie neither gets past the per-email limit
  // nor, by running it out, locks the owner out on a browser the owner signed in with.
  const loginLimit = attemptLimiter({
    counter: deps.attempts,
    clock,
    isFailure: (res) => res.statusCode === 401,
    rules: [
      { name: 'login-address', ...window, key: clientAddress },
      { name: 'login-email', ...window, key: async (req) => ((await knownAccount(req)) === undefined ? emailOf(req) : undefined) },
      { name: 'login-device', ...window, key: knownAccount },
    ],
  });
  const passwordLimit = attemptLimiter({
    counter: deps.attempts,
    clock,
    isFailure: (res) => res.locals.wrongPassword === true,
    rules: [
      {
        name: 'password-user',
        ...window,
        message: 'Too many wrong passwords; try again later',
        key: (req) => (req.workspace ? String(req.workspace.user.id) : undefined),
      },
    ],
  });

  // Every request counts, answered alike for known and unknown addresses: each may send a mail.
  const resetLimit = attemptLimiter({
    counter: deps.attempts,
    clock,
    isFailure: () => true,
    rules: [
      { name: 'reset-address', windowMs: LOGIN_WINDOW_MS, limit: RESET_REQUESTS_PER_ADDRESS, message: 'Too many password resets asked for; try again later', key: clientAddress },
      { name: 'reset-email', windowMs: LOGIN_WINDOW_MS, limit: RESET_REQUESTS_PER_EMAIL, message: 'Too many password resets asked for; try again later', key: emailOf },
    ],
  });

  /** The cookie session of a member just signed in, and the answer, which also carries a token. */
  const signInAnswer = async (req: Request, res: Response, signedIn: SignedIn) => {
    // A fresh session id at every sign-in, so a planted cookie never becomes a signed-in one.
    await regenerate(req);
    req.session.userId = signedIn.user.id;
    req.session.userKey = signedIn.user.tokenKey;
    req.session.passwordStamp = signedIn.user.passwordStamp;
    devices.issue(res, signedIn.user.tokenKey);
    res.json({ token: signedIn.token, user: toUserBody(signedIn.user) });
  };

  const router = Router();

  router.post(
    '/password-reset',
    resetLimit,
    validated({ body: resetRequestBody }, async ({ body }, _req, res) => {
      await auth.requestPasswordReset(body.email.toLowerCase());
      res.status(202).json({ ok: true });
    }),
  );

  router.post(
    '/password-reset/confirm',
    validated({ body: resetConfirmBody }, async ({ body }, _req, res) => {
      await auth.resetPassword(body.token, body.newPassword);
      res.json({ ok: true });
    }),
  );

  // An invited member's own password, and they are signed in as by /login.
  router.post(
    '/invitations/accept',
    validated({ body: acceptInvitationBody }, async ({ body }, req, res) => {
      await signInAnswer(req, res, await auth.acceptInvitation(body.token, body.password));
    }),
  );

  router.post(
    '/login',
    loginLimit,
    validated({ body: loginBody }, async ({ body }, req, res) => {
      const signedIn = await auth.login(body.email.toLowerCase(), body.password);
      if (!signedIn) throw new Unauthorized('Wrong email or password', 'INVALID_CREDENTIALS');
      await signInAnswer(req, res, signedIn);
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
    passwordLimit,
    validated({ body: passwordBody }, async ({ body }, req, res) => {
      const keepSid = req.workspace?.via === 'cookie' ? req.sessionID : undefined;
      const result = await auth.changePassword(userOf(req), body.currentPassword, body.newPassword, keepSid);
      if (result === 'wrong-password') {
        res.locals.wrongPassword = true;
        throw new BadRequest('The current password is wrong', 'WRONG_PASSWORD');
      }
      // The session that asked stays signed in under the new password.
      if (keepSid !== undefined) req.session.passwordStamp = result.user.passwordStamp;
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
      if (req.workspace) await auth.logout(req.workspace.user, req.workspace.via === 'cookie' ? req.sessionID : undefined);
      if (cookieSessionOf(req)) await destroy(req);
      res.clearCookie(SESSION_COOKIE, sessionCookieOptions(deps.cookieSecure));
      res.json({ ok: true });
    }),
  );

  return router;
}
