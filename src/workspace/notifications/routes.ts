import { Router, type Request, type Response } from 'express';
import type { i18n } from 'i18next';
import { z } from 'zod';
import { cookieOf } from '../../platform/cookies';
import { isLanguage, LANG_COOKIE, type Language } from '../../platform/i18n';
import { isolate } from '../../platform/mail/render';
import { validated } from '../../platform/validate';
import { NOTIFICATION_DELIVERIES, NOTIFICATION_KINDS } from '../domain';
import { actorOf, userOf } from '../request';
import { id, nonEmpty, timeZone } from '../schemas';
import type { NotificationSettingsService, NotificationsService } from './service';
import { UNSUBSCRIBE_TOKEN_PATTERN, type UnsubscribeScope } from './unsubscribe';

const markRead = z.union([z.strictObject({ ids: z.array(id).min(1).max(500) }), z.strictObject({ all: z.literal(true) })]);

/** `/api/notifications`: each member's own; nobody reads or marks another's. */
export function notificationsRoutes(notifications: NotificationsService) {
  const router = Router();

  router.get(
    '/',
    validated({}, async (_input, req, res) => {
      res.json(await notifications.list(actorOf(req)));
    }),
  );

  router.post(
    '/read',
    validated({ body: markRead }, async ({ body }, req, res) => {
      const marked = await notifications.markRead(actorOf(req), 'all' in body ? 'all' : body.ids);
      res.json({ ok: true, marked, ...(await notifications.list(actorOf(req))) });
    }),
  );

  return router;
}

const settingsBody = nonEmpty(
  z.strictObject({
    settings: z.partialRecord(z.enum(NOTIFICATION_KINDS), z.enum(NOTIFICATION_DELIVERIES)).optional(),
    timeZone: timeZone.optional(),
  }),
);

/** `/api/auth/me/notifications-settings`: how the signed-in member hears of each kind, and their time zone. */
export function notificationSettingsRoutes(settings: NotificationSettingsService) {
  const router = Router();

  router.get('/', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await settings.get(userOf(req)));
  });

  router.patch(
    '/',
    validated({ body: settingsBody }, async ({ body }, req, res) => {
      res.json(await settings.update(userOf(req), body));
    }),
  );

  return router;
}

const token = z.string().regex(UNSUBSCRIBE_TOKEN_PATTERN, 'must be the token of an unsubscribe link');
/** A mail program posts to the link as it is; other parameters (a scanner's) are let be. */
const unsubscribeQuery = z.object({ token, lang: z.string().optional() });
const unsubscribePageQuery = z.object({ token: z.string().max(200).optional(), lang: z.string().optional() });

/**
 * `/api/mail/unsubscribe?token=`: RFC 8058's one-click unsubscribe. A mail program POSTs to it
 * from elsewhere and without a cookie, so it never reads one and the origin check of
 * cookie-signed writes does not apply: the signed token alone decides. A GET (a person's
 * click, or a scanner fetching links ahead) only shows a page whose button posts; it changes
 * nothing.
 */
export function unsubscribeRoutes(deps: { settings: NotificationSettingsService; i18n: i18n }) {
  const router = Router();

  /** The page in the language asked for, else the member's, else the browser's chosen one. */
  const page = (req: Request, res: Response, view: { state: 'ask' | 'done' | 'invalid'; scope?: UnsubscribeScope; lang: Language; token?: string }, status = 200) => {
    const t = deps.i18n.getFixedT(view.lang);
    const address = (lang: Language) => `${req.baseUrl}?${new URLSearchParams({ ...(view.token ? { token: view.token } : {}), lang }).toString()}`;
    Object.assign(res.locals, { lang: view.lang, dir: view.lang === 'ar' ? 'rtl' : 'ltr', t, langUrl: address });
    res.set('Cache-Control', 'no-store');
    // The label keeps its own direction inside the sentence.
    const what = view.scope === undefined ? '' : isolate(t(view.scope === 'digest' ? 'workspace.notificationSettings.digest' : `workspace.notificationSettings.kinds.${view.scope}`));
    res.page(
      'workspace/unsubscribe',
      {
        title: t('workspace.unsubscribe.title'),
        styles: ['workspace'],
        bodyClass: 'ws-body ws-auth auth-page',
        state: view.state,
        what,
        action: view.token ? address(view.lang) : '',
      },
      status,
    );
  };
  const chosenLanguage = (req: Request, asked: unknown, member: Language | undefined): Language => {
    if (isLanguage(asked)) return asked;
    if (member) return member;
    const cookie = cookieOf(req, LANG_COOKIE);
    return isLanguage(cookie) ? cookie : 'en';
  };

  router.get(
    '/',
    validated({ query: unsubscribePageQuery }, async ({ query }, req, res) => {
      const target = query.token !== undefined && UNSUBSCRIBE_TOKEN_PATTERN.test(query.token) ? await deps.settings.unsubscribeTarget(query.token) : undefined;
      const lang = chosenLanguage(req, query.lang, target?.user.language);
      if (!target) page(req, res, { state: 'invalid', lang }, 404);
      else page(req, res, { state: 'ask', scope: target.scope, lang, token: query.token });
    }),
  );

  router.post(
    '/',
    validated({ query: unsubscribeQuery }, async ({ query }, req, res) => {
      const { user, scope } = await deps.settings.unsubscribe(query.token);
      // The page's own button asks for a page; a mail program takes any 200.
      if (req.accepts(['json', 'html']) === 'html') page(req, res, { state: 'done', scope, lang: chosenLanguage(req, query.lang, user.language) });
      else res.json({ ok: true, unsubscribed: scope });
    }),
  );

  return router;
}
