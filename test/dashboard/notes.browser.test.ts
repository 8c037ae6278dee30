import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { request } from '../support/http';
import { buildApp, cookieFrom } from '../support/app';
import { describeBrowser, screenshot, serve, seriousViolations } from '../support/browser';
import { ADMIN_PIN, browserAndFreshApp, chartsDrawn, figuresShown, importVisits, signedInPage } from './browser-helpers';

const TODAY = Date.UTC(2026, 10, 25, 12);
const VIEWER_PIN = '13572468';
const ARABIC = 'متحف الفن';

function dailyCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  for (let day = Date.UTC(2025, 0, 1); day < Date.UTC(2025, 3, 1); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    lines.push(`${date},National Museum,Online,Old Town,50,500`);
    lines.push(`${date},${ARABIC},Box office,Old Town,30,600`);
  }
  return `${lines.join('\n')}\n`;
}

async function setup() {
  const built = await buildApp();
  built.clock.set(TODAY);
  await importVisits(built.app, dailyCsv());
  const login = await request(built.app).post('/auth/login').send({ pin: ADMIN_PIN });
  const cookie = `service_session=${cookieFrom(login, 'service_session')}`;
  const send = (path: string, body: object) => request(built.app).post(path).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send(body);
  await send('/api/users', { name: 'Salma', pin: VIEWER_PIN, role: 'viewer', allowedMuseums: [ARABIC] });
  await send('/api/dashboard/annotations', { date: '2025-02-14', text: 'National Museum closed for a gala', museum: 'National Museum' });
  return { ...built, server: await serve(built.app) };
}

const pins = (page: Page) => page.$$eval('[data-marks] .trend-mark', (nodes) => nodes.map((n) => n.getAttribute('aria-label')));

describeBrowser('Notes on the trend in a browser', () => {
  const held = browserAndFreshApp(setup);

  for (const lang of ['en', 'ar'] as const) {
    for (const width of [390, 1440]) {
      it(`when an administrator adds a note over several days (${lang}, ${width} px), then it is marked on the trend, its text shows on focus and hover, and a viewer reads only notes of museums they may see`, async () => {
        const base = held.app.server.url;
        const admin = await signedInPage(held.browser, base, { width, lang });
        try {
          await admin.goto(`${base}/dashboard?year=2025&granularity=week`);
          await figuresShown(admin);
          // On a phone the trend, and its marks, are drawn as the reader scrolls near them.
          await chartsDrawn(admin, '#trend-chart');
          await admin.waitForSelector('[data-marks] .trend-mark');
          expect(await pins(admin)).toHaveLength(1);
          await admin.click('[data-note-add]');
          await admin.fill('dialog[open] input[name="date"]', '2025-03-03');
          await admin.fill('dialog[open] input[name="endDate"]', '2025-03-01');
          await admin.fill('dialog[open] input[name="text"]', 'Ramadan hours');
          await admin.click('dialog[open] button[type="submit"]');
          // The end before the start is refused beside its field, and the dialog stays.
          await admin.waitForSelector('dialog[open] [aria-invalid="true"]');
          await admin.fill('dialog[open] input[name="endDate"]', '2025-03-09');
          await admin.selectOption('dialog[open] select[name="museum"]', ARABIC);
          await admin.click('dialog[open] button[type="submit"]');
          await admin.waitForSelector('dialog[open]', { state: 'detached' });
          await admin.waitForFunction(() => document.querySelectorAll('[data-marks] .trend-mark').length === 2);
          expect(await admin.$$eval('[data-notes-list] li', (lis) => lis.length)).toBe(2);

          // Focus shows the note's text; Escape hides it again.
          const mark = admin.locator('[data-marks] .trend-mark').nth(1);
          await mark.focus();
          const tip = admin.locator('[data-marks] .trend-tip').nth(1);
          expect(await tip.isVisible()).toBe(true);
          expect(await tip.textContent()).toContain('Ramadan hours');
          await admin.keyboard.press('Escape');
          expect(await tip.isVisible()).toBe(false);
          await admin.locator('[data-marks] .trend-mark').nth(0).hover();
          expect(await admin.locator('[data-marks] .trend-tip').nth(0).isVisible()).toBe(true);
          expect(await seriousViolations(admin)).toEqual([]);
          await screenshot(admin, `dashboard-notes-admin-${lang}-${width}`);

          // Edit and delete from the list, through the modal.
          await admin.click('[data-notes-list] li:nth-child(2) [data-note-edit]');
          await admin.fill('dialog[open] input[name="text"]', 'Ramadan opening hours');
          await admin.click('dialog[open] button[type="submit"]');
          await admin.waitForSelector('dialog[open]', { state: 'detached' });
          await admin.waitForFunction(() => document.querySelector('[data-notes-list] li:nth-child(2)')?.textContent.includes('Ramadan opening hours'));
          await admin.click('[data-notes-list] li:nth-child(1) [data-note-delete]');
          expect(await admin.getAttribute('dialog[open] button[type="submit"]', 'class')).toMatch(/danger/);
          await admin.click('dialog[open] button[type="submit"]');
          await admin.waitForFunction(() => document.querySelectorAll('[data-notes-list] li').length === 1);
          await admin.click('[data-note-add]');
          await admin.fill('dialog[open] input[name="date"]', '2025-01-20');
          await admin.fill('dialog[open] input[name="text"]', 'National Museum refit');
          await admin.selectOption('dialog[open] select[name="museum"]', 'National Museum');
          await admin.click('dialog[open] button[type="submit"]');
          await admin.waitForFunction(() => document.querySelectorAll('[data-notes-list] li').length === 2);
        } finally {
          await admin.close();
        }

        const viewer = await signedInPage(held.browser, base, { width, lang, pin: VIEWER_PIN });
        try {
          await viewer.goto(`${base}/dashboard?year=2025&granularity=week`);
          await figuresShown(viewer);
          // On a phone the trend, and its marks, are drawn as the reader scrolls near them.
          await chartsDrawn(viewer, '#trend-chart');
          await viewer.waitForSelector('[data-marks] .trend-mark');
          const texts = await viewer.$$eval('[data-notes-list] li', (lis) => lis.map((li) => li.textContent));
          expect(texts).toEqual([expect.stringContaining('Ramadan opening hours')]);
          expect(await viewer.isHidden('[data-note-add]')).toBe(true);
          expect(await viewer.$$eval('[data-note-edit], [data-note-delete]', (b) => b.length)).toBe(0);
          expect(await seriousViolations(viewer)).toEqual([]);
        } finally {
          await viewer.close();
        }
      }, 120_000);
    }
  }
});
