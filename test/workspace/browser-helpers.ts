import { beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Role } from '../../src/workspace/domain';
import { launchBrowser, networkQuiet, screenshotStretched, serve, seriousViolations } from '../support/browser';
import { buildWorkspace, PASSWORD, type TestUser, type TestWorkspace } from '../support/workspace';

export { PASSWORD };

export type Lang = 'en' | 'ar';
export const WIDTHS = [390, 1440] as const;

export interface Seeded {
  ws: TestWorkspace;
  url: string;
  close(): Promise<void>;
  brand: { id: number; name: string };
  admin: TestUser;
  manager: TestUser;
  contributor: TestUser;
}

/**
 * A served app with one brand and a superadmin, a manager and a contributor in it, each with a
 * finished profile and tour, so that their pages open straight away.
 */
export async function seed(opts: { env?: Record<string, string> } = {}): Promise<Seeded> {
  const ws = await buildWorkspace(opts);
  const brand = await ws.brand('Museum of Art');
  const people: [Role, string, string][] = [
    ['superadmin', 'Salma Haddad', 'Head of marketing'],
    ['manager', 'Omar Khalil', 'Campaign manager'],
    ['contributor', 'Lina Farah', 'Content writer'],
  ];
  const [admin, manager, contributor] = await Promise.all(
    people.map(async ([role, name, jobTitle]) => {
      const user = await ws.user(role, { brandIds: [brand.id], name });
      await finishProfile(ws, user, { jobTitle });
      return user;
    }),
  );
  const server = await serve(ws.app);
  return { ws, url: server.url, close: server.close, brand, admin, manager, contributor };
}

export async function finishProfile(ws: TestWorkspace, user: TestUser, opts: { jobTitle?: string; tour?: boolean } = {}): Promise<void> {
  const now = new Date(ws.clock.now()).toISOString();
  await ws.members.update(user.id, {
    jobTitle: opts.jobTitle ?? 'Marketing',
    profileCompletedAt: now,
    onboardingCompletedAt: opts.tour === false ? null : now,
  });
}

/** A browser context already signed in as `user` (a real sign-in through the API). */
export async function signedIn(browser: Browser, app: Seeded, user: TestUser, opts: { width?: number; lang?: Lang } = {}) {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1440, height: 900 }, reducedMotion: 'reduce' });
  const { cookie } = await app.ws.signIn(user.email);
  const [name, value] = cookie.split('=');
  const host = new URL(app.url).hostname;
  await context.addCookies([
    { name, value, domain: host, path: '/', httpOnly: true, sameSite: 'Lax' },
    { name: 'lang', value: opts.lang ?? 'en', domain: host, path: '/' },
  ]);
  const page = await context.newPage();
  const dialogs = forbidNativeDialogs(page);
  return { context, page, dialogs };
}

/** Collects any native alert, confirm or prompt (none may ever open), dismissing it. */
export function forbidNativeDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on('dialog', (dialog) => {
    opened.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return opened;
}

/** Signs in through the form on /login. */
export async function signInThroughForm(page: Page, url: string, email: string, password = PASSWORD) {
  await page.goto(`${url}/login`);
  await page.fill('#login-email', email);
  await page.fill('#login-password', password);
  await page.click('#login-form button[type="submit"]');
}

/**
 * Records, after each task that changed the page, how many `cards` each of `groups` holds: what a
 * page draws in its first task and what it leaves for the tasks after. Read with `countsSeen`.
 */
export async function watchCounts(page: Page, groups: string, cards: string): Promise<void> {
  await page.addInitScript(
    ([groups, cards]) => {
      const seen: number[][] = [];
      (window as unknown as { countsSeen: number[][] }).countsSeen = seen;
      new MutationObserver(() => {
        const counts = [...document.querySelectorAll(groups)].map((group) => group.querySelectorAll(cards).length);
        if (counts.some(Boolean) && counts.join() !== seen.at(-1)?.join()) seen.push(counts);
      }).observe(document, { childList: true, subtree: true });
    },
    [groups, cards] as const,
  );
}

/** The counts `watchCounts` recorded, in order: the first once any card was drawn. */
export const countsSeen = (page: Page) => page.evaluate(() => (window as unknown as { countsSeen: number[][] }).countsSeen);

/** Waits until the page's script has loaded its data (nothing busy, no loading text). */
export async function settled(page: Page) {
  await page.waitForLoadState('load');
  await networkQuiet(page);
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
}

/** The cards a page's long lists draw while the browser is idle (IDLE_UP_TO in public/js/workspace/lazy-lists.js). */
export const IDLE_UP_TO = 300;

/** Waits until the drawing while idle has stopped, at `count` cards matching `cards`. */
export async function idleDrawingStopped(page: Page, cards: string, count = IDLE_UP_TO) {
  await expect.poll(() => page.locator(cards).count(), { timeout: 30_000 }).toBe(count);
  // Two more idle periods: had the lists more to draw while idle, they would have drawn it in these.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestIdleCallback(resolve))));
  expect(await page.locator(cards).count(), 'cards drawn while idle').toBe(count);
}

/** Scrolls the list `list` to its end until `count` items matching `cards` are drawn in it. */
export async function scrollUntilDrawn(page: Page, list: string, cards: string, count: number) {
  await expect
    .poll(
      async () => {
        await page.evaluate((selector) => {
          const node = document.querySelector(selector)!;
          node.scrollTop = node.scrollHeight;
        }, list);
        return page.locator(`${list} ${cards}`).count();
      },
      { timeout: 60_000 },
    )
    .toBe(count);
}

/**
 * Checks the page with axe-core and writes a screenshot (screenshotStretched).
 * `opts.tick` moves a page clock held still on while axe runs (see seriousViolations).
 */
export async function checkAndShoot(page: Page, name: string, opts: Parameters<typeof seriousViolations>[1] = {}) {
  expect(await seriousViolations(page, opts), `axe on ${name}`).toEqual([]);
  await screenshotStretched(page, name);
}

export async function closeAll(context: BrowserContext, dialogs: string[]) {
  await context.close();
  expect(dialogs).toEqual([]);
}

/** One browser for the test file; the getter is read inside the tests, once it is launched. */
export function useBrowser(): () => Browser {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    // Registered once launched: afterAll would also run after a launch that failed.
    return () => browser.close();
  });
  return () => browser;
}

export interface PageRun<T> {
  app: Seeded;
  page: Page;
  context: BrowserContext;
  data: T;
}

/**
 * The shape of most browser tests: a fresh app, its data from `prepare`, a page signed in as
 * one of the seeded people, the `steps`; then no native dialog may have opened.
 */
export async function runAs<T = undefined>(
  browser: Browser,
  who: 'admin' | 'manager' | 'contributor',
  opts: { lang?: Lang; width?: number; env?: Record<string, string>; prepare?: (app: Seeded) => Promise<T> },
  steps: (run: PageRun<T>) => Promise<void>,
): Promise<void> {
  const app = await seed({ env: opts.env });
  try {
    const data = (await opts.prepare?.(app)) as T;
    const { context, page, dialogs } = await signedIn(browser, app, app[who], opts);
    try {
      await steps({ app, page, context, data });
      expect(dialogs).toEqual([]);
    } finally {
      await context.close();
    }
  } finally {
    await app.close();
  }
}
