import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser, screenshot } from '../support/browser';
import { browserAndFreshApp, figuresShown, servedWithVisits, signedInPage } from './browser-helpers';

const MUSEUMS = ['National Museum', 'Museum of Islamic Art', 'Natural History Museum', 'Heritage Village', 'Maritime Museum', 'Contemporary Art Gallery'];
const CHANNELS = ['Box office', 'Online', 'Partner', 'School groups'];
/** The reviewer's today: 2026 holds figures to Nov 24, 328 days against 2025's 365. */
const TODAY = Date.UTC(2026, 10, 25, 12);

/**
 * One row per museum, channel and day from 2025-01-01 to yesterday. A visitor pays 45.00 in
 * 2025 and 45.02 in 2026: revenue per visitor rises by 0.02, which is 0.0% to one decimal.
 */
function dailyCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  for (let day = Date.UTC(2025, 0, 1); day < Date.UTC(2026, 10, 25); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    const price = date.startsWith('2026') ? 45.02 : 45;
    MUSEUMS.forEach((museum, m) => {
      CHANNELS.forEach((channel, c) => {
        const visitors = 40 + m * 7 + c * 11 + ((day / 86_400_000 + m) % 13) + (date.startsWith('2026') ? 3 : 0);
        lines.push(`${date},${museum},${channel},Old Town,${visitors},${(visitors * price).toFixed(2)}`);
      });
    });
  }
  return `${lines.join('\n')}\n`;
}

const setup = () => servedWithVisits(TODAY, dailyCsv());

/** Every comparison table's change and percent cells that lie outside the window, and every table that scrolls sideways. */
async function hiddenFigures(page: Page): Promise<string[]> {
  return page.$$eval('#results table', (tables) => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = tables.length === 3 ? [] : [`${tables.length} tables instead of key figures, museums and channels`];
    if (document.documentElement.scrollWidth > width) problems.push('the page scrolls sideways');
    for (const table of tables) {
      const wrap = table.closest('.table-wrap')!;
      const name = wrap.getAttribute('aria-labelledby');
      if (wrap.scrollWidth > wrap.clientWidth) problems.push(`${name} scrolls sideways (${wrap.scrollWidth} > ${wrap.clientWidth})`);
      const edge = wrap.getBoundingClientRect();
      for (const row of table.querySelectorAll('tbody tr')) {
        for (const figure of [...row.children].slice(-2)) {
          const box = figure.getBoundingClientRect();
          const inside = box.left >= Math.max(0, edge.left) - 0.5 && box.right <= Math.min(width, edge.right) + 0.5 && box.width > 0;
          if (!inside) problems.push(`${name}, ${row.querySelector('th')?.textContent}: "${figure.textContent}" at ${box.left}–${box.right}`);
        }
      }
    }
    return problems;
  });
}

/** Each change as shown: whether it is styled as no change, and its printed figure. */
async function deltas(page: Page) {
  return page.$$eval('#results .delta', (nodes) =>
    nodes.map((n) => ({ flat: n.classList.contains('delta-flat'), text: n.querySelector('bdi')?.textContent ?? '' })),
  );
}

describeBrowser('The Comparison page /dashboard/comparison in a browser', () => {
  const held = browserAndFreshApp(setup);

  it('when the sides hold different numbers of days, then the hint to compare the same dates a year earlier shows only while another mode is chosen', async () => {
    const page = await signedInPage(held.browser, held.app.server.url, { width: 1440, lang: 'en' });
    try {
      // Q1 2025 against Q1 2024, which holds no figures: 0 days against 90.
      await page.goto(`${held.app.server.url}/dashboard/comparison?against=year&from=2025-01-01&to=2025-03-31`);
      await figuresShown(page);
      expect(await page.isVisible('#partial-note [data-partial-text]')).toBe(true);
      expect(await page.isHidden('#partial-note [data-partial-hint]'), 'that mode is already chosen').toBe(true);

      await page.selectOption('#compare-mode', 'previous');
      await page.waitForURL(/against=previous/);
      await figuresShown(page);
      expect(await page.isVisible('#partial-note [data-partial-text]')).toBe(true);
      expect(await page.isVisible('#partial-note [data-partial-hint]')).toBe(true);
    } finally {
      await page.close();
    }
  });

  for (const lang of ['en', 'ar']) {
    for (const width of [390, 1440]) {
      it(`when year to date and then 2025 against 2026 are compared (${lang}, ${width} px), then every change is in view, signed by Intl, and the short year is flagged`, async () => {
        const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
        try {
          await page.goto(`${held.app.server.url}/dashboard/comparison?lang=${lang}`);
          await figuresShown(page);
          await screenshot(page, `comparison-ytd-${lang}-${width}`);
          expect(await hiddenFigures(page)).toEqual([]);
          expect(await page.isHidden('#partial-note'), 'both sides run Jan 1 – Nov 24').toBe(true);
          // Revenue per visitor: 45.00 against 45.02, a rise of 0.02 that is 0.0% to one decimal.
          const perVisitor = page.locator('#metrics tbody tr').nth(2);
          expect(await perVisitor.locator('td').nth(2).locator('.delta').getAttribute('class')).toContain('delta-up');
          expect(await perVisitor.locator('td').nth(3).locator('.delta').getAttribute('class')).toContain('delta-flat');
          // An arrow never contradicts its figure: a sign printed means up or down, none means no change.
          for (const shown of await deltas(page)) expect(shown.flat, shown.text).toBe(!/[+\-\u2212]/.test(shown.text));

          await page.goto(`${held.app.server.url}/dashboard/comparison?a=2025&b=2026&lang=${lang}`);
          await figuresShown(page);
          await screenshot(page, `comparison-sides-${lang}-${width}`);
          expect(await hiddenFigures(page)).toEqual([]);
          const note = (await page.textContent('#partial-note [data-partial-text]')) ?? '';
          expect(await page.isVisible('#partial-note')).toBe(true);
          if (lang === 'en') expect(note).toBe('2026 holds data to Nov 24, 2026 only: 328 days against 365');
          else expect(note).toMatch(/^بيانات 2026 .*328.*365/);
          // The change is from the first side to the second: read so, with an arrow drawn along the reading direction.
          expect((await page.innerText('[data-kpi-note="change"]')).replace(/\s+/g, ' ')).toBe(lang === 'en' ? '2025 to 2026' : '2025 إلى 2026');
          const arrow = page.locator('[data-kpi-note="change"] .arrow-mark');
          expect(await arrow.evaluate((node) => getComputedStyle(node).transform)).toBe(lang === 'ar' ? 'matrix(-1, 0, 0, 1, 0, 0)' : 'none');

          const answer = await page.evaluate(async () => (await fetch('/api/dashboard/compare?a=2025&b=2026')).json());
          const change = (answer as { metrics: { revenue: { change: number } } }).metrics.revenue.change;
          const expected = await page.evaluate(
            ([language, amount]) =>
              new Intl.NumberFormat(language, { style: 'currency', currency: 'QAR', signDisplay: 'exceptZero', maximumFractionDigits: 0, minimumFractionDigits: 0 }).format(amount),
            [lang, change] as const,
          );
          const revenueChange = page.locator('#metrics tbody tr').nth(1).locator('td').nth(2).locator('bdi');
          expect(await revenueChange.textContent()).toBe(expected);
        } finally {
          await page.close();
        }
      });
    }
  }
});
