import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildApp } from '../support/app';
import { describeBrowser, screenshot, serve, seriousViolations } from '../support/browser';
import { browserAndFreshApp, chartsDrawn, figuresShown, importVisits, signedInPage } from './browser-helpers';

const MUSEUMS = ['National Museum', 'Maritime Museum'];

/** One row per museum and day from 2025-01-01 to 2026-01-14, the day before the test clock's today. */
function dailyCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  for (let day = Date.UTC(2025, 0, 1); day <= Date.UTC(2026, 0, 14); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    const weekday = new Date(day).getUTCDay();
    MUSEUMS.forEach((museum, m) => {
      const visitors = 300 - m * 90 + (weekday === 5 || weekday === 6 ? 120 : 0) + (day / 86_400_000) % 17;
      lines.push(`${date},${museum},Online,Old Town,${visitors},${(visitors * 35).toFixed(2)}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

async function setup() {
  const built = await buildApp();
  await importVisits(built.app, dailyCsv());
  return { ...built, server: await serve(built.app) };
}

async function trendRows(page: Page) {
  return page.$$eval('#trend-rows tr', (rows) => rows.map((r) => ({ text: r.querySelector('th')?.textContent ?? '', partial: r.classList.contains('is-partial') })));
}

describeBrowser('Dashboard dates and grouping on /dashboard in a browser', () => {
  const held = browserAndFreshApp(setup);

  async function signedIn(width: number, lang: string) {
    const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
    await figuresShown(page);
    return page;
  }

  for (const lang of ['en', 'ar']) {
    for (const width of [390, 1440]) {
      it(`when "last 30 days" is chosen (${lang}, ${width} px), then the address keeps it, 30 days are drawn and both dates are printed`, async () => {
        const page = await signedIn(width, lang);
        try {
          await page.selectOption('[data-range-preset]', 'last30');
          await page.waitForURL(/range=last30/);
          await figuresShown(page);
          const rows = await trendRows(page);
          expect(rows).toHaveLength(30);
          expect(rows.some((r) => r.partial)).toBe(false);
          const note = await page.textContent('[data-range-note]');
          expect(note).toMatch(lang === 'en' ? /Showing Dec 16, 2025\s*–\s*Jan 14, 2026/ : /المعروض/);
          expect(await page.getAttribute('#export-link', 'href')).toBe('/api/dashboard/export.csv?from=2025-12-16&to=2026-01-14');
          expect(await page.$eval('html', (h) => h.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
          await page.click('.trend-table summary');
          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth), 'scrolls sideways').toBe(width);
          // Every breakdown's figures are in view without scrolling its table sideways.
          const cutOff = await page.$$eval('[data-breakdown] .table-wrap', (wraps) =>
            wraps.filter((w) => w.scrollWidth > w.clientWidth + 1).map((w) => w.getAttribute('aria-labelledby')),
          );
          expect(cutOff).toEqual([]);
          await screenshot(page, `dashboard-range-last30-${lang}-${width}`);
        } finally {
          await page.close();
        }
      }, 90_000);

      it(`when a custom range and a grouping are chosen (${lang}, ${width} px), then weeks cut by the range are marked partial and the address can be reopened`, async () => {
        const page = await signedIn(width, lang);
        try {
          await page.selectOption('[data-range-preset]', 'custom');
          await page.fill('[data-range-from]', '2025-03-05');
          await page.fill('[data-range-to]', '2025-02-01');
          await page.click('[data-range-apply]');
          expect(await page.isVisible('[data-range-error]')).toBe(true);
          await page.fill('[data-range-to]', '2025-05-20');
          await page.click('[data-range-apply]');
          await page.waitForURL(/from=2025-03-05&to=2025-05-20/);
          await figuresShown(page);
          expect(await page.isHidden('[data-range-error]')).toBe(true);
          await page.selectOption('[data-range-granularity]', 'week');
          await page.waitForURL(/granularity=week/);
          await figuresShown(page);
          const weeks = await trendRows(page);
          expect(weeks[0].partial).toBe(true);
          expect(weeks[weeks.length - 1].partial).toBe(true);
          expect(weeks.slice(1, -1).every((w) => !w.partial)).toBe(true);
          expect(await page.isVisible('#trend-partial')).toBe(true);
          // The first week (Mon 3 March; in Arabic, where weeks start on Sunday, Sun 2 March) is
          // covered from Wednesday 5 March: named by those days, and drawn at its daily pace, 7/5
          // of its five days (7/4 of four in Arabic), so that it does not read as a fall.
          if (lang === 'en') expect(weeks[0].text).toMatch(/^Mar 5\s*–\s*9, 2025 \(partial\)$/);
          await chartsDrawn(page, '#trend-chart');
          const drawn = await page.evaluate(() => {
            const chart = (window as unknown as { Chart: { getChart(c: Element | null): { data: { datasets: { data: number[] }[] } } } }).Chart.getChart(document.querySelector('#trend-chart'));
            return chart.data.datasets[0].data;
          });
          const firstWeek = await page.$eval('#trend-rows tr td', (td) => Number(td.textContent.replace(/[^\d]/g, '')));
          expect(drawn[0]).toBeCloseTo((firstWeek * 7) / (lang === 'ar' ? 4 : 5), 6);
          // The change card says which dates it was compared with; figures never break inside.
          expect(await page.textContent('[data-kpi-note="change"]')).toMatch(lang === 'en' ? /Against Dec 18, 2024\s*–\s*Mar 4, 2025/ : /مقارنة بـ/);
          for (const value of await page.$$('.kpi-value')) {
            expect(await value.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getClientRects().length === 1)).toBe(true);
          }
          await page.click('.trend-table summary');
          expect(await seriousViolations(page)).toEqual([]);
          await screenshot(page, `dashboard-range-custom-week-${lang}-${width}`);

          await page.reload();
          await figuresShown(page);
          expect(await page.inputValue('[data-range-preset]')).toBe('custom');
          expect(await page.inputValue('[data-range-from]')).toBe('2025-03-05');
          expect(await page.inputValue('[data-range-granularity]')).toBe('week');
          await page.selectOption('[data-range-granularity]', 'month');
          await figuresShown(page);
          await page.waitForURL(/granularity=month/);
          expect((await trendRows(page)).map((r) => r.partial)).toEqual([true, false, true]);
        } finally {
          await page.close();
        }
      }, 90_000);
    }

    it(`when the comparison opens without a choice (${lang}), then year to date meets the same days of last year and both ranges are printed`, async () => {
      const page = await signedIn(1440, lang);
      try {
        await page.goto(`${held.app.server.url}/dashboard/comparison`);
        await figuresShown(page);
        expect(await page.inputValue('#compare-mode')).toBe('year');
        expect(await page.inputValue('[data-range-preset]')).toBe('yearToDate');
        const heads = await page.$$eval('#metrics thead th', (cells) => cells.map((c) => c.textContent));
        if (lang === 'en') expect(heads.slice(1, 3).map((h) => h.replace(/\s+/g, ' '))).toEqual(['Jan 1 – 14, 2025', 'Jan 1 – 14, 2026']);
        expect(await page.$$eval('#metrics tbody tr', (rows) => rows.length)).toBe(3);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `dashboard-compare-ytd-${lang}-1440`);
        await page.setViewportSize({ width: 390, height: 900 });
        await page.selectOption('#compare-mode', 'previous');
        await page.waitForURL(/against=previous/);
        await figuresShown(page);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `dashboard-compare-previous-${lang}-390`);
      } finally {
        await page.close();
      }
    }, 90_000);
  }

  it('when a grouping is chosen, a preset reopened as a custom range, and a season shares no day with the period, then the page says what it would do, keeps the dates and explains the emptiness', async () => {
    const page = await signedIn(1440, 'en');
    try {
      await page.goto(`${held.app.server.url}/dashboard?from=2025-01-01&to=2025-03-31&granularity=month`);
      await figuresShown(page);
      // A quarter is drawn by week when left automatic, whatever the reader chose instead.
      expect(await page.textContent('[data-range-granularity] [data-auto-option]')).toBe('Automatic (Week)');
      // Axis ticks of a series across two years carry the year.
      await page.goto(`${held.app.server.url}/dashboard?from=2025-12-20&to=2026-01-10`);
      await figuresShown(page);
      await chartsDrawn(page, '#trend-chart');
      const ticks = await page.evaluate(() => {
        const chart = (window as unknown as { Chart: { getChart(c: Element | null): { scales: { x: { ticks: { label: string | string[] }[] } } } } }).Chart.getChart(document.querySelector('#trend-chart'));
        return chart.scales.x.ticks.map((tick) => String(tick.label));
      });
      expect(ticks.length).toBeGreaterThan(0);
      expect(ticks.every((label) => /20(25|26)/.test(label))).toBe(true);
      await page.goto(`${held.app.server.url}/dashboard?range=last30`);
      await figuresShown(page);
      await page.selectOption('[data-range-preset]', 'custom');
      expect([await page.inputValue('[data-range-from]'), await page.inputValue('[data-range-to]')]).toEqual(['2025-12-16', '2026-01-14']);
      await page.goto(`${held.app.server.url}/dashboard?range=last7&year=2025`);
      await page.waitForSelector('#state-card:not([hidden])');
      expect(await page.textContent('[data-state-hint]')).toMatch(/no day in common/);
      expect(await page.textContent('[data-range-note]')).not.toMatch(/Showing/);
    } finally {
      await page.close();
    }
  }, 90_000);

  for (const [lang, width] of [['en', 1440], ['ar', 390]] as const) {
    it(`when an administrator opens Settings (${lang}, ${width} px), then the audit trail lists the sign-ins and filters by action`, async () => {
      const page = await signedIn(width, lang);
      try {
        await page.goto(`${held.app.server.url}/dashboard/settings`);
        await page.waitForSelector('#audit-rows tr');
        expect(await page.$$eval('#audit-rows tr', (rows) => rows.length)).toBeGreaterThanOrEqual(2);
        await page.selectOption('#audit-action', 'visitsImported');
        await page.click('#audit-filters button[type="submit"]');
        await page.waitForFunction(() => document.querySelectorAll('#audit-rows tr').length === 1);
        // What changed is said field by field in the page's language, not as raw JSON.
        expect(await page.textContent('#audit-rows .audit-change')).toMatch(lang === 'en' ? /^Rows: [\d,]+$/ : /^الصفوف: [\d٠-٩٬,]+$/);
        expect(await page.getAttribute('#audit-export', 'href')).toBe('/api/audit/export.csv?action=visitsImported');
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), 'scrolls sideways').toBe(width);
        await screenshot(page, `dashboard-settings-audit-${lang}-${width}`);
      } finally {
        await page.close();
      }
    }, 90_000);
  }
});
