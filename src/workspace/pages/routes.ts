import { Router, type RequestHandler } from 'express';
import { Forbidden, NotFound } from '../../platform/errors';
import { cookieOf } from '../../platform/cookies';
import { isLanguage, LANG_COOKIE } from '../../platform/i18n';
import { isSuperadmin } from '../access';
import { actorOf, userOf } from '../request';
import { TASKS_PAGE_SCOPES } from '../domain';
import { AVATAR_MAX_BYTES } from '../avatars/routes';
import { ASSET_TYPES } from '../assets/service';
import type { ProjectsService } from '../projects/service';
import type { AuthService } from '../auth/service';
import type { NotificationSettingsService } from '../notifications/service';
import { digestTime } from '../notifications/digest';
import { TIME_ZONES } from '../../platform/time-zone';
import { LINK_TOKEN_PATTERN } from '../auth/links';
import { MAIL_STATUSES } from '../../platform/mail/outbox';
import { sendUncompressed } from '../../platform/compression';
import { renderAuthPage, renderWorkspacePage, type PageSpec } from './render';

/** How far along the first-login path a page needs the user to be. */
type Stage = 'signed-in' | 'password-changed' | 'ready';

const NEXT = /^\/workspace(\/[\w-]+)*\/?(\?[\w=&%.-]*)?$/;

export function safeNext(value: unknown): string {
  return typeof value === 'string' && NEXT.test(value) ? value : '/workspace';
}

/**
 * Pages answer with redirects rather than 401/403: no (or an expired) session goes to the
 * sign-in page, and the first-login path runs in order: new password, then profile.
 */
function requireStage(stage: Stage): RequestHandler {
  return (req, res, next) => {
    const user = req.workspace?.user;
    if (!user) res.redirect(303, `/login?next=${encodeURIComponent(req.originalUrl)}`);
    else if (stage !== 'signed-in' && user.mustChangePassword) res.redirect(303, '/change-password');
    else if (stage === 'ready' && user.profileCompletedAt === null) res.redirect(303, '/workspace/welcome');
    else next();
  };
}

/**
 * A browser with no language of its own yet (no `lang` cookie, no `?lang=`) gets the one in
 * the user's profile, so the choice follows the user from one device to the next.
 */
const profileLanguage: RequestHandler = (req, res, next) => {
  const user = req.workspace?.user;
  if (user && user.language !== req.lang && !isLanguage(cookieOf(req, LANG_COOKIE)) && !isLanguage(req.query.lang)) {
    res.redirect(303, res.locals.langUrl(user.language));
    return;
  }
  next();
};

const superadminOnly: RequestHandler = (req, _res, next) => {
  if (!isSuperadmin(actorOf(req))) throw new Forbidden('Only a superadmin sees this page');
  next();
};

const page = (spec: PageSpec): RequestHandler => (req, res) => renderWorkspacePage(req, res, spec);


/** What the Tasks page and a project's page read besides the shared sections. */
const TASKS_SECTIONS = ['tasks', 'comments', 'taskPanel'] as const;

const PAGE_ID = /^[1-9]\d{0,15}$/;

/** An address that can name no record is not a page, whoever asks: 404 before any sign-in redirect. */
const recordId: RequestHandler = (req, _res, next) => {
  if (!PAGE_ID.test(String(req.params.id))) throw new NotFound('No such page');
  next();
};

