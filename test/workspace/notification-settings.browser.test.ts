import { expect, it } from 'vitest';
import { describeBrowser } from '../support/browser';
import { request } from '../support/http';
import { mailFor } from '../support/mail';
import { checkAndShoot, runAs, settled, useBrowser, WIDTHS, type Lang } from './browser-helpers';

const SETTINGS = '/api/auth/me/notifications-settings';
const CASES = WIDTHS.flatMap((width) => (['en', 'ar'] as Lang[]).map((lang) => [lang, width] as const));

describeBrowser('notification settings and unsubscribe links in a browser', () => {
  const browser = useBrowser();

  it.each(CASES)(
    'when a member opens Settings (%s, %i px), then each kind offers the app, mail at once or the digest, with the time zone; what they save is kept; the page fits and axe finds nothing serious',
    (lang, width) =>
      runAs(browser(), 'contributor', { lang, width }, async ({ app, page }) => {
        await page.goto(`${app.url}/workspace/settings`);
        await settled(page);
        const section = page.locator('#notifications');
        expect(await section.locator('select[data-notification-kind]').count()).toBe(6);
        expect(await page.inputValue('#notify-mentioned')).toBe('email');
        expect(await page.inputValue('#notify-commented')).toBe('digest');
        expect(await page.inputValue('#notify-time-zone')).toBe('Asia/Qatar');
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await checkAndShoot(page, `workspace-settings-notifications-${lang}-${width}`);

        await page.selectOption('#notify-mentioned', 'app');
        await page.selectOption('#notify-approved', 'email');
        await page.selectOption('#notify-time-zone', 'Europe/London');
        const saved = page.waitForResponse((res) => res.url().endsWith(SETTINGS) && res.request().method() === 'PATCH');
        await section.getByRole('button').click();
        expect((await saved).status()).toBe(200);
        await page.waitForSelector('#ws-toast.is-visible');
        const stored = (await app.ws.as(app.contributor).get(SETTINGS)).body;
        expect(stored).toMatchObject({ settings: { mentioned: 'app', approved: 'email', commented: 'digest' }, timeZone: 'Europe/London' });
        await page.reload();
        expect(await page.inputValue('#notify-mentioned')).toBe('app');
        expect(await page.inputValue('#notify-time-zone')).toBe('Europe/London');
      }),
  );

  it.each(CASES)('when a mail’s unsubscribe link is opened (%s, %i px), then a page asks first, its button unsubscribes, both pages fit and axe finds nothing serious', (lang, width) =>
    runAs(browser(), 'manager', {
      lang,
      width,
      prepare: async (app) => {
        const mail = await mailFor(app.ws);
        await app.ws.members.update(app.manager.id, { language: lang });
        await app.ws.as(app.contributor).post('/api/posts').send({ title: 'Opening night', brandId: app.brand.id, status: 'review' });
        const [sent] = await mail.deliver();
        const header = sent.parsed.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.replace(/\r?\n[ \t]+/g, ' ');
        return { link: /<([^>]+)>/.exec(header)![1] };
      },
    }, async ({ app, page, data: { link } }) => {
      // The mail's address is on the public URL; the test serves the app elsewhere.
      const path = link.slice(link.indexOf('/api/'));
      await page.goto(`${app.url}${path}`);
      expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect((await app.ws.as(app.manager).get(SETTINGS)).body.settings.review_requested).toBe('email');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await checkAndShoot(page, `workspace-unsubscribe-ask-${lang}-${width}`);
      await page.locator('form[data-unsubscribe] button').click();
      await page.waitForSelector('[data-unsubscribed]');
      expect((await app.ws.as(app.manager).get(SETTINGS)).body.settings.review_requested).toBe('app');
      await checkAndShoot(page, `workspace-unsubscribe-done-${lang}-${width}`);
      const gone = await request(app.ws.app).get(path.replace(/\.[\w-]{43}$/, `.${'A'.repeat(43)}`));
      expect(gone.status).toBe(404);
    }),
  );
});
