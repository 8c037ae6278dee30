import { expect, it } from 'vitest';
import { describeBrowser, screenshot, seriousViolations } from '../support/browser';
import { request } from '../support/http';
import { mailFor, type TestMail } from '../support/mail';
import type { Received } from '../support/smtp';
import { checkAndShoot, runAs, settled, useBrowser, WIDTHS, type Lang, type Seeded } from './browser-helpers';

/** Every kind of mail the team can cause so far, to each of two members: one reading English, one Arabic. */
async function mailOfEveryKind(app: Seeded, mail: TestMail): Promise<Received[]> {
  await app.ws.members.update(app.manager.id, { language: 'ar' });
  for (const who of [app.contributor, app.manager]) {
    await request(app.ws.app).post('/api/auth/password-reset').send({ email: who.email });
    await app.ws.as(who).post('/api/auth/password').send({ currentPassword: 'Correct-Horse-9', newPassword: 'Another-Horse-10' });
  }
  for (const [email, language] of [['nadia@example.test', 'en'], ['huda@example.test', 'ar']]) {
    await app.ws.as(app.admin).post('/api/members').send({ name: 'Nadia Saleh', email, role: 'contributor', language });
  }
  return mail.deliver();
}

describeBrowser('mail in a browser: the outbox page, and each mail as Chromium renders it', () => {
  const browser = useBrowser();

  it.each(WIDTHS.flatMap((width) => (['en', 'ar'] as Lang[]).map((lang) => [lang, width] as const)))(
    'when a superadmin opens the outbox (%s, %i px), then sent, waiting and failed mail show with their fate, axe finds nothing serious, and a failed one can be sent again',
    (lang, width) =>
      runAs(browser(), 'admin', {
        lang,
        width,
        prepare: async (app) => {
          const mail = await mailFor(app.ws);
          await mailOfEveryKind(app, mail);
          mail.smtp.refuse(true);
          await request(app.ws.app).post('/api/auth/password-reset').send({ email: app.contributor.email });
          for (let i = 0; i < 20; i += 1) {
            await mail.worker.drain();
            app.ws.clock.advance(2 * 3600_000);
          }
          mail.smtp.refuse(false);
          await request(app.ws.app).post('/api/auth/password-reset').send({ email: app.manager.email });
          return { mail };
        },
      }, async ({ app, page, data: { mail } }) => {
        await page.goto(`${app.url}/workspace/settings`);
        await page.click('a[href="/workspace/settings/mail"]');
        await page.waitForURL('**/workspace/settings/mail');
        await settled(page);
        expect(await page.locator('[data-mail] tbody tr').count()).toBe(8);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        await checkAndShoot(page, `workspace-mail-outbox-${lang}-${width}`);
        const failed = page.locator('[data-mail] tbody tr', { has: page.locator('.badge-danger') });
        expect(await failed.count()).toBe(1);
        await failed.getByRole('button').click();
        await page.waitForSelector('[data-mail] tbody tr .badge-danger', { state: 'detached' });
        expect((await mail.deliver()).map((m) => m.to)).toEqual([[app.contributor.email], [app.manager.email]]);
        await page.selectOption('[data-mail-status]', 'failed');
        await page.waitForSelector('[data-state]:not(:empty)');
        expect(await page.locator('[data-mail] tbody tr').count()).toBe(0);
      }),
  );

  it('when each mail is rendered in Chromium at 390 and 800 px, then it reads in its language and direction, fits, and axe finds nothing serious', () =>
    runAs(browser(), 'admin', {}, async ({ app, page }) => {
      const mail = await mailFor(app.ws);
      const received = await mailOfEveryKind(app, mail);
      expect(received).toHaveLength(6);
      for (const message of received) {
        const html = message.parsed.html;
        if (typeof html !== 'string') throw new Error('a mail without an HTML part');
        const lang = html.includes('lang="ar"') ? 'ar' : 'en';
        const subject = message.parsed.subject!;
        const kind = subject.includes(lang === 'ar' ? 'دعوة' : 'invited') ? 'invitation' : subject.includes(lang === 'ar' ? 'إعادة' : 'Reset') ? 'reset' : 'changed';
        for (const width of [390, 800]) {
          await page.setViewportSize({ width, height: 900 });
          await page.setContent(html);
          expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
          expect(await page.evaluate(() => document.documentElement.scrollWidth), `${kind} ${lang} ${width}`).toBeLessThanOrEqual(width);
          expect(await seriousViolations(page), `${kind} ${lang} ${width}`).toEqual([]);
          await screenshot(page, `mail-${kind}-${lang}-${width}`);
        }
      }
    }));
});
