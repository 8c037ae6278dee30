import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { request } from '../support/http';
import { buildApp, cookieFrom } from '../support/app';
import { launchBrowser, serve } from '../support/browser';

/** The administrator PIN of every app that buildApp makes. */
export const ADMIN_PIN = '999999';

/** Imports `csv` into the app as its administrator, through the route a browser uses. */
export async function importVisits(app: Awaited<ReturnType<typeof buildApp>>['app'], csv: string): Promise<void> {
  const login = await request(app).post('/auth/login').send({ pin: ADMIN_PIN });
  const imported = await request(app)
    .post('/api/dashboard/import')
    .set('Cookie', `service_session=${cookieFrom(login, 'service_session')}`)
    .set('Sec-Fetch-Site', 'same-origin')
    .set('Content-Type', 'text/csv')
    .send(csv);
  expect(imported.status).toBe(200);
}

/** A new app whose clock reads `today`, holding the visits of `csv`, served on a free port. */
export async function servedWithVisits(today: number, csv: string) {
  const built = await buildApp();
  built.clock.set(today);
  await importVisits(built.app, csv);
  return { ...built, server: await serve(built.app) };
}

/**
 * One browser for the file and a newly made app (from `setup`) for each test, closed after it;
 * read `browser` and `app` inside the tests.
 */
export function browserAndFreshApp<T extends { server: { close(): Promise<void> } }>(setup: () => Promise<T>) {
  const held: { browser?: Browser; app?: T } = {};
  beforeAll(async () => {
    held.browser = await launchBrowser();
  });
  beforeEach(async () => {
    held.app = await setup();
  });
  afterEach(async () => {
    await held.app?.server.close();
  });
  afterAll(async () => {
    await held.browser?.close();
  });
  return {
    get browser() {
      return held.browser!;
    },
    get app() {
      return held.app!;
    },
  };
}

/** A new page of `width` signed in with `pin` through the sign-in form, on the Dashboard. */
export async function signedInPage(browser: Browser, base: string, opts: { width: number; lang: string; pin?: string }): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: opts.width, height: 900 }, reducedMotion: 'reduce' });
  await signIn(page, base, opts.pin ?? ADMIN_PIN, opts.lang);
  return page;
}

export async function signIn(page: Page, base: string, pin: string, lang = 'en'): Promise<void> {
  await page.goto(`${base}/dashboard/login?lang=${lang}`);
  await page.fill('#pin', pin);
  await page.click('button[type="submit"]');
  await page.waitForURL(`${base}/dashboard`);
}

/** Waits for the figures; fails when the page shows its error or empty state instead. */
export async function figuresShown(page: Page): Promise<void> {
  await page.waitForSelector('#results[aria-busy="false"], #state-card:not([hidden])', { state: 'attached' });
  const problem = await page.$eval('#state-card', (card) => ((card as HTMLElement).hidden ? '' : card.textContent.trim()));
  expect(problem, 'the page shows an error or empty state instead of figures').toBe('');
  await page.waitForSelector('#results[aria-busy="false"]');
}

/** Chart.js sets window.Chart once it has loaded, which it does when a page first draws a chart. */
type ChartLookup = { Chart?: { getChart(c: Element): { id: number } | undefined } };

/**
 * Scrolls to each canvas `selector` finds, one after the other (a chart below the first screen
 * is drawn only as it comes near), and answers the id Chart.js gave the chart drawn on each.
 */
export async function chartsDrawn(page: Page, selector: string): Promise<number[]> {
  const canvases = await page.$$(selector);
  const ids: number[] = [];
  for (const canvas of canvases) {
    await canvas.scrollIntoViewIfNeeded();
    // Chart.js counts from 0, which waitForFunction would take for "not yet".
    const id = await page.waitForFunction((c) => String((window as unknown as ChartLookup).Chart?.getChart(c)?.id ?? ''), canvas);
    ids.push(Number(await id.jsonValue()));
  }
  return ids;
}
