import { request, type HttpTest } from '../support/http';
import { beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildApp, cookieFrom } from '../support/app';
import { describeBrowser, launchBrowser, screenshot, screenshotStretched, serve, seriousViolations } from '../support/browser';
import { ADMIN_PIN, figuresShown, signIn } from './browser-helpers';

const VIEWER_PIN = '4321';
const MUSEUMS = ['National Museum', 'Museum of Islamic Art', 'Natural History Museum', 'Maritime Museum', 'Heritage Village', 'Contemporary Art Gallery'];
const CHANNELS = ['Online', 'Box office', 'Partner', 'School groups'];
const DISTRICTS = ['Old Town', 'Corniche', 'Harbour'];
const ALLOWED = ['National Museum', 'Maritime Museum'];

/** Weekly rows over 2024 and 2025 with a seasonal swing and growth, the same on every run. */
function visitsCsv(): string {
  const lines = ['date,museum,channel,district,visitors,revenue'];
  const start = Date.UTC(2024, 0, 3);
  for (let week = 0; week < 104; week++) {
    const day = new Date(start + week * 7 * 86_400_000);
    const date = day.toISOString().slice(0, 10);
    const season = 1 + 0.35 * Math.cos(((day.getUTCMonth() + 0.5) / 12) * 2 * Math.PI);
    const growth = 1 + week / 400;
    MUSEUMS.forEach((museum, m) =>
      CHANNELS.forEach((channel, c) =>
        DISTRICTS.forEach((district, d) => {
          const visitors = Math.round(((600 - m * 80) / (c + 1)) * (1 - d * 0.25) * season * growth + ((week * 7 + m * 3 + c + d) % 11));
          lines.push(`${date},${museum},${channel},${district},${visitors},${(visitors * (42 - c * 6)).toFixed(2)}`);
        }),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

async function adminCookie(app: Parameters<typeof request>[0]) {
  const res = await request(app).post('/auth/login').send({ pin: ADMIN_PIN });
  return `service_session=${cookieFrom(res, 'service_session')}`;
}

/** An app with two years of visits, two seasons and a viewer who may see two museums. */
async function setup() {
  const built = await buildApp();
  const cookie = await adminCookie(built.app);
  const admin = (req: HttpTest) => req.set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
  const imported = await admin(request(built.app).post('/api/dashboard/import').set('Content-Type', 'text/csv')).send(visitsCsv());
  expect(imported.status).toBe(200);
  for (const season of [
    { name: 'Winter 2024/25', startDate: '2024-12-01', endDate: '2025-02-28' },
    { name: 'Summer 2025', startDate: '2025-06-01', endDate: '2025-08-31' },
  ]) {
    expect((await admin(request(built.app).post('/api/seasons')).send(season)).status).toBe(201);
  }
  await built.users.create({ name: 'Layla Haddad', pin: VIEWER_PIN, role: 'viewer', allowedMuseums: JSON.stringify(ALLOWED), allowedChannels: '[]' });
  const server = await serve(built.app);
  return { ...built, server };
}

/** Fails the test if the page ever opens a native alert, confirm or prompt. */
function forbidNativeDialogs(page: Page): string[] {
  const opened: string[] = [];
  page.on('dialog', (dialog) => {
    opened.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return opened;
}

/** Chooses a CSV file of these rows (under the header) in Settings and sends it. */
async function importThroughPage(page: Page, rows: string[]) {
  const text = ['date,museum,channel,district,visitors,revenue', ...rows, ''].join('\n');
  await page.setInputFiles('#import-file', { name: 'visits.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.click('#import-form button[type="submit"]');
}

async function museumOptions(page: Page): Promise<string[]> {
  return page.$$eval('[data-filter="museum"] input[type="checkbox"]', (boxes) => boxes.map((b) => (b as HTMLInputElement).value));
}

describeBrowser('Dashboard pages /dashboard, /dashboard/comparison, /dashboard/settings in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    return () => browser.close();
  });

  async function newPage(width = 1440) {
    return browser.newPage({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
  }

  /** Runs `steps` on a new page of a newly seeded app, then checks that no native dialog opened. */
  async function onFreshPage(width: number, steps: (ctx: { page: Page } & Awaited<ReturnType<typeof setup>>) => Promise<void>) {
    const app = await setup();
    const page = await newPage(width);
    const dialogs = forbidNativeDialogs(page);
    try {
      await steps({ page, ...app });
      expect(dialogs).toEqual([]);
    } finally {
      await page.close();
      await app.server.close();
    }
  }

  it('when a viewer restricted to two museums signs in, then the museum filter holds exactly those, the notice says so, and Settings is nowhere (403)', () =>
    onFreshPage(1440, async ({ page, server }) => {
      await signIn(page, server.url, VIEWER_PIN);
      await figuresShown(page);
      expect((await museumOptions(page)).sort()).toEqual([...ALLOWED].sort());
      expect(await page.textContent('[data-access="museums"]')).toBe('2 of 6 museums');
      expect(await page.textContent('[data-access="channels"]')).toBe('All channels');
      const tableMuseums = await page.$$eval('[data-breakdown="byMuseum"] tbody th', (cells) => cells.map((c) => c.textContent));
      expect(tableMuseums.sort()).toEqual([...ALLOWED].sort());
      expect(await page.locator('a[href*="/dashboard/settings"]').count()).toBe(0);
      expect(await page.getByText('Settings', { exact: true }).count()).toBe(0);
      await screenshot(page, 'dashboard-viewer-restricted-en-1440');

      await page.goto(`${server.url}/dashboard/comparison?a=2024&b=2025`);
      await figuresShown(page);
      expect((await museumOptions(page)).sort()).toEqual([...ALLOWED].sort());
      expect(await page.locator('a[href*="/dashboard/settings"]').count()).toBe(0);

      const response = await page.goto(`${server.url}/dashboard/settings`);
      expect(response?.status()).toBe(403);
      expect(await page.textContent('h1')).toContain('do not have access');
      expect(await page.locator('#users').count()).toBe(0);
    }));

  it('when a user\'s access list cannot be read, then the page says there is nothing to see and shows no figures', () =>
    onFreshPage(390, async ({ page, server, users }) => {
      await users.create({ name: 'Broken Access', pin: '7777', role: 'viewer', allowedMuseums: '', allowedChannels: '[]' });
      await signIn(page, server.url, '7777');
      await page.waitForSelector('#access-notice:not([hidden])');
      expect(await page.textContent('#access-notice')).toContain('cannot see any visitor figures');
      expect(await page.isHidden('#results')).toBe(true);
      expect(await page.isHidden('[data-filters]')).toBe(true);
      expect(await page.isHidden('#export-link')).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'dashboard-no-access-en-390');
    }));

  it('when an admin adds a user, edits the access and deletes the user through the modal, then the badges follow and no native dialog opens', () =>
    onFreshPage(1440, async ({ page, server, users }) => {
      await signIn(page, server.url, ADMIN_PIN);
      await page.click('nav a[href="/dashboard/settings"]');
      await page.waitForSelector('#users tbody tr');

      await page.fill('#user-name', 'Omar Said');
      await page.fill('#user-pin', '1234');
      await page.click('#user-form button[type="submit"]');
      expect(await page.textContent('#user-pin-error')).toContain('6 to 12 digits');
      await page.fill('#user-pin', ADMIN_PIN);
      await page.click('#user-form button[type="submit"]');
      await page.waitForSelector('#user-pin-error:has-text("cannot be used")');
      await page.fill('#user-pin', '55667788');
      await page.check('#user-form [data-access-picker="museums"] input[value="only"]');
      await page.click('#user-form button[type="submit"]');
      expect(await page.textContent('#user-form [data-access-picker="museums"] .field-error')).toContain('at least one museum');
      await page.check('#user-form [data-access-picker="museums"] label:has-text("Heritage Village") input');
      await page.check('#user-form [data-access-picker="museums"] label:has-text("Maritime Museum") input');
      await page.click('#user-form button[type="submit"]');

      const row = page.locator('#users tbody tr', { hasText: 'Omar Said' });
      await row.waitFor();
      expect(await row.locator('[data-badge="museums"]').textContent()).toBe('2 museums');
      expect(await row.locator('[data-badge="channels"]').textContent()).toBe('All channels');
      const stored = (await users.list()).find((u) => u.name === 'Omar Said')!;
      expect(JSON.parse(stored.allowedMuseums!).sort()).toEqual(['Heritage Village', 'Maritime Museum']);

      // Edit the access: one museum only, and the channels restricted too.
      await row.getByRole('button', { name: 'Edit access: Omar Said' }).click();
      const modal = page.locator('dialog.modal[open]');
      await modal.waitFor();
      expect(await modal.getAttribute('aria-modal')).toBe('true');
      expect(await modal.getAttribute('aria-labelledby')).toBeTruthy();
      await modal.locator('label:has-text("Heritage Village") input').uncheck();
      await modal.locator('[data-access-picker="channels"] input[value="only"]').check();
      await modal.locator('[data-access-picker="channels"] label:has-text("Online") input').check();
      await screenshotStretched(page, 'dashboard-settings-edit-modal-en-1440');
      await modal.getByRole('button', { name: 'Save access' }).click();
      await modal.waitFor({ state: 'detached' });
      expect(await row.locator('[data-badge="museums"]').textContent()).toBe('1 museum');
      expect(await row.locator('[data-badge="channels"]').textContent()).toBe('1 channel');
      expect(await page.getAttribute(`#users tbody tr:has-text("Omar Said") button[aria-label="Edit access: Omar Said"]`, 'aria-label')).toBeTruthy();

      // Made an administrator: the lists give way to a note, none is sent, and the badges say everything.
      await row.getByRole('button', { name: 'Edit access: Omar Said' }).click();
      await modal.waitFor();
      await modal.getByLabel('Role').selectOption('admin');
      expect(await modal.locator('[data-access-picker]').count()).toBe(0);
      expect(await modal.locator('[data-unrestricted-note]').textContent()).toBe('Administrators see every museum and channel.');
      await modal.getByLabel('Role').selectOption('viewer');
      expect(await modal.locator('[data-access-picker]').count()).toBe(2);
      await modal.getByLabel('Role').selectOption('admin');
      await modal.getByRole('button', { name: 'Save access' }).click();
      await modal.waitFor({ state: 'detached' });
      expect(await row.locator('[data-badge="museums"]').textContent()).toBe('All museums');
      expect(await row.locator('[data-badge="channels"]').textContent()).toBe('All channels');
      const promoted = (await users.list()).find((u) => u.name === 'Omar Said')!;
      expect([promoted.role, promoted.allowedMuseums, promoted.allowedChannels]).toEqual(['admin', '[]', '[]']);
      // The add form follows its role select the same way.
      await page.selectOption('#user-role', 'admin');
      expect(await page.locator('#user-form [data-access-picker]').count()).toBe(0);
      expect(await page.locator('#user-form [data-unrestricted-note]').isVisible()).toBe(true);
      await page.selectOption('#user-role', 'viewer');
      expect(await page.locator('#user-form [data-access-picker]').count()).toBe(2);

      // Delete: Escape first cancels and gives the focus back, then the confirmation deletes.
      const deleteButton = row.getByRole('button', { name: 'Delete Omar Said' });
      await deleteButton.click();
      await modal.waitFor();
      expect(await modal.getAttribute('class')).toContain('modal-danger');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete Omar Said');
      expect(await row.count()).toBe(1);

      await deleteButton.click();
      await modal.waitFor();
      expect(await modal.textContent()).toContain('Omar Said will be signed out');
      // Tab stays inside the dialog.
      for (let i = 0; i < 4; i++) await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')))).toBe(true);
      await modal.getByRole('button', { name: 'Delete', exact: true }).click();
      await modal.waitFor({ state: 'detached' });
      await row.waitFor({ state: 'detached' });
      expect(await page.textContent('#users [data-status]')).toContain('Omar Said deleted');
      expect((await users.list()).some((u) => u.name === 'Omar Said')).toBe(false);
    }));

  it('when an admin adds a user without a PIN and gives a weak-PIN user a new one, then each PIN shows once with a copy button (Arabic, 390 px)', () =>
    onFreshPage(390, async ({ page, server, users }) => {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await signIn(page, server.url, ADMIN_PIN, 'ar');
      await page.goto(`${server.url}/dashboard/settings`);
      const weakRow = page.locator('#users tbody tr', { hasText: 'Layla Haddad' });
      await weakRow.locator('[data-weak-pin]').waitFor();

      await page.fill('#user-name', 'سارة');
      await page.click('#user-form button[type="submit"]');
      const modal = page.locator('dialog.modal[open]');
      await modal.waitFor();
      const made = (await modal.locator('[data-pin]').textContent())!;
      expect(made).toMatch(/^\d{8}$/);
      expect(await modal.locator('[data-pin]').getAttribute('dir')).toBe('ltr');
      await modal.getByRole('button', { name: 'نسخ الرمز السري' }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(made);
      expect(await modal.getByRole('status').textContent()).toBe('نُسخ الرمز السري.');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshotStretched(page, 'dashboard-settings-pin-shown-ar-390');
      await modal.getByRole('button', { name: 'تم' }).click();
      await modal.waitFor({ state: 'detached' });
      const stored = (await users.list()).find((u) => u.name === 'سارة')!;
      expect(stored.pin).toBe(made);
      expect(await page.locator('body').textContent()).not.toContain(made);

      await weakRow.getByRole('button', { name: 'رمز سري جديد: Layla Haddad' }).click();
      await modal.waitFor();
      await modal.getByRole('button', { name: 'إنشاء رمز سري جديد' }).click();
      await modal.locator('[data-pin]').waitFor();
      const renewed = (await modal.locator('[data-pin]').textContent())!;
      expect(renewed).toMatch(/^\d{8}$/);
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
      expect(await weakRow.locator('[data-weak-pin]').count()).toBe(0);
      expect((await users.list()).find((u) => u.name === 'Layla Haddad')!.pin).toBe(renewed);
    }));

  it('when an admin manages seasons and imports a CSV, then errors show inline and by line, and the good file is imported', () =>
    onFreshPage(390, async ({ page, server }) => {
      await signIn(page, server.url, ADMIN_PIN);
      await page.goto(`${server.url}/dashboard/settings`);
      await page.waitForSelector('#seasons tbody tr');

      await page.fill('#season-name', 'Eid week');
      await page.fill('#season-start', '2025-06-10');
      await page.fill('#season-end', '2025-06-01');
      await page.click('#season-form button[type="submit"]');
      expect(await page.textContent('#season-end-error')).toContain('cannot be before the start');
      await page.fill('#season-end', '2025-06-16');
      await page.click('#season-form button[type="submit"]');
      const season = page.locator('#seasons tbody tr', { hasText: 'Eid week' });
      await season.waitFor();

      await season.getByRole('button', { name: 'Edit Eid week' }).click();
      const modal = page.locator('dialog.modal[open]');
      await modal.getByLabel('End date').fill('2025-06-01');
      await modal.getByRole('button', { name: 'Save' }).click();
      expect(await modal.locator('.field-error:not([hidden])').textContent()).toContain('cannot be before the start');
      await modal.getByLabel('Name').fill('Eid al-Adha week');
      await modal.getByLabel('End date').fill('2025-06-14');
      await modal.getByRole('button', { name: 'Save' }).click();
      await modal.waitFor({ state: 'detached' });
      const renamed = page.locator('#seasons tbody tr', { hasText: 'Eid al-Adha week' });
      await renamed.waitFor();

      await renamed.getByRole('button', { name: 'Delete Eid al-Adha week' }).click();
      await modal.getByRole('button', { name: 'Delete', exact: true }).click();
      await renamed.waitFor({ state: 'detached' });

      await importThroughPage(page, ['2025-13-01,National Museum,Online,Old Town,10,100', '2025-01-02,National Museum,Online,Old Town,-4,100']);
      await page.waitForSelector('[data-import-errors]:not([hidden])');
      const problems = await page.$$eval('[data-import-errors] tbody tr', (rows) => rows.map((r) => Array.from(r.children, (c) => c.textContent)));
      expect(problems.map(([line, field]) => `${line}:${field}`)).toEqual(['2:date', '3:visitors']);
      await screenshot(page, 'dashboard-settings-import-errors-en-390');

      await importThroughPage(page, ['2026-01-02,Science Centre,Online,Old Town,10,100', '2026-01-03,Science Centre,Online,Old Town,12,120']);
      await page.waitForSelector('#import [data-status]:has-text("Imported 2 rows")');
      expect(await page.isHidden('[data-import-errors]')).toBe(true);
      expect(await page.locator('#user-form label:has-text("Science Centre")').count()).toBe(1);
    }));

  it('when an import is refused on the Arabic Settings page, then each line\'s problem is shown in Arabic, never in the server\'s English', () =>
    onFreshPage(390, async ({ page, server }) => {
      await signIn(page, server.url, ADMIN_PIN, 'ar');
      await page.goto(`${server.url}/dashboard/settings`);
      await page.waitForSelector('#user-form [data-access-picker]');
      await importThroughPage(page, [
        '2025-13-01,National Museum,Online,Old Town,10,100',
        '2025-01-02,,Online,Old Town,-4,100',
        '2025-01-03,National Museum,Online',
      ]);
      await page.waitForSelector('[data-import-errors]:not([hidden])');
      const rows = await page.$$eval('[data-import-errors] tbody tr', (trs) => trs.map((r) => Array.from(r.children, (c) => c.textContent)));
      const arabicNumber = (n: number) => page.evaluate((value) => new Intl.NumberFormat('ar').format(value), n);
      expect(rows.map(([line, where]) => [line, where])).toEqual([
        [await arabicNumber(2), 'date'],
        [await arabicNumber(3), 'museum'],
        [await arabicNumber(3), 'visitors'],
        [await arabicNumber(4), 'السطر كله'],
      ]);
      for (const [, , problem] of rows) {
        expect(problem).toMatch(/[\u0600-\u06FF]/);
        expect(problem).not.toMatch(/must|expected|found/i);
      }
      expect(rows[3][2]).toBe(`يُتوقّع ${await arabicNumber(6)} قيم في هذا السطر، ووُجد ${await arabicNumber(3)}.`);
      expect(await page.textContent('#import-errors-title')).toMatch(/[\u0600-\u06FF]/);
      await screenshot(page, 'dashboard-settings-import-errors-ar-390');
    }));

  it('when filters are chosen, then they are kept in the address and survive a reload; the export link follows them', () =>
    onFreshPage(1440, async ({ page, server }) => {
      await signIn(page, server.url, ADMIN_PIN);
      await figuresShown(page);
      const allVisitors = await page.textContent('[data-kpi="visitors"]');

      // The year by keyboard alone: open, move to the option, tick it, close.
      await page.focus('[data-filter="year"] summary');
      await page.keyboard.press('Enter');
      expect(await page.getAttribute('[data-filter="year"]', 'open')).toBe('');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('2025');
      await page.keyboard.press('Space');
      await page.keyboard.press('Escape');
      expect(await page.getAttribute('[data-filter="year"]', 'open')).toBeNull();
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SUMMARY');
      await page.click('[data-filter="museum"] summary');
      await page.check('[data-filter="museum"] input[value="Maritime Museum"]');
      await page.check('[data-filter="museum"] input[value="Heritage Village"]');
      await page.click('h1');
      await figuresShown(page);
      await page.waitForFunction(() => new URL(location.href).searchParams.getAll('museum').length === 2);

      const url = new URL(page.url());
      expect(url.searchParams.getAll('year')).toEqual(['2025']);
      expect(url.searchParams.getAll('museum').sort()).toEqual(['Heritage Village', 'Maritime Museum']);
      expect(await page.textContent('[data-filter="museum"] [data-filter-value]')).toBe('2 selected');
      const filtered = await page.textContent('[data-kpi="visitors"]');
      expect(filtered).not.toBe(allVisitors);
      const exportHref = new URL((await page.getAttribute('#export-link', 'href'))!, server.url);
      expect(exportHref.pathname).toBe('/api/dashboard/export.csv');
      expect(exportHref.searchParams.getAll('museum').sort()).toEqual(['Heritage Village', 'Maritime Museum']);

      await page.reload();
      await figuresShown(page);
      expect(await page.isChecked('[data-filter="year"] input[value="2025"]')).toBe(true);
      expect(await page.isChecked('[data-filter="museum"] input[value="Maritime Museum"]')).toBe(true);
      expect(await page.isChecked('[data-filter="museum"] input[value="National Museum"]')).toBe(false);
      expect(await page.textContent('[data-kpi="visitors"]')).toBe(filtered);
      const rows = await page.$$eval('[data-breakdown="byMuseum"] tbody th', (cells) => cells.map((c) => c.textContent));
      expect(rows.sort()).toEqual(['Heritage Village', 'Maritime Museum']);

      // The comparison keeps its periods in the address too.
      await page.goto(`${server.url}/dashboard/comparison?a=2024&b=season:2&channel=Online`);
      await figuresShown(page);
      expect(await page.inputValue('#side-a')).toBe('2024');
      expect(await page.inputValue('#side-b')).toBe('season:2');
      expect(await page.isChecked('[data-filter="channel"] input[value="Online"]')).toBe(true);
      expect(await page.textContent('[data-kpi-label="b"]')).toContain('Summer 2025');
      const changes = await page.$$eval('[data-breakdown="byMuseum"] tbody tr td:nth-child(4)', (cells) => cells.map((c) => c.textContent));
      expect(changes).toHaveLength(6);
      for (const change of changes) expect(change).toMatch(/[+\-−]/);
    }));

  it('when the dashboard is loaded 20 times in a row, then its chart script arrives every time and no request fails', () =>
    onFreshPage(1440, async ({ page, server }) => {
      const failed: string[] = [];
      page.on('response', (res) => {
        if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
      });
      page.on('pageerror', (err) => failed.push(`script error: ${err.message}`));
      await signIn(page, server.url, ADMIN_PIN);
      for (let i = 0; i < 20; i += 1) {
        await page.goto(`${server.url}/dashboard?load=${i}`);
        await figuresShown(page);
        // Chart.js is loaded once the trend is to be drawn, after the figures.
        await page.waitForFunction(() => typeof (window as unknown as { Chart?: unknown }).Chart === 'function', undefined, { timeout: 5_000 });
      }
      expect(failed).toEqual([]);
    }), 60_000);

  it('when the language is Arabic, then every page renders right-to-left with Arabic text and numbers', () =>
    onFreshPage(390, async ({ page, server }) => {
      await signIn(page, server.url, ADMIN_PIN, 'ar');
      await figuresShown(page);
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      expect(await page.getAttribute('html', 'lang')).toBe('ar');
      expect(await page.textContent('nav.dash-nav')).toContain('المقارنة');
      expect(await page.textContent('[data-kpi-note="visitors"]')).toBe(`خلال ${await page.evaluate(() => new Intl.NumberFormat('ar').format(104))} أيام`);
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('.filters')!).direction)).toBe('rtl');
      await page.goto(`${server.url}/dashboard/settings`);
      await page.waitForSelector('#users tbody tr');
      expect(await page.textContent('#users [data-badge="museums"]')).toBe('متحفان');
    }));

  it('when each page is shown in both languages at 390 and 1440 px, then axe finds nothing serious (modal open too) and screenshots are written', async () => {
    const { server } = await setup();
    for (const lang of ['en', 'ar']) {
      for (const width of [390, 1440]) {
        const page = await newPage(width);
        const dialogs = forbidNativeDialogs(page);
        try {
          await signIn(page, server.url, ADMIN_PIN, lang);
          for (const [name, path] of [
            ['dashboard', '/dashboard'],
            // The data ends in 2025 and the clock stands in January 2026: two chosen years, not year to date.
            ['comparison', '/dashboard/comparison?a=2024&b=2025'],
          ]) {
            await page.goto(`${server.url}${path}`);
            await figuresShown(page);
            expect(await seriousViolations(page), `${name} ${lang} ${width}`).toEqual([]);
            expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} ${lang} ${width} scrolls sideways`).toBe(width);
            await screenshot(page, `dashboard-${name}-${lang}-${width}`);
          }
          await page.goto(`${server.url}/dashboard?museum=National+Museum&museum=Maritime+Museum&year=2025`);
          await figuresShown(page);
          await page.click('[data-filter="museum"] summary');
          expect(await seriousViolations(page), `dashboard filters open ${lang} ${width}`).toEqual([]);
          await screenshot(page, `dashboard-filtered-${lang}-${width}`);

          await page.goto(`${server.url}/dashboard/settings`);
          await page.waitForSelector('#users tbody tr');
          expect(await seriousViolations(page), `settings ${lang} ${width}`).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth), `settings ${lang} ${width} scrolls sideways`).toBe(width);
          await screenshot(page, `dashboard-settings-${lang}-${width}`);
          await page.locator('#users tbody tr').first().locator('button.button-danger-quiet').click();
          await page.waitForSelector('dialog.modal[open]');
          expect(await seriousViolations(page), `settings modal ${lang} ${width}`).toEqual([]);
          await screenshotStretched(page, `dashboard-settings-modal-${lang}-${width}`);
          await page.keyboard.press('Escape');
          expect(dialogs).toEqual([]);
        } finally {
          await page.close();
        }
      }
    }
    await server.close();
  }, 120_000);
});
