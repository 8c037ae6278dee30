import { expect, it } from 'vitest';
import { describeBrowser } from '../support/browser';
import { linkIn, mailFor } from '../support/mail';
import { checkAndShoot, forbidNativeDialogs, seed, settled, signedIn, useBrowser, type Lang } from './browser-helpers';


const NEW_PASSWORD = 'Harbour-Lantern-7';

describeBrowser('a forgotten password: /forgot-password, the mail, /reset-password, in a browser', () => {
  const browser = useBrowser();

  it.each([
    ['en', 1440],
    ['ar', 390],
  ] as [Lang, number][])('when a member asks for a link (%s, %i px) and chooses a new password with it, then they sign in with it, and their old cookie and token are refused', async (lang, width) => {
    const app = await seed();
    const mail = await mailFor(app.ws);
    const member = app.contributor;
    await app.ws.members.update(member.id, { language: lang });
    const before = await signedIn(browser(), app, member, { width, lang });
    const context = await browser().newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const dialogs = forbidNativeDialogs(page);
    const shot = (name: string) => checkAndShoot(page, `workspace-${name}-${lang}-${width}`);
    try {
      await page.goto(`${app.url}/login?lang=${lang}`);
      await page.click('a[href="/forgot-password"]');
      await page.waitForURL('**/forgot-password');
      await page.click('#forgot-form button[type="submit"]');
      expect(await page.isVisible('#forgot-email-error')).toBe(true);
      expect(await page.getAttribute('#forgot-email', 'aria-invalid')).toBe('true');
      await page.fill('#forgot-email', member.email);
      await page.click('#forgot-form button[type="submit"]');
      await page.waitForSelector('[data-forgot-sent]:not([hidden])');
      expect(await page.textContent('[data-forgot-sent]')).toContain(member.email);
      expect(await page.isHidden('#forgot-form')).toBe(true);
      await shot('forgot-password-sent');

      const [sent] = await mail.deliver();
      const link = new URL(linkIn(sent, `${app.ws.config.mail.publicUrl}/reset-password?token=`));
      await page.goto(`${app.url}${link.pathname}${link.search}`);
      expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      await page.fill('#np-new', NEW_PASSWORD);
      await page.fill('#np-confirm', `${NEW_PASSWORD}!`);
      await page.click('.ws-new-password-form button[type="submit"]');
      expect(await page.isVisible('#np-confirm-error')).toBe(true);
      await shot('reset-password');
      await page.fill('#np-confirm', NEW_PASSWORD);
      await page.click('.ws-new-password-form button[type="submit"]');
      await page.waitForURL('**/login?reset=done');
      expect(await page.isVisible('.form-success')).toBe(true);
      await shot('login-after-reset');
      await page.fill('#login-email', member.email);
      await page.fill('#login-password', NEW_PASSWORD);
      await page.click('#login-form button[type="submit"]');
      await page.waitForURL('**/workspace');
      await settled(page);

      // The browser signed in before the reset is signed out; so is the old token.
      await before.page.goto(`${app.url}/workspace`);
      await before.page.waitForURL('**/login?next=*');
      expect((await app.ws.as(member).get('/api/auth/me')).status).toBe(401);

      // The link is spent: it says so and offers a new one.
      const again = await page.goto(`${app.url}${link.pathname}${link.search}`);
      expect(again?.status()).toBe(410);
      expect(await page.isVisible('a[href="/forgot-password"].button')).toBe(true);
      await shot('reset-password-spent');

      const [changed] = await mail.deliver();
      expect(changed.to).toEqual([member.email]);
      expect(dialogs).toEqual([]);
    } finally {
      await context.close();
      await before.context.close();
      await app.close();
    }
  });
});
