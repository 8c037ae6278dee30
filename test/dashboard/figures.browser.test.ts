import { expect, it } from 'vitest';
import { request } from '../support/http';
import { buildApp, cookieFrom } from '../support/app';
import { describeBrowser, screenshot, serve, seriousViolations } from '../support/browser';
import { ADMIN_PIN, browserAndFreshApp, figuresShown, importVisits, signedInPage } from './browser-helpers';

const TODAY = Date.UTC(2026, 10, 25, 12);

/** Two museums, one Arabic-named, every day of 2025 and 2026 to yesterday; revenue differs from visitors' order. */
function dailyCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  for (let day = Date.UTC(2025, 0, 1); day < Date.UTC(2026, 10, 25); day += 86_400_000) {
    const date = new Date(day).toISOString().slice(0, 10);
    lines.push(`${date},National Museum,Online,Old Town,${date.startsWith('2026') ? 60 : 50},${date.startsWith('2026') ? 300 : 250}`);
    lines.push(`${date},متحف الفن,Box office,Old Town,${date.startsWith('2026') ? 40 : 45},${date.startsWith('2026') ? 2000 : 1800}`);
  }
  return `${lines.join('\n')}\n`;
}

async function setup() {
  const built = await buildApp();
  built.clock.set(TODAY);
  await importVisits(built.app, dailyCsv());
  const login = await request(built.app).post('/auth/login').send({ pin: ADMIN_PIN });
  const cookie = `service_session=${cookieFrom(login, 'service_session')}`;
  const send = (method: 'post' | 'patch', path: string, body: object) => request(built.app)[method](path).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send(body);
  const seasons = [
    (await send('post', '/api/seasons', { name: 'Spring 2026', startDate: '2026-03-01', endDate: '2026-03-31' })).body.season,
    (await send('post', '/api/seasons', { name: 'Autumn 2026', startDate: '2026-10-01', endDate: '2026-10-31' })).body.season,
  ];
  const user = (await send('post', '/api/users', { name: 'Salma', pin: '24681357', role: 'viewer', allowedMuseums: ['National Museum', 'متحف الفن'] })).body.user;
  await send('patch', `/api/users/${user.id}`, { allowedMuseums: ['متحف الفن'] });
  return { ...built, seasons, server: await serve(built.app) };
}

describeBrowser('figures that no longer mislead, in a browser', () => {
  const held = browserAndFreshApp(setup);

  for (const lang of ['en', 'ar'] as const) {
    for (const width of [390, 1440]) {
      it(`when two seasons apart are chosen (${lang}, ${width} px), then the change card says it compares with the same days a year earlier`, async () => {
        const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
        try {
          const [spring, autumn] = held.app.seasons;
          await page.goto(`${held.app.server.url}/dashboard?season=${spring.id}&season=${autumn.id}`);
          await figuresShown(page);
          expect(await page.textContent('[data-kpi-label="change"]')).toBe(lang === 'en' ? 'Change vs a year earlier' : 'التغيّر عن العام السابق');
          expect(await page.textContent('[data-kpi-note="change"]')).toMatch(lang === 'en' ? /^Against the same days a year earlier: / : /^مقارنة بالأيام نفسها قبل سنة: /);
          // 61 days of 100 visitors against 61 of 95: +5.3 %.
          expect(await page.textContent('[data-kpi="change"] bdi')).toMatch(lang === 'en' ? /^\+5\.3%$/ : /5\.3|٥٫٣/);
          await page.goto(`${held.app.server.url}/dashboard?season=${spring.id}`);
          await figuresShown(page);
          expect(await page.textContent('[data-kpi-label="change"]')).toBe(lang === 'en' ? 'Change vs previous period' : 'التغيّر عن الفترة السابقة');
          expect(await seriousViolations(page)).toEqual([]);
        } finally {
          await page.close();
        }
      });

      it(`when the comparison shows revenue (${lang}, ${width} px), then each museum's row gives its money on both sides, and the address keeps the choice`, async () => {
        const page = await signedInPage(held.browser, held.app.server.url, { width, lang });
        try {
          await page.goto(`${held.app.server.url}/dashboard/comparison?a=2025&b=2026`);
          await figuresShown(page);
          await page.click('[data-metric] input[value="revenue"]', { force: true });
          await page.waitForURL(/metric=revenue/);
          const row = await page.$$eval('[data-breakdown="byMuseum"] tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
          // The Arabic-named museum earns more, so it leads when revenue is shown.
          expect(row[0][0]).toBe('متحف الفن');
          expect(row[0][1]).toMatch(lang === 'en' ? /QAR\s*657,000/ : /ر\.ق\./);
          expect(await page.textContent('[data-breakdown="byMuseum"] [data-chart-note]')).toBe(lang === 'en' ? 'Revenue in each period' : 'الإيرادات في كل فترة');
          await page.reload();
          await figuresShown(page);
          expect(await page.isChecked('[data-metric] input[value="revenue"]')).toBe(true);
          expect(await seriousViolations(page)).toEqual([]);
          await screenshot(page, `dashboard-compare-revenue-${lang}-${width}`);
        } finally {
          await page.close();
        }
      });
    }
  }

  it('when the audit trail shows a changed list of museums in Arabic, then each name is isolated on its own', async () => {
    const page = await signedInPage(held.browser, held.app.server.url, { width: 1440, lang: 'ar' });
    try {
      await page.goto(`${held.app.server.url}/dashboard/settings`);
      await page.waitForSelector('#audit-rows tr');
      const names = await page.$$eval('#audit-rows .audit-change li bdi', (nodes) => nodes.map((n) => n.textContent));
      expect(names).toEqual(expect.arrayContaining(['National Museum', 'متحف الفن']));
      expect(names).not.toContain('National Museum، متحف الفن');
    } finally {
      await page.close();
    }
  });
});
