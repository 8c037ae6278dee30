import { expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { describeBrowser, screenshot, seriousViolations } from '../support/browser';
import { browserAndFreshApp, chartsDrawn, figuresShown, servedWithVisits, signedInPage } from './browser-helpers';

/** Thursday 27 November 2025, noon in Doha. */
const TODAY = Date.UTC(2025, 10, 27, 9);
const MUSEUMS = ['National Museum', 'متحف الفن', 'Heritage Village'];

function dailyCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  for (let day = Date.UTC(2024, 0, 1); day < Date.UTC(2025, 10, 27); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    MUSEUMS.forEach((museum, m) => lines.push(`${date},${museum},${m % 2 ? 'Online' : 'Box office'},Old Town,${20 + m * 5 + ((day / 86_400_000) % 7)},${100 + m}`));
  }
  return `${lines.join('\n')}\n`;
}

const setup = () => servedWithVisits(TODAY, dailyCsv());

/** The id Chart.js gave the chart on each canvas of the results: a new chart gets a new id. */
const chartIds = (page: Page) => chartsDrawn(page, '#results canvas');

/** Whether each canvas `selector` finds shows a chart now, without scrolling to it. */
const drawnNow = (page: Page, selector: string) =>
  page.$$eval(selector, (canvases) => canvases.map((canvas) => (window as unknown as { Chart?: { getChart(c: Element): unknown } }).Chart?.getChart(canvas) !== undefined));

const COMBINATIONS = (['en', 'ar'] as const).flatMap((lang) => [390, 1440].map((width) => [lang, width] as const));

