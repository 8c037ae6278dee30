import { expect, it } from 'vitest';
import { describeBrowser, screenshot, seriousViolations } from '../support/browser';
import { request } from '../support/http';
import { mailFor, type TestMail } from '../support/mail';
import { createI18n } from '../../src/platform/i18n';
import { createLogger } from '../../src/platform/logger';
import { createWorkspaceDigests } from '../../src/workspace';
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

  it('when notification mails (one, counted, a digest) are rendered in Chromium at 390 and 800 px, then each reads in its language and direction, fits, and axe finds nothing serious', () =>
    runAs(browser(), 'admin', {}, async ({ app, page }) => {
      const mail = await mailFor(app.ws);
      const digests = createWorkspaceDigests({ records: app.ws.stores.records.workspace, clock: app.ws.clock, i18n: createI18n(), logger: createLogger('silent'), timeZone: app.ws.config.workspaceTimeZone });
      app.ws.clock.set(Date.UTC(2026, 0, 15, 3, 0));
      await digests.runDue();
      const received: [string, Received][] = [];
      for (const lang of ['en', 'ar'] as Lang[]) {
        await app.ws.members.update(app.manager.id, { language: lang });
        await app.ws.members.update(app.contributor.id, { language: lang });
        const post = (await app.ws.as(app.contributor).post('/api/posts').send({ title: lang === 'ar' ? 'افتتاح المعرض' : 'Opening night', brandId: app.brand.id, status: 'review' })).body.post;
        const ids: number[] = [];
        for (let i = 1; i <= 3; i += 1) ids.push((await app.ws.as(app.contributor).post('/api/posts').send({ title: `Poster ${i}`, brandId: app.brand.id })).body.post.id);
        await app.ws.as(app.contributor).patch('/api/posts').send({ ids, status: 'review' });
        await app.ws.as(app.manager).post(`/api/posts/${post.id}/comments`).send({ body: 'A first look' });
        await app.ws.as(app.manager).post('/api/tasks').send({ title: lang === 'ar' ? 'ملصق الواجهة' : 'Front poster', brandId: app.brand.id, assigneeId: app.contributor.id });
        const [one, counted] = await mail.deliver();
        app.ws.clock.advance(2 * 3600_000);
        await digests.runDue();
        const [digest] = await mail.deliver();
        received.push([`notification-${lang}`, one], [`notification-counted-${lang}`, counted], [`digest-${lang}`, digest]);
        // The next language's digest comes the next morning.
        app.ws.clock.advance(22 * 3600_000);
      }
      for (const [name, message] of received) {
        const html = message.parsed.html;
        if (typeof html !== 'string') throw new Error(`${name}: a mail without an HTML part`);
        const rtl = name.endsWith('-ar');
        expect(html, name).toContain(rtl ? 'lang="ar" dir="rtl"' : 'lang="en" dir="ltr"');
        for (const width of [390, 800]) {
          await page.setViewportSize({ width, height: 900 });
          await page.setContent(html);
          expect(await page.getAttribute('html', 'dir')).toBe(rtl ? 'rtl' : 'ltr');
          expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} ${width}`).toBeLessThanOrEqual(width);
          expect(await seriousViolations(page), `${name} ${width}`).toEqual([]);
          await screenshot(page, `mail-${name}-${width}`);
        }
      }
      expect(received.map(([name, m]) => [name, m.to])).toEqual([
        ['notification-en', [app.manager.email]],
        ['notification-counted-en', [app.manager.email]],
        ['digest-en', [app.contributor.email]],
        ['notification-ar', [app.manager.email]],
        ['notification-counted-ar', [app.manager.email]],
        ['digest-ar', [app.contributor.email]],
      ]);
    }));
});
