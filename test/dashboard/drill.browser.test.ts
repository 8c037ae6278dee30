import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser, screenshot, seriousViolations } from '../support/browser';
import { browserAndFreshApp, chartsDrawn, figuresShown, servedWithVisits, signedInPage } from './browser-helpers';

const TODAY = Date.UTC(2026, 10, 25, 12);
/** Twelve museums, so the breakdown shows ten and "Other"; the second has an Arabic name. */
const MUSEUMS = ['National Museum', 'متحف الفن الإسلامي', ...Array.from({ length: 10 }, (_, i) => `Gallery ${String.fromCharCode(65 + i)}`)];
const CHANNELS = ['Online', 'Box office', 'Partner'];

/** Every day of 2025, each museum with its own size; a museum's later channels sell less. */
function dailyCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  for (let day = Date.UTC(2025, 0, 1); day < Date.UTC(2026, 0, 1); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    MUSEUMS.forEach((museum, m) => {
      CHANNELS.forEach((channel, c) => {
        const visitors = (MUSEUMS.length - m) * 10 + (3 - c) * 3 + ((day / 86_400_000) % 5);
        lines.push(`${date},${museum},${channel},Old Town,${visitors},${(visitors * (12 + m)).toFixed(2)}`);
      });
    });
  }
  return `${lines.join('\n')}\n`;
}

const setup = () => servedWithVisits(TODAY, dailyCsv());

/** The rows of a breakdown's table: each name and its visitors figure as shown. */
async function rowsOf(page: Page, breakdown: string) {
  return page.$$eval(`[data-breakdown="${breakdown}"] tbody tr`, (trs) =>
    trs.map((tr) => ({ name: tr.querySelector('th')?.textContent.replace(/,.*$/, '').trim() ?? '', visitors: tr.querySelector('td')?.textContent.trim() ?? '' })),
  );
}

const kpi = (page: Page, name: string) => page.textContent(`[data-kpi="${name}"]`);

