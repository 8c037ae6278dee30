import { expect, it } from 'vitest';
import { request } from '../support/http';
import { buildApp, cookieFrom } from '../support/app';
import { describeBrowser, screenshot, serve, seriousViolations } from '../support/browser';
import { dashboardMailFor } from '../support/mail';
import { ADMIN_PIN, browserAndFreshApp, figuresShown, importVisits, signedInPage } from './browser-helpers';

/** Thursday 27 November 2025, noon in Doha. */
const TODAY = Date.UTC(2025, 10, 27, 9);
const VIEWER_PIN = '24681357';
const ARABIC = 'متحف الفن';

function dailyCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  for (let day = Date.UTC(2025, 9, 1); day < Date.UTC(2025, 10, 27); day += 86_400_000) {
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
  await request(built.app)
    .post('/api/users')
    .set('Cookie', cookie)
    .set('Sec-Fetch-Site', 'same-origin')
    .send({ name: 'سلمى', pin: VIEWER_PIN, role: 'viewer', allowedMuseums: [ARABIC], email: 'salma@museum.test' });
  return { ...built, server: await serve(built.app) };
}

describeBrowser('Scheduled reports in a browser', () => {
  const held = browserAndFreshApp(setup);

  for (const lang of ['en', 'ar'] as const) {
    for (const width of [390, 1440]) {
      it(`when an administrator schedules the page for a viewer and sends it now (${lang}, ${width} px), then it is listed, the mail holds only what the viewer may see, and the viewer manages it too`, async () => {
        const base = held.app.server.url;
        const mail = await dashboardMailFor(held.app);
        const admin = await signedInPage(held.browser, base, { width, lang });
        try {
          await admin.goto(`${base}/dashboard?range=last30`);
          await figuresShown(admin);
          await admin.waitForSelector('[data-reports-empty]:not([hidden])');
          await admin.click('[data-report-add]');
          await admin.selectOption('dialog[open] select[name="frequency"]', 'monthly');
          await admin.selectOption('dialog[open] select[name="language"]', lang);
          expect(await admin.$$eval('dialog[open] select[name="userId"] option', (options) => options.map((o) => o.textContent))).toEqual(['سلمى <salma@museum.test>']);
          await admin.click('dialog[open] button[type="submit"]');
          await admin.waitForSelector('dialog[open]', { state: 'detached' });
          await admin.waitForSelector('[data-reports-list] li');
          expect(await admin.textContent('[data-reports-status]')).toMatch(lang === 'en' ? /Dec 1, 2025/ : /\S/);
          expect(await admin.textContent('[data-reports-list] li')).toContain('salma@museum.test');

          await admin.click('[data-reports-list] li .button-ghost');
          await admin.waitForFunction(() => document.querySelector('[data-reports-status]')?.textContent.includes('salma@museum.test'));
          expect(await seriousViolations(admin)).toEqual([]);
          await screenshot(admin, `dashboard-reports-admin-${lang}-${width}`);

          const [received] = await mail.deliver();
          expect(received.to).toEqual(['salma@museum.test']);
          const csv = received.parsed.attachments[0].content.toString('utf8');
          expect(csv).toContain(ARABIC);
          expect(csv).not.toContain('National Museum');
          // The mail as a mail program shows it.
          const reader = await held.browser.newPage({ viewport: { width, height: 900 } });
          await reader.setContent(String(received.parsed.html));
          expect(await reader.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
          await screenshot(reader, `dashboard-report-mail-${lang}-${width}`);
          await reader.close();

          // The viewer sees the report scheduled for her, sends it, and deletes it.
          const viewer = await signedInPage(held.browser, base, { width, lang, pin: VIEWER_PIN });
          try {
            await figuresShown(viewer);
            await viewer.waitForSelector('[data-reports-list] li');
            await viewer.click('[data-reports-list] li .button-danger-quiet');
            await viewer.click('dialog[open] button[type="submit"]');
            await viewer.waitForSelector('[data-reports-empty]:not([hidden])');
            expect(await seriousViolations(viewer)).toEqual([]);
            await screenshot(viewer, `dashboard-reports-viewer-${lang}-${width}`);
          } finally {
            await viewer.close();
          }
        } finally {
          await admin.close();
        }
      }, 90_000);
    }
  }

  it('when a viewer without an e-mail address schedules a report, then the dialog says an administrator must add one, and nothing is saved', async () => {
    const base = held.app.server.url;
    const login = await request(held.app.app).post('/auth/login').send({ pin: ADMIN_PIN });
    const cookie = `service_session=${cookieFrom(login, 'service_session')}`;
    await request(held.app.app).post('/api/users').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send({ name: 'Omar', pin: '11223344', role: 'viewer' });
    const page = await signedInPage(held.browser, base, { width: 1440, lang: 'en', pin: '11223344' });
    try {
      await figuresShown(page);
      await page.click('[data-report-add]');
      expect(await page.$('dialog[open] select[name="userId"]')).toBeNull();
      await page.click('dialog[open] button[type="submit"]');
      await page.waitForFunction(() => document.querySelector('dialog[open]')?.textContent.includes('administrator adds it in Settings'));
      await page.keyboard.press('Escape');
      await page.waitForSelector('[data-reports-empty]:not([hidden])');
    } finally {
      await page.close();
    }
  });
});