describeBrowser('Dashboard charts redrawn in place, and the comparison change as the server gives it', () => {
  const held = browserAndFreshApp(setup);

  it.each(COMBINATIONS)('when the reader changes the preset and a filter (%s, %i px), then every chart is the same chart updated, not a new one', async (lang, width) => {
    const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
    try {
      await page.goto(`${held.app.server.url}/dashboard?range=last90`);
      await figuresShown(page);
      const before = await chartIds(page);
      expect(before.length).toBeGreaterThanOrEqual(4);
      const started = Date.now();
      await page.selectOption('#range-preset', 'last30');
      await page.waitForFunction(() => new URL(window.location.href).searchParams.get('range') === 'last30');
      await figuresShown(page);
      const took = Date.now() - started;
      expect(await chartIds(page)).toEqual(before);
      await page.click('details[data-filter="museum"] summary');
      await page.check('details[data-filter="museum"] input[value="National Museum"]');
      await page.waitForFunction(() => new URL(window.location.href).searchParams.has('museum'));
      await figuresShown(page);
      // A breakdown of one museum may turn from bars to a ring: only that canvas gets a new chart.
      const after = await chartIds(page);
      expect(after[0]).toBe(before[0]);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `dashboard-redraw-${lang}-${width}`);
      console.info(`preset change redrawn in ${took} ms (${lang}, ${width} px)`);
    } finally {
      await page.close();
    }
  }, 60_000);

  /** The Dashboard of the last 90 days on a phone, its figures shown and nothing scrolled. */
  async function onPhone(lang: string): Promise<Page> {
    const page = await signedInPage(held.browser, held.app.server.url, { width: 390, lang });
    await page.goto(`${held.app.server.url}/dashboard?range=last90`);
    await figuresShown(page);
    return page;
  }

  it('when the Dashboard opens on a phone, then its charts below the first screen, the trend among them, are drawn only as the reader scrolls near them, and their tables at once', async () => {
    const page = await onPhone('en');
    try {
      const last = '[data-breakdown="byDistrict"] canvas';
      expect(await drawnNow(page, `#trend-chart, ${last}`)).toEqual([false, false]);
      // The tables are filled with the figures; only the drawings wait.
      expect(await page.$$eval('#trend-rows tr', (rows) => rows.length)).toBeGreaterThan(0);
      expect(await page.$$eval('[data-breakdown="byDistrict"] tbody tr', (rows) => rows.length)).toBeGreaterThan(0);
      expect(await chartsDrawn(page, '#trend-chart')).toHaveLength(1);
      expect(await drawnNow(page, last)).toEqual([false]);
      expect(await chartsDrawn(page, last)).toHaveLength(1);
    } finally {
      await page.close();
    }
  }, 60_000);

  type FrameSeen = { rows: number; busy: boolean };

  /**
   * Records, at every frame once the totals show, how many breakdowns have their rows and whether
   * the results are busy: each change of either, in order.
   */
  async function watchFrames(page: Page): Promise<void> {
    await page.addInitScript(() => {
      const seen: FrameSeen[] = [];
      (window as unknown as { framesSeen: FrameSeen[] }).framesSeen = seen;
      const tick = () => {
        const results = document.querySelector('#results');
        const totals = document.querySelector('[data-kpi="visitors"], [data-kpi="a"]')?.textContent.trim() ?? '';
        if (results && totals !== '' && totals !== '—') {
          const rows = [...results.querySelectorAll('[data-breakdown] tbody')].filter((body) => body.children.length > 0).length;
          const busy = results.getAttribute('aria-busy') === 'true';
          const last = seen.at(-1);
          if (last?.rows !== rows || last.busy !== busy) seen.push({ rows, busy });
        }
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  }

  it.each([
    ['/dashboard?range=last90', 3],
    ['/dashboard/comparison?a=2024&b=2025', 2],
  ] as const)('when the figures of %s arrive, then the totals show first and each breakdown follows in a frame of its own, the page busy until the last', async (path, breakdowns) => {
    const page = await signedInPage(held.browser, held.app.server.url, { width: 390, lang: 'ar' });
    try {
      await watchFrames(page);
      await page.goto(`${held.app.server.url}${path}`);
      await figuresShown(page);
      const seen = await page.evaluate(() => (window as unknown as { framesSeen: FrameSeen[] }).framesSeen);
      const inTurn = Array.from({ length: breakdowns }, (_, drawn) => ({ rows: drawn, busy: true }));
      expect(seen).toEqual([...inTurn, { rows: breakdowns, busy: false }]);
    } finally {
      await page.close();
    }
  }, 60_000);

  /**
   * Changes the dates to the last 30 days and, at the frame that answer's totals show (its
   * breakdowns still to come), to the last 7; `second` answers the second request.
   */
  async function changeTwiceWhileDrawing(page: Page, second: (route: Route) => Promise<void>): Promise<void> {
    let asked = 0;
    await page.route('**/api/dashboard/summary?*', async (route) => {
      asked += 1;
      await (asked === 2 ? second(route) : route.continue());
    });
    await page.evaluate(() => {
      const visitors = document.querySelector('[data-kpi="visitors"]')!;
      const preset = document.querySelector<HTMLSelectElement>('#range-preset')!;
      const before = visitors.textContent;
      const choose = (value: string) => {
        preset.value = value;
        preset.dispatchEvent(new Event('change', { bubbles: true }));
      };
      const watch = () => {
        if (visitors.textContent === before) requestAnimationFrame(watch);
        else choose('last7');
      };
      requestAnimationFrame(watch);
      choose('last30');
    });
    await expect.poll(() => asked).toBe(2);
    // Time enough for the first answer's breakdowns, one a frame.
    await page.evaluate(() => new Promise<void>((resolve) => {
      let frames = 0;
      const count = () => (++frames > 8 ? resolve() : requestAnimationFrame(count));
      requestAnimationFrame(count);
    }));
  }

  it('when the reader changes the dates again while the breakdowns are still being drawn, then the page stays busy until the newer figures are in', async () => {
    const page = await onPhone('en');
    try {
      let letGo = () => {};
      const held = new Promise<void>((resolve) => (letGo = resolve));
      await changeTwiceWhileDrawing(page, async (route) => {
        await held;
        await route.continue();
      });
      expect(await page.getAttribute('#results', 'aria-busy')).toBe('true');
      letGo();
      await page.waitForFunction(() => new URL(window.location.href).searchParams.get('range') === 'last7');
      await figuresShown(page);
      expect(await page.textContent('#load-status')).toBe('Figures updated.');
    } finally {
      await page.close();
    }
  }, 60_000);

  it('when the newer figures fail while the earlier ones are still being drawn, then the page says they could not be loaded, not that they were updated', async () => {
    const page = await onPhone('en');
    try {
      await changeTwiceWhileDrawing(page, (route) => route.fulfill({ status: 500, json: { error: 'Internal error' } }));
      expect(await page.textContent('#load-status')).toBe('The figures could not be loaded.');
      expect(await page.isVisible('#state-card')).toBe(true);
      expect(await page.getAttribute('#results', 'aria-busy')).toBe('false');
    } finally {
      await page.close();
    }
  }, 60_000);

  it('when the Dashboard is printed before the reader scrolled, then every chart is drawn for the print', async () => {
    const page = await onPhone('ar');
    try {
      // Chart.js comes while the page is idle, though no chart is near yet.
      await page.waitForFunction(() => typeof (window as unknown as { Chart?: unknown }).Chart === 'function');
      expect(await drawnNow(page, '#results canvas')).toContain(false);
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      expect(await drawnNow(page, '#results canvas')).not.toContain(false);
    } finally {
      await page.close();
    }
  }, 60_000);

  it.each([['en', 1440], ['ar', 390]] as const)('when the server answers a change in percent (%s, %i px), then the Comparison page shows that value, never one worked out again from the totals', async (lang, width) => {
    const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
    try {
      // A rounding rule of the server's own: the page must show it as it comes.
      await page.route('**/api/dashboard/compare?*', async (route) => {
        const res = await route.fetch();
        const body = (await res.json()) as { metrics: { visitors: { change: number; changePct: number | null } } };
        body.metrics.visitors = { ...body.metrics.visitors, change: 4321, changePct: 12.3 };
        await route.fulfill({ response: res, json: body });
      });
      await page.goto(`${held.app.server.url}/dashboard/comparison?a=2024&b=2025`);
      await figuresShown(page);
      const pct = (await page.textContent('[data-kpi="changePct"]')) ?? '';
      const expected = new Intl.NumberFormat(lang, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(0.123);
      const bare = (text: string) => text.replace(/[\s\u061c\u200e\u200f\u2066-\u2069]/g, '');
      expect(bare(pct)).toContain(bare(expected));
      const change = (await page.textContent('[data-kpi="change"]')) ?? '';
      expect(bare(change)).toContain(bare(new Intl.NumberFormat(lang, { maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format(4321)));
    } finally {
      await page.close();
    }
  }, 60_000);
});
