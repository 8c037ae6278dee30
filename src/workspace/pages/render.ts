import type { Request, Response } from 'express';
import { actorOf, userOf } from '../request';
import { clientUser, pageCapabilities } from './context';
import { DOMAIN } from '../domain';
import { PASSWORD_MIN_LENGTH } from '../schemas';
import { SEARCH_TEXT_MAX, SEARCH_TEXT_MIN } from '../search/routes';
import type { UserRecord } from '../shared/member';

export interface PageSpec {
  /** `views/workspace/<view>.ejs`, its title `workspace.<view>.title` and its sidebar entry. */
  view: string;
  /** The `workspace.<section>` locale subtrees its script reads, beside the shared ones. */
  sections: readonly string[];
  uploads?: { maxBytes: number; maxFiles: number };
  /** Without the sidebar: the profile step comes before the workspace opens. */
  bare?: boolean;
  /** What only this page's template needs. */
  locals?: Record<string, unknown>;
  /** A title of its own (a record's name) instead of `workspace.<view>.title`. */
  title?: string;
  /** The sidebar entry it belongs under, when not its view's (a project's page is under Projects). */
  active?: string;
}

/** What every page with the sidebar reads: the search box, the notifications bell and colleagues' live changes among them. */
const SHARED_SECTIONS = ['common', 'errors', 'role', 'nav', 'search', 'tour', 'notifications', 'live'] as const;

/**
 * The locale subtrees a page script needs, as JSON for a `data-strings` attribute: EJS
 * escapes the attribute, so no translated text can break out of it.
 */
function clientStrings(res: Response, sections: readonly string[]): string {
  const { t } = res.locals;
  const all = [...SHARED_SECTIONS, ...sections];
  return JSON.stringify(Object.fromEntries(all.map((s) => [s, t(`workspace.${s}`, { returnObjects: true })])));
}

export function renderWorkspacePage(req: Request, res: Response, spec: PageSpec): void {
  const user = clientUser(userOf(req));
  const can = pageCapabilities(actorOf(req));
  res.set('Cache-Control', 'no-store');
  res.page(`workspace/${spec.view}`, {
    ...spec.locals,
    layout: spec.bare ? 'main' : 'workspace',
    title: spec.title ?? res.locals.t(`workspace.${spec.view}.title`),
    styles: ['workspace'],
    bodyClass: spec.bare ? 'ws-body ws-bare' : 'ws-body',
    user,
    uploads: spec.uploads ?? null,
    active: spec.active ?? spec.view,
    strings: clientStrings(res, spec.sections),
    domain: DOMAIN,
    can,
    passwordMinLength: PASSWORD_MIN_LENGTH,
    search: { minLength: SEARCH_TEXT_MIN, maxLength: SEARCH_TEXT_MAX },
    context: JSON.stringify({ user, uploads: spec.uploads ?? null, domain: DOMAIN, can, passwordMinLength: PASSWORD_MIN_LENGTH }),
  });
}

/** The pages seen before signing in (or on the way to the workspace): their title and the strings their scripts read. */
const AUTH_PAGES = {
  login: { title: 'workspace.login.title', sections: ['login', 'steps'] },
  'change-password': { title: 'workspace.password.title', sections: ['password', 'steps'] },
  'forgot-password': { title: 'workspace.forgot.title', sections: ['forgot', 'login'] },
  'reset-password': { title: 'workspace.reset.title', sections: ['reset', 'password', 'login'] },
  invite: { title: 'workspace.invite.title', sections: ['invite', 'password', 'login'] },
} as const;

export type AuthPage = keyof typeof AUTH_PAGES;

export function renderAuthPage(
  res: Response,
  view: AuthPage,
  locals: { next?: string; user?: UserRecord; status?: number; [local: string]: unknown } = {},
): void {
  const { next, user, status, ...rest } = locals;
  res.set('Cache-Control', 'no-store');
  res.page(
    `workspace/${view}`,
    {
      ...rest,
      title: res.locals.t(AUTH_PAGES[view].title),
      styles: ['workspace'],
      bodyClass: 'ws-body ws-auth auth-page',
      next: next ?? '/workspace',
      forced: user?.mustChangePassword ?? false,
      passwordMinLength: PASSWORD_MIN_LENGTH,
      strings: clientStrings(res, AUTH_PAGES[view].sections),
    },
    status,
  );
}
