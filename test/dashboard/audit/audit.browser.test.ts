import { expect, it } from 'vitest';
import { KyselyAuditRepository } from '../../../src/dashboard/audit/repository';
import { request } from '../../support/http';
import { buildApp, cookieFrom } from '../../support/app';
import { describeBrowser, screenshot, serve, seriousViolations } from '../../support/browser';
import { ADMIN_PIN, browserAndFreshApp, signedInPage } from '../browser-helpers';


/** An administrator's day: a user added, changed, given a new PIN and deleted, a season moved, a PIN mistyped. */
async function setup() {
  const built = await buildApp();
  // An event from before names were kept: it can only say which record it was.
  await new KyselyAuditRepository(built.stores.records.dashboard).add({ at: built.clock.now() - 86_400_000, actor: 'Admin', action: 'userDeleted', target: 'user:77', ip: '127.0.0.1' });
  const login = await request(built.app).post('/auth/login').send({ pin: ADMIN_PIN });
  const cookie = `service_session=${cookieFrom(login, 'service_session')}`;
  const send = (method: 'post' | 'patch' | 'delete', path: string, body?: object) =>
    request(built.app)[method](path).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send(body);
  const user = (await send('post', '/api/users', { name: 'Huda Salem', pin: '24681357', role: 'viewer' })).body.user;
  await send('patch', `/api/users/${user.id}`, { role: 'admin' });
  expect((await send('post', `/api/users/${user.id}/pin`, { pin: '86420975' })).status).toBe(200);
  const season = (await send('post', '/api/seasons', { name: 'Summer 2025', startDate: '2025-06-01', endDate: '2025-08-31' })).body.season;
  await send('patch', `/api/seasons/${season.id}`, { endDate: '2025-09-07' });
  await send('delete', `/api/users/${user.id}`);
  await request(built.app).post('/auth/login').send({ pin: '11112222' });
  return { ...built, server: await serve(built.app) };
}

describeBrowser('the audit trail in Settings in a browser', () => {
  const held = browserAndFreshApp(setup);

  const said = {
    en: { newPin: 'New PIN: Chosen by the administrator', role: 'Role: Viewer to Administrator', anonymous: 'Not signed in', oldUser: 'User #77' },
    ar: { newPin: 'الرمز السري الجديد: اختاره المسؤول', role: 'الدور: مشاهد إلى مسؤول', anonymous: 'غير مسجّل الدخول', oldUser: /المستخدم رقم (77|٧٧)/ },
  } as const;

  for (const lang of ['en', 'ar'] as const) {
    for (const width of [390, 1440]) {
      it(`when an administrator reads the trail (${lang}, ${width} px), then users and seasons go by name, codes and days are in the page's language, and nothing scrolls sideways`, async () => {
        const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
        try {
          await page.goto(`${held.app.server.url}/dashboard/settings`);
          await page.waitForSelector('#audit-rows tr');
          const rows = await page.$$eval('#audit-rows tr', (trs) => trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ')));
          const text = rows.join('\n');
          expect(text).not.toMatch(/\b(user|season):\d/);
          expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
          expect(text).not.toMatch(/anonymous|viewer|chosen/);
          expect(text).toContain('Huda Salem');
          expect(text).toContain('Summer 2025');
          expect(text).toContain(said[lang].newPin);
          expect(text).toContain(said[lang].role);
          expect(text).toContain(said[lang].anonymous);
          expect(text).toMatch(said[lang].oldUser);
          expect(text).not.toContain('86420975');
          // A change is read "before to after", and shown with an arrow drawn along the reading direction.
          const arrow = page.locator('#audit-rows .arrow-mark').first();
          expect(await arrow.getAttribute('aria-hidden')).toBe('true');
          expect(await arrow.evaluate((node) => getComputedStyle(node).transform)).toBe(lang === 'ar' ? 'matrix(-1, 0, 0, 1, 0, 0)' : 'none');

          const layout = await page.evaluate(() => {
            const wrap = document.querySelector('#audit .table-wrap') as HTMLElement;
            const box = (selector: string) => {
              const { width, height } = document.querySelector(selector)!.getBoundingClientRect();
              return [Math.round(width), Math.round(height)];
            };
            return {
              page: document.documentElement.scrollWidth,
              wrapOverflows: wrap.scrollWidth > wrap.clientWidth,
              headerShown: (document.querySelector('#audit thead') as HTMLElement).offsetHeight > 1,
              action: box('#audit-action'),
              actor: box('#audit-actor'),
            };
          });
          expect(layout.page, 'the page scrolls sideways').toBe(width);
          expect(layout.wrapOverflows, 'the audit list scrolls sideways').toBe(false);
          expect(layout.action, 'the Action select and the Who field differ in size').toEqual(layout.actor);
          // The wide table stays where there is room; a narrow screen gets a card per event.
          expect(layout.headerShown).toBe(width > 600);
          expect(await seriousViolations(page)).toEqual([]);
          await screenshot(page, `dashboard-settings-audit-names-${lang}-${width}`);
        } finally {
          await page.close();
        }
      }, 90_000);
    }
  }

  it('when the trail is filtered to PIN resets, then the export link carries the filter', async () => {
    const page = await signedInPage(held.browser, held.app.server.url, { width: 1440, lang: 'en' });
    try {
      await page.goto(`${held.app.server.url}/dashboard/settings`);
      await page.waitForSelector('#audit-rows tr');
      await page.selectOption('#audit-action', 'pinReset');
      await page.click('#audit-filters button[type="submit"]');
      await page.waitForFunction(() => document.querySelectorAll('#audit-rows tr').length === 1);
      expect(await page.textContent('#audit-rows .audit-action')).toBe('PIN reset');
      expect(await page.getAttribute('#audit-export', 'href')).toBe('/api/audit/export.csv?action=pinReset');
    } finally {
      await page.close();
    }
  }, 90_000);
});
