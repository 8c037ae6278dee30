import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { buildApp, cookieFrom } from '../support/app';
import { describeBrowser, screenshot, serve, seriousViolations } from '../support/browser';
import { request } from '../support/http';
import { createI18n } from '../../src/platform/i18n';
import { ADMIN_PIN, browserAndFreshApp, figuresShown, importVisits, signedInPage } from './browser-helpers';

const i18n = createI18n();
const say = (lang: string, key: string) => i18n.getFixedT(lang)(`dashboard.${key}`);

/** A week of visits at one museum from `from`, `visitors` a day. */
function weekCsv(from: string, visitors: number): string {
  const start = Date.parse(`${from}T00:00:00Z`);
  const rows = Array.from({ length: 7 }, (_, i) => `${new Date(start + i * 86_400_000).toISOString().slice(0, 10)},National Museum,Online,Old Town,${visitors},${visitors * 40}`);
  return `date,museum,channel,district,visitors,revenue\n${rows.join('\n')}\n`;
}

async function setup() {
  const built = await buildApp();
  await importVisits(built.app, weekCsv('2025-03-01', 100));
  return { ...built, server: await serve(built.app) };
}

/** Opens `path` and waits for its figures and its live stream. */
async function openLive(page: Page, url: string) {
  const streaming = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/dashboard/events');
  await page.goto(url);
  expect((await streaming).status()).toBe(200);
  await figuresShown(page);
}

const COMBINATIONS = (['en', 'ar'] as const).flatMap((lang) => [390, 1440].map((width) => [lang, width] as const));

describeBrowser('New figures offered to open Dashboard and Comparison pages', () => {
  const held = browserAndFreshApp(setup);

  it.each(COMBINATIONS)(
    'when visits are imported while the Dashboard is open (%s, %i px), then a polite notice offers them, and its button reloads the figures in place',
    async (lang, width) => {
      const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
      try {
        await openLive(page, `${held.app.server.url}/dashboard?from=2025-03-01&to=2025-03-31`);
        const visitors = page.locator('[data-kpi="visitors"]');
        const before = await visitors.textContent();
        const notice = page.locator('[data-new-figures]');
        // A mark on this document: a reload would lose it.
        await page.evaluate(() => document.documentElement.setAttribute('data-test-loaded', 'once'));
        expect(await notice.textContent()).toBe('');

        await importVisits(held.app.app, weekCsv('2025-03-10', 50));
        const refresh = notice.getByRole('button', { name: say(lang, 'live.refresh') });
        await refresh.waitFor();
        expect(await notice.getAttribute('role')).toBe('status');
        expect(await notice.textContent()).toContain(say(lang, 'live.newFigures'));
        // Nothing changes under the reader until they ask.
        expect(await visitors.textContent()).toBe(before);
        expect(await seriousViolations(page), 'axe with the notice').toEqual([]);
        await screenshot(page, `dashboard-live-notice-${lang}-${width}`);

        await refresh.click();
        await expect.poll(() => visitors.textContent()).not.toBe(before);
        await figuresShown(page);
        expect(await notice.textContent()).toBe('');
        expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
        expect(await page.getAttribute('html', 'data-test-loaded')).toBe('once');
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  it('when a season is added while the Comparison page is open, then it offers the new figures too', async () => {
    const page = await signedInPage(held.browser, held.app.server.url, { width: 1440, lang: 'en' });
    try {
      await openLive(page, `${held.app.server.url}/dashboard/comparison?against=previous&from=2025-03-01&to=2025-03-31`);
      const login = await request(held.app.app).post('/auth/login').send({ pin: ADMIN_PIN });
      const season = await request(held.app.app)
        .post('/api/seasons')
        .set('Cookie', `service_session=${cookieFrom(login, 'service_session')}`)
        .set('Sec-Fetch-Site', 'same-origin')
        .send({ name: 'Spring 2025', startDate: '2025-03-01', endDate: '2025-05-31' });
      expect(season.status).toBe(201);
      await page.locator('[data-new-figures]').getByRole('button', { name: 'Refresh' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'dashboard-live-comparison-en-1440');
    } finally {
      await page.close();
    }
  }, 60_000);

  /** Adds a season as the administrator, through the route Settings uses. */
  async function addSeason(name: string) {
    const login = await request(held.app.app).post('/auth/login').send({ pin: ADMIN_PIN });
    const season = await request(held.app.app)
      .post('/api/seasons')
      .set('Cookie', `service_session=${cookieFrom(login, 'service_session')}`)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ name, startDate: '2025-03-01', endDate: '2025-05-31' });
    expect(season.status).toBe(201);
  }

  const seasonOptions = (page: Page) => page.$$eval('details[data-filter="season"] [data-filter-options] input', (boxes) => boxes.map((b) => (b.closest('label')?.textContent ?? '').trim()));

  it.each(COMBINATIONS)(
    'when a season is added while the Dashboard is open (%s, %i px) and the reader refreshes, then the season filter offers it, and the filters chosen stay',
    async (lang, width) => {
      const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
      try {
        await openLive(page, `${held.app.server.url}/dashboard?channel=Online&from=2025-03-01&to=2025-03-31`);
        expect(await seasonOptions(page)).toEqual([]);
        await addSeason('Spring 2025');
        const refresh = page.locator('[data-new-figures]').getByRole('button', { name: say(lang, 'live.refresh') });
        await refresh.click();
        await page.waitForFunction(() => document.querySelectorAll('details[data-filter="season"] [data-filter-options] input').length === 1);
        expect((await seasonOptions(page))[0]).toContain('Spring 2025');
        expect(await page.isChecked('details[data-filter="channel"] input[value="Online"]')).toBe(true);
        expect(new URL(page.url()).searchParams.getAll('channel')).toEqual(['Online']);
        // The new season is a filter like the others.
        await page.click('details[data-filter="season"] summary');
        await page.check('details[data-filter="season"] [data-filter-options] input');
        await page.waitForFunction(() => new URL(window.location.href).searchParams.has('season'));
        await figuresShown(page);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `dashboard-live-season-${lang}-${width}`);
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  it.each([['en', 1440], ['ar', 390]] as const)('when a season is added while the Comparison page is open (%s, %i px) and the reader refreshes, then both sides offer it', async (lang, width) => {
    const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
    try {
      await openLive(page, `${held.app.server.url}/dashboard/comparison?a=2025&b=2025`);
      await addSeason('Spring 2025');
      await page.locator('[data-new-figures]').getByRole('button', { name: say(lang, 'live.refresh') }).click();
      // The Comparison page offers seasons as the sides compared; the sides chosen stay.
      await page.waitForFunction(() => document.querySelectorAll('#side-a option[value^="season:"]').length === 1);
      for (const side of ['a', 'b']) {
        const options = await page.$$eval(`#side-${side} option`, (list) => list.map((o) => o.textContent));
        expect(options).toContain('Spring 2025');
        expect(await page.inputValue(`#side-${side}`)).toBe('2025');
      }
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);
});
