import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { RequestListener, Server } from 'node:http';
import { describe } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createHttpServer } from '../../src/platform/http-server';

export const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '..', 'artifacts');

/**
 * Browser suites run where Debian's chromium is installed; CI installs it and sets
 * REQUIRE_BROWSER=1, so there a missing browser fails instead of skipping.
 */
export const describeBrowser: typeof describe =
  fs.existsSync(CHROMIUM) || process.env.REQUIRE_BROWSER ? describe : (describe.skip as typeof describe);

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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

/** Writes a screenshot under test/artifacts/ (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
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
    let done = false;
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
