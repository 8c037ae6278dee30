import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { RequestListener, Server } from 'node:http';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page, type Request, type Route } from 'playwright-core';
import { createHttpServer } from '../../src/platform/http-server';
import { buildApp } from './app';

export const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts');

/**
 * Browser suites run where Debian's chromium is installed; CI installs it and sets
 * REQUIRE_BROWSER=1, so there a missing browser fails instead of skipping.
 */
export const describeBrowser: typeof describe =
  fs.existsSync(CHROMIUM) || process.env.REQUIRE_BROWSER ? describe : (describe.skip as typeof describe);

/**
 * Each page's requests still under way, and its live event streams not yet answered: a stream
 * never ends, so it counts only until the server has answered it (from then on the page hears
 * every change made).
 */
const underWay = new WeakMap<Page, Set<Request>>();

function followRequests(context: BrowserContext): BrowserContext {
  const requestsOf = (request: Request) => {
    const page = request.frame().page();
    let requests = underWay.get(page);
    if (!requests) underWay.set(page, (requests = new Set()));
    return requests;
  };
  // A service worker's request has no frame: no page waits on it.
  const framed = (request: Request) => !request.serviceWorker();
  const done = (request: Request) => {
    if (framed(request)) requestsOf(request).delete(request);
  };
  context.on('request', (request) => {
    if (framed(request)) requestsOf(request).add(request);
  });
  context.on('response', (response) => {
    if (response.request().resourceType() === 'eventsource') done(response.request());
  });
  context.on('requestfinished', done);
  context.on('requestfailed', done);
  return context;
}

/**
 * Resolves once `page` has had no request under way for `quietMs`: Playwright's
 * 'networkidle' with a shorter quiet time (its 500 ms, paid on every page a test opens, was
 * a fifth of the browser tests' time), a live event stream counting until it is answered.
 */
export async function networkQuiet(page: Page, quietMs = 150): Promise<void> {
  let quietSince = Date.now();
  for (;;) {
    if (underWay.get(page)?.size) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Every context follows its pages' requests, so that networkQuiet can tell when they end.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => followRequests(await newContext(options));
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    // The page's own context, blank until the page goes somewhere.
    const page = await newPage(options);
    followRequests(page.context());
    return page;
  };
  return browser;
}

/** Serves an app on a free loopback port, on the HTTP server that server.ts uses. */
export async function serve(app: RequestListener) {
  let server!: Server;
  await new Promise<void>((resolve) => {
    server = createHttpServer(app).listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The app as tests build it, served for the whole file (started before its tests, closed after): its address. */
export function useServedApp(): () => string {
  let server: Awaited<ReturnType<typeof serve>> | undefined;
  beforeAll(async () => {
    server = await serve((await buildApp()).app);
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (!server) throw new Error('the app is served from beforeAll on');
    return server.url;
  };
}

/**
 * Whether the browser tests write their screenshots: for a person to look at, so on by
 * default and off in CI, where nobody does (a whole-page shot is a sixth of a page's check
 * there); SCREENSHOTS=1 or 0 decides either way.
 */
export const SCREENSHOTS = process.env.SCREENSHOTS ? process.env.SCREENSHOTS === '1' : !process.env.CI;

/**
 * A screenshot of the whole page taken with the viewport stretched to it rather than by
 * scrolling: a modal or tour is fixed to the viewport, and a full-page shot would show it over
 * a page only partly dimmed.
 */
export async function screenshotStretched(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  const size = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(height, size.height) });
  await screenshot(page, name);
  await page.setViewportSize(size);
}

/** Writes a screenshot under test/artifacts/ (git-ignored) for a person to look at, unless SCREENSHOTS is off. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SCREENSHOTS) return;
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page and returns the serious and critical violations. On a page whose
 * clock a test holds still (page.clock), axe's own timers wait for it: `tick` moves the
 * clock on, a little at a time, until axe is done.
 */
export async function seriousViolations(page: Page, opts: { tick?: () => Promise<void> } = {}): Promise<AxeViolation[]> {
  const source = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated over the DevTools protocol: the pages' CSP forbids inline script tags.
  await page.evaluate(source);
  const running = page.evaluate<{ violations: AxeViolation[] }>(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return axe.run(document, { resultTypes: ['violations'] });
  });
  if (opts.tick) {
    // Widened: TypeScript does not see the callback set it, and would take the loop for endless.
    let done = false as boolean;
    void running.finally(() => {
      done = true;
    });
    while (!done) await opts.tick();
  }
  const result = await running;
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
}

/**
 * An init script (page.addInitScript) that adds up the layout shifts not caused by input
 * from before any script of the page runs, with what moved, for layoutShiftOfLoad.
 */
export function observeLayoutShifts() {
  const record = { total: 0, moved: [] as string[] };
  (window as unknown as { layoutShift: typeof record }).layoutShift = record;
  type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[] };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Shift[]) {
      if (entry.hadRecentInput) continue;
      record.total += entry.value;
      for (const source of entry.sources) {
        const node = source.node instanceof Element ? source.node : source.node?.parentElement;
        // classList, not className: an SVG element's className is an object, whatever Element's type says.
        const name = node ? `${node.tagName.toLowerCase()}${[...node.classList].map((c) => `.${c}`).join('')}` : '?';
        record.moved.push(`${entry.value.toFixed(4)} ${name} ${Math.round(source.previousRect.y)}→${Math.round(source.currentRect.y)} h${Math.round(source.previousRect.height)}→${Math.round(source.currentRect.height)}`);
      }
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

const twoFrames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/**
 * Opens `url` (in a page given observeLayoutShifts) with every API answer held back until the
 * page has painted what the server sent, so that the data always arrives after the first paint
 * (the moment a shift would show); `loaded` waits for the page to have drawn it. Returns the
 * load's cumulative layout shift and what moved.
 */
export async function layoutShiftOfLoad(page: Page, url: string, loaded: (page: Page) => Promise<unknown>) {
  const held: Route[] = [];
  let holding = true;
  await page.route('**/api/**', (route) => (holding ? held.push(route) : route.continue()));
  const response = await page.goto(url, { waitUntil: 'load' });
  expect(response?.status(), url).toBe(200);
  expect(page.url(), 'the page opened, signed in').toBe(url);
  await twoFrames(page);
  holding = false;
  await Promise.all(held.splice(0).map((route) => route.continue()));
  await loaded(page);
  await twoFrames(page);
  await page.unroute('**/api/**');
  return page.evaluate(() => (window as unknown as { layoutShift: { total: number; moved: string[] } }).layoutShift);
}
