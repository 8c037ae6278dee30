import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser, layoutShiftOfLoad, observeLayoutShifts } from '../support/browser';
import { browserAndFreshApp, servedWithVisits, signedInPage } from './browser-helpers';

/** Thursday 27 November 2025, noon in Doha: this year is still running, so every comparison has a side in progress. */
const TODAY = Date.UTC(2025, 10, 27, 9);
const MUSEUMS = ['National Museum', 'متحف الفن', 'Heritage Village'];

function dailyCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  for (let day = Date.UTC(2024, 0, 1); day < TODAY - 86_400_000; day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    MUSEUMS.forEach((museum, m) => lines.push(`${date},${museum},${m % 2 ? 'Online' : 'Box office'},Old Town,${20 + m * 5 + ((day / 86_400_000) % 7)},${100 + m}`));
  }
  return `${lines.join('\n')}\n`;
}

const setup = () => servedWithVisits(TODAY, dailyCsv());

/** The Dashboard, Comparison (by the year before, and with two named sides) and Settings with its seasons, users and audit trail. */
const PAGES = ['/dashboard', '/dashboard/comparison', '/dashboard/comparison?a=2025&b=2024', '/dashboard?range=last30&granularity=week', '/dashboard/settings'];
/** The goal for a page's layout shift (Lighthouse's CLS). */
const LIMIT = 0.02;
const drawn = (page: Page) => page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));

describeBrowser('the layout shift of loading each dashboard page, in a browser', () => {
  const held = browserAndFreshApp(setup);

  for (const lang of ['en', 'ar'] as const) {
    for (const width of [412, 1440]) {
      it(`when every dashboard page loads in ${lang} at ${width} px, its figures arriving after the first paint, then nothing on it shifts by more than ${LIMIT}`, { timeout: 90_000 }, async () => {
        const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
        try {
          await page.addInitScript(observeLayoutShifts);
          const shifts: Record<string, number> = {};
          const moved: Record<string, string[]> = {};
          for (const path of PAGES) {
            const { total, moved: what } = await layoutShiftOfLoad(page, `${held.app.server.url}${path}`, drawn);
            shifts[path] = Number(total.toFixed(4));
            if (total > LIMIT) moved[path] = what;
          }
          expect(moved, JSON.stringify(shifts)).toEqual({});
        } finally {
          await page.close();
        }
      });
    }
  }
});