/** Application B's pages; the API behind them is under /api. */
export function workspacePages(opts: { uploadMaxBytes: number; uploadMaxFiles: number; projects: ProjectsService; auth: AuthService; notificationSettings: NotificationSettingsService }) {
  const uploads = { maxBytes: opts.uploadMaxBytes, maxFiles: opts.uploadMaxFiles };
  // A profile page sends one picture, under the picture's own limit.
  const picture = { maxBytes: AVATAR_MAX_BYTES, maxFiles: 1 };
  const router = Router();
  const ready = [requireStage('ready'), profileLanguage];

  router.get('/login', (req, res) => {
    if (req.workspace) {
      res.redirect(303, safeNext(req.query.next));
      return;
    }
    renderAuthPage(res, 'login', { next: safeNext(req.query.next), resetDone: req.query.reset === 'done' });
  });
  router.get('/forgot-password', (_req, res) => renderAuthPage(res, 'forgot-password'));
  // A link that no longer works says so at once (410), before anyone types a new password.
  router.get('/reset-password', async (req, res) => {
    const token = typeof req.query.token === 'string' && LINK_TOKEN_PATTERN.test(req.query.token) ? req.query.token : undefined;
    const valid = token !== undefined && (await opts.auth.resetLinkWorks(token));
    sendUncompressed(res);
    renderAuthPage(res, 'reset-password', { valid, token: valid ? token : '', status: valid ? 200 : 410 });
  });
  // An invitation opens in the invited member's language unless this browser has chosen one,
  // and says at once (410) when it no longer works.
  router.get('/invite/:token', async (req, res) => {
    const invited = LINK_TOKEN_PATTERN.test(req.params.token) ? await opts.auth.invitationFor(req.params.token) : undefined;
    sendUncompressed(res);
    if (invited && invited.language !== req.lang && !isLanguage(cookieOf(req, LANG_COOKIE)) && !isLanguage(req.query.lang)) {
      res.redirect(303, res.locals.langUrl(invited.language));
      return;
    }
    renderAuthPage(res, 'invite', { valid: invited !== undefined, token: invited ? req.params.token : '', email: invited?.email ?? '', status: invited ? 200 : 410 });
  });
  router.get('/change-password', requireStage('signed-in'), (req, res) => renderAuthPage(res, 'change-password', { user: userOf(req) }));
  router.get('/workspace/welcome', requireStage('password-changed'), profileLanguage, (req, res) => {
    if (userOf(req).profileCompletedAt !== null) {
      res.redirect(303, '/workspace');
      return;
    }
    renderWorkspacePage(req, res, { view: 'welcome', sections: ['profile', 'steps'], uploads: picture, bare: true });
  });

  router.get('/workspace', ...ready, page({ view: 'board', sections: ['board', 'post', 'platforms', 'status', 'comments', 'activity', 'review', 'postPanel', 'bulk', 'assets'], uploads }));
  router.get('/workspace/calendar', ...ready, page({ view: 'calendar', sections: ['calendar', 'board', 'status'] }));
  router.get('/workspace/campaigns', ...ready, page({ view: 'campaigns', sections: ['campaigns', 'tracks'] }));
  router.get('/workspace/assets', ...ready, page({ view: 'assets', sections: ['assets', 'upload'], uploads, locals: { assetTypes: ASSET_TYPES } }));
  router.get('/workspace/tasks', ...ready, page({ view: 'tasks', sections: TASKS_SECTIONS, locals: { scopes: TASKS_PAGE_SCOPES, project: null } }));
  router.get('/workspace/projects', ...ready, page({ view: 'projects', sections: ['projects'] }));
  // A project's page (as Plane has it): its tasks, as a list or a board, under the project's name.
  router.get('/workspace/projects/:id', recordId, ...ready, async (req, res) => {
    const project = await opts.projects.get(actorOf(req), Number(req.params.id));
    renderWorkspacePage(req, res, {
      view: 'tasks',
      sections: TASKS_SECTIONS,
      title: project.name,
      active: 'projects',
      locals: { scopes: [], project: { id: project.id, name: project.name, brandId: project.brandId, description: project.description } },
    });
  });
  router.get('/workspace/budget', ...ready, page({ view: 'budget', sections: ['budget'] }));
  router.get('/workspace/team', ...ready, page({ view: 'team', sections: ['team', 'members'] }));
  router.get('/workspace/users', ...ready, superadminOnly, page({ view: 'users', sections: ['users', 'members', 'brands'] }));
  router.get('/workspace/settings', ...ready, async (req, res) => {
    const notifications = await opts.notificationSettings.get(userOf(req));
    // A zone kept in a spelling the list leaves out is still offered, so that saving keeps it.
    const timeZones = TIME_ZONES.includes(notifications.timeZone) ? TIME_ZONES : [notifications.timeZone, ...TIME_ZONES];
    renderWorkspacePage(req, res, { view: 'settings', sections: ['settings', 'password', 'notificationSettings'], locals: { notifications, timeZones, digestTime: digestTime(req.lang) } });
  });
  router.get('/workspace/settings/mail', ...ready, superadminOnly, page({ view: 'mail', sections: ['mail'], active: 'settings', locals: { mailStatuses: MAIL_STATUSES } }));
  router.get('/workspace/profile', ...ready, page({ view: 'profile', sections: ['profile', 'upload'], uploads: picture }));

  return router;
}