describeBrowser('Drill-down, sorting and chart choices on /dashboard in a browser', () => {
  const held = browserAndFreshApp(setup);

  for (const lang of ['en', 'ar'] as const) {
    for (const width of [390, 1440]) {
      it(`when a museum row, then a month are drilled into and the breadcrumbs lead back (${lang}, ${width} px), then the figures are the clicked ones and the address keeps the path`, async () => {
        const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
        try {
          await page.goto(`${held.app.server.url}/dashboard?year=2025`);
          await figuresShown(page);
          // Ten museums and the other two summed.
          const museums = await rowsOf(page, 'byMuseum');
          expect(museums).toHaveLength(11);
          expect(museums[10].name).toMatch(lang === 'en' ? /^Other \(2\)$/ : /^أخرى \((2|٢)\)$/);
          const arabic = museums.find((r) => r.name === MUSEUMS[1])!;
          // Enter on the row's button drills, as a click would.
          await page.focus(`[data-breakdown="byMuseum"] tbody tr:nth-child(2) .drill-button`);
          await page.keyboard.press('Enter');
          await page.waitForURL(/drill=museum%3A/);
          await figuresShown(page);
          expect(await kpi(page, 'visitors')).toBe(arabic.visitors);
          expect(new URL(page.url()).searchParams.getAll('drill')).toEqual([`museum:${MUSEUMS[1]}`]);
          expect(await page.textContent('[data-filter="museum"] [data-filter-value]')).toBe(MUSEUMS[1]);
          expect(await page.$$eval('[data-crumbs] li', (lis) => lis.length)).toBe(2);

          // The trend is by month for a year; March's row narrows the dates to March, shown by day.
          await page.click('.trend-table summary');
          const march = await page.$eval('#trend-rows tr:nth-child(3)', (tr) => tr.querySelector('td')?.textContent.trim());
          await page.click('#trend-rows tr:nth-child(3) .drill-button');
          await page.waitForURL(/drill=range%3A2025-03-01\.\.2025-03-31/);
          await figuresShown(page);
          expect(await kpi(page, 'visitors')).toBe(march);
          expect(await page.$$eval('#trend-rows tr', (trs) => trs.length)).toBe(31);
          expect(await page.inputValue('[data-range-from]')).toBe('2025-03-01');
          const crumbs = await page.$$eval('[data-crumbs] li', (lis) => lis.map((li) => li.textContent.trim()));
          expect(crumbs).toHaveLength(3);
          expect(await page.getAttribute('[data-crumbs] li:last-child span', 'aria-current')).toBe('page');
          expect(await seriousViolations(page)).toEqual([]);
          await screenshot(page, `dashboard-drill-${lang}-${width}`);

          // The address reopens the same path.
          await page.reload();
          await figuresShown(page);
          expect(await kpi(page, 'visitors')).toBe(march);
          expect(await page.$$eval('[data-crumbs] li', (lis) => lis.length)).toBe(3);

          // Back one step by the breadcrumb, then Back in the browser returns to March.
          await page.click('[data-crumbs] li:nth-child(2) a');
          await page.waitForURL((url) => !url.search.includes('range%3A'));
          await figuresShown(page);
          expect(await kpi(page, 'visitors')).toBe(arabic.visitors);
          await page.goBack();
          await page.waitForURL(/range%3A/);
          await figuresShown(page);
          expect(await kpi(page, 'visitors')).toBe(march);

          // The first crumb is the reader's own selection, whole.
          await page.click('[data-crumbs] li:first-child a');
          await page.waitForURL((url) => !url.search.includes('drill'));
          await figuresShown(page);
          expect(await page.isHidden('[data-crumbs]')).toBe(true);
          expect(await page.textContent('[data-filter="museum"] [data-filter-value]')).toBe(lang === 'en' ? 'All' : 'الكل');
        } finally {
          await page.close();
        }
      }, 90_000);

      it(`when the tables are sorted and the chart choices are made (${lang}, ${width} px), then headers say the order, Other stays last, and the trend draws what is chosen`, async () => {
        const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
        try {
          await page.goto(`${held.app.server.url}/dashboard?year=2025`);
          await figuresShown(page);
          const header = '[data-breakdown="byMuseum"] th[data-sort="visitors"]';
          expect(await page.getAttribute(header, 'aria-sort')).toBe('descending');
          await page.focus(`${header} button`);
          await page.keyboard.press('Enter');
          expect(await page.getAttribute(header, 'aria-sort')).toBe('ascending');
          let rows = await rowsOf(page, 'byMuseum');
          expect(rows[0].name).toBe('Gallery H');
          expect(rows[10].name).toMatch(/\(/);
          await page.click('[data-breakdown="byMuseum"] th[data-sort="key"] button');
          expect(await page.getAttribute('[data-breakdown="byMuseum"] th[data-sort="key"]', 'aria-sort')).toBe('ascending');
          expect(await page.getAttribute(header, 'aria-sort')).toBeNull();
          await page.click('[data-breakdown="byMuseum"] [data-show-all]');
          rows = await rowsOf(page, 'byMuseum');
          expect(rows).toHaveLength(12);
          expect(await page.getAttribute('[data-breakdown="byMuseum"] [data-show-all]', 'aria-expanded')).toBe('true');

          // Revenue, and the same days a year earlier as a second line.
          await page.click('[data-metric] input[value="revenue"]', { force: true });
          await page.waitForURL(/metric=revenue/);
          await page.check('#trend-earlier');
          await page.waitForURL(/yearEarlier=1/);
          await figuresShown(page);
          await chartsDrawn(page, '#trend-chart');
          const drawn = await page.evaluate(() => {
            const chart = (window as unknown as { Chart: { getChart(c: Element | null): { data: { datasets: { label: string; data: number[] }[] } } } }).Chart.getChart(document.querySelector('#trend-chart'));
            return chart.data.datasets.map((d) => d.label);
          });
          expect(drawn).toEqual(lang === 'en' ? ['Revenue', 'Same days a year earlier'] : ['الإيرادات', 'الأيام نفسها قبل سنة']);
          expect(await page.isVisible('[data-average-choice]')).toBe(false);

          // By day, the 7-day average can be drawn; it starts on the seventh day.
          await page.selectOption('[data-range-granularity]', 'day');
          await page.waitForURL(/granularity=day/);
          await figuresShown(page);
          await page.check('#trend-average');
          await page.waitForURL(/average=1/);
          const average = await page.evaluate(() => {
            const chart = (window as unknown as { Chart: { getChart(c: Element | null): { data: { datasets: { data: (number | null)[] }[] } } } }).Chart.getChart(document.querySelector('#trend-chart'));
            return chart.data.datasets[2].data.slice(0, 8);
          });
          expect(average.slice(0, 6)).toEqual([null, null, null, null, null, null]);
          expect(typeof average[6]).toBe('number');
          expect(await seriousViolations(page)).toEqual([]);
          await screenshot(page, `dashboard-choices-${lang}-${width}`);
          await page.reload();
          await figuresShown(page);
          expect(await page.isChecked('#trend-earlier')).toBe(true);
          expect(await page.isChecked('#trend-average')).toBe(true);
          expect(await page.isChecked('[data-metric] input[value="revenue"]')).toBe(true);
        } finally {
          await page.close();
        }
      }, 90_000);
    }
  }

  it('when a bar of the chart is clicked, then it drills as its row does; "Other" does not', async () => {
    const page = await signedInPage(held.browser, held.app.server.url, { width: 1440, lang: 'en' });
    try {
      await page.goto(`${held.app.server.url}/dashboard?year=2025`);
      await figuresShown(page);
      await chartsDrawn(page, '[data-breakdown="byMuseum"] canvas');
      const point = async (index: number) =>
        page.evaluate((i) => {
          const canvas = document.querySelector('[data-breakdown="byMuseum"] canvas')!;
          canvas.scrollIntoView({ block: 'center' });
          const chart = (window as unknown as { Chart: { getChart(c: Element): { getDatasetMeta(n: number): { data: { getCenterPoint(): { x: number; y: number } }[] } } } }).Chart.getChart(canvas);
          const { x, y } = chart.getDatasetMeta(0).data[i].getCenterPoint();
          const box = canvas.getBoundingClientRect();
          return { x: box.left + x, y: box.top + y };
        }, index);
      const other = await point(10);
      await page.mouse.click(other.x, other.y);
      expect(page.url()).not.toContain('drill=');
      const first = await point(0);
      await page.mouse.click(first.x, first.y);
      await page.waitForURL(/drill=museum%3ANational/);
      await figuresShown(page);
      expect(await page.textContent('[data-filter="museum"] [data-filter-value]')).toBe('National Museum');
    } finally {
      await page.close();
    }
  }, 60_000);
});
