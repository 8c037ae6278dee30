import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { request } from '../support/http';
import { buildApp, cookieFrom } from '../support/app';
import { describeBrowser, screenshot, serve, seriousViolations } from '../support/browser';
import { ADMIN_PIN, browserAndFreshApp, figuresShown, importVisits, signedInPage } from './browser-helpers';

const TODAY = Date.UTC(2026, 10, 25, 12);
const VIEWER_PIN = '24681357';
const ARABIC = 'متحف الفن';

function dailyCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  for (let day = Date.UTC(2025, 0, 1); day < Date.UTC(2026, 10, 25); day += 86_400_000) {
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
  await request(built.app).post('/api/users').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send({ name: 'Salma', pin: VIEWER_PIN, role: 'viewer', allowedMuseums: [ARABIC] });
  return { ...built, server: await serve(built.app) };
}

const said = {
  en: { save: 'Save as a new view…', everyone: 'Everyone who uses the dashboard', unseen: /names a museum or channel your account does not include/, changed: '(changed)' },
  ar: { save: 'حفظ كعرض جديد…', everyone: 'كل من يستخدم لوحة المعلومات', unseen: /لا يشملها حسابك/, changed: '(معدّل)' },
} as const;

/** Saves what the page shows as a view through the Views menu and its modal. */
async function saveView(page: Page, name: string, everyone: boolean) {
  await page.click('[data-views] summary');
  await page.click('[data-view-save]');
  await page.fill('dialog[open] input[name="name"]', name);
  await page.selectOption('dialog[open] select[name="shared"]', everyone ? 'yes' : 'no');
  await page.click('dialog[open] button[type="submit"]');
  await page.waitForURL(/[?&]view=\d+/);
  await figuresShown(page);
}

describeBrowser('Saved views on the Dashboard and Comparison pages in a browser', () => {
  const held = browserAndFreshApp(setup);

  for (const lang of ['en', 'ar'] as const) {
    for (const width of [390, 1440]) {
      it(`when an administrator shares a view of a museum a viewer may not see (${lang}, ${width} px), then the viewer finds it, and opening it shows them nothing of that museum`, async () => {
        const base = held.app.server.url;
        const admin = await signedInPage(held.browser, base, { width, lang });
        try {
          await admin.goto(`${base}/dashboard?year=2025&museum=National+Museum`);
          await figuresShown(admin);
          const adminVisitors = await admin.textContent('[data-kpi="visitors"]');
          expect(await admin.textContent('[data-views] summary')).toContain(lang === 'en' ? 'Unsaved' : 'غير محفوظ');
          await admin.click('[data-views] summary');
          expect(await admin.textContent('[data-view-save]')).toBe(said[lang].save);
          expect(await seriousViolations(admin)).toEqual([]);
          await admin.click('[data-views] summary');
          await saveView(admin, 'National 2025', true);
          expect(await admin.textContent('[data-view-current]')).toBe('National 2025');
          expect(await admin.textContent('[data-kpi="visitors"]')).toBe(adminVisitors);

          // A change is offered to be saved over the view.
          await admin.selectOption('[data-range-granularity]', 'week');
          await figuresShown(admin);
          expect(await admin.textContent('[data-view-current]')).toContain(said[lang].changed);
          await admin.click('[data-views] summary');
          await admin.click('[data-view-update]');
          await admin.waitForURL(/[?&]view=\d+/);
          await figuresShown(admin);
          expect(await admin.textContent('[data-view-current]')).toBe('National 2025');
          await screenshot(admin, `dashboard-views-admin-${lang}-${width}`);
        } finally {
          await admin.close();
        }

        const viewer = await signedInPage(held.browser, base, { width, lang, pin: VIEWER_PIN });
        try {
          await viewer.click('[data-views] summary');
          const shared = await viewer.$$eval('[data-views-shared] li', (lis) => lis.map((li) => li.textContent.replace(/\s+/g, ' ').trim()));
          expect(shared).toEqual([expect.stringMatching(/^National 2025.*Admin$/)]);
          expect(await viewer.isHidden('[data-view-edit]')).toBe(true);
          await Promise.all([viewer.waitForURL(/[?&]view=\d+/), viewer.click('[data-views-shared] a')]);
          await viewer.waitForSelector('#state-card:not([hidden])');
          expect(await viewer.isVisible('#view-notice')).toBe(true);
          expect(await viewer.textContent('#view-notice')).toMatch(said[lang].unseen);
          expect(await viewer.textContent('[data-view-current]')).toBe('National 2025');
          // The Views menu offers no change of someone else's view.
          await viewer.click('[data-views] summary');
          expect(await viewer.isHidden('[data-view-update]')).toBe(true);
          expect(await viewer.isHidden('[data-view-delete]')).toBe(true);
          expect(await seriousViolations(viewer)).toEqual([]);
          await screenshot(viewer, `dashboard-views-viewer-${lang}-${width}`);
        } finally {
          await viewer.close();
        }
      }, 90_000);

      it(`when a comparison is saved, renamed and deleted (${lang}, ${width} px), then its link reopens it and the red modal removes it`, async () => {
        const base = held.app.server.url;
        const page = await signedInPage(held.browser, base, { width, lang });
        try {
          await page.goto(`${base}/dashboard/comparison?a=2025&b=2026&metric=revenue`);
          await figuresShown(page);
          await saveView(page, 'Years, by revenue', false);
          const id = new URL(page.url()).searchParams.get('view');
          await page.goto(`${base}/dashboard/comparison`);
          await figuresShown(page);
          await page.click('[data-views] summary');
          await Promise.all([page.waitForURL(new RegExp(`view=${id}`)), page.click('[data-views-mine] a')]);
          await figuresShown(page);
          expect(await page.inputValue('#side-a')).toBe('2025');
          expect(await page.isChecked('[data-metric] input[value="revenue"]')).toBe(true);

          await page.click('[data-views] summary');
          await page.click('[data-view-edit]');
          await page.fill('dialog[open] input[name="name"]', 'Revenue, 2025 against 2026');
          await page.selectOption('dialog[open] select[name="shared"]', 'yes');
          await page.click('dialog[open] button[type="submit"]');
          await page.waitForSelector('dialog[open]', { state: 'detached' });
          expect(await page.textContent('[data-view-current]')).toBe('Revenue, 2025 against 2026');

          await page.click('[data-views] summary');
          await page.click('[data-view-delete]');
          expect(await page.getAttribute('dialog[open] button[type="submit"]', 'class')).toMatch(/danger/);
          expect(await seriousViolations(page)).toEqual([]);
          await page.click('dialog[open] button[type="submit"]');
          await page.waitForSelector('dialog[open]', { state: 'detached' });
          await page.click('[data-views] summary');
          expect(await page.$$eval('[data-views-mine] a', (links) => links.length)).toBe(0);
        } finally {
          await page.close();
        }
      }, 90_000);
    }
  }
});
