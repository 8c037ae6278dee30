import { request } from '../support/http';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, forbidNativeDialogs, PASSWORD, seed, settled, signInThroughForm, useBrowser, type Lang } from './browser-helpers';

const FIRST_PASSWORD = 'Given-Password-1';
const OWN_PASSWORD = 'My-Own-Password-2';

async function portrait(): Promise<Buffer> {
  return sharp({ create: { width: 240, height: 240, channels: 3, background: { r: 31, g: 95, b: 191 } } }).png().toBuffer();
}

describeBrowser('first sign-in: /login, /change-password, /workspace/welcome and the tour, in a browser', () => {
  const browser = useBrowser();

  it.each([
    ['en', 1440],
    ['ar', 390],
  ] as [Lang, number][])(
    'when a new member signs in (%s, %i px), then the password, the profile with a picture and the tour come in order, and the tour can be restarted from Settings',
    async (lang, width) => {
      const app = await seed();
      const created = await app.ws
        .as(app.manager)
        .post('/api/members')
        .send({ name: 'Nadia Saleh', email: 'nadia@example.test', password: FIRST_PASSWORD, role: 'contributor' });
      expect(created.status).toBe(201);
      const context = await browser().newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const dialogs = forbidNativeDialogs(page);
      const shot = (name: string) => checkAndShoot(page, `workspace-${name}-${lang}-${width}`);
      try {
        await page.goto(`${app.url}/login?lang=${lang}`);
        expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        await page.click('#login-form button[type="submit"]');
        expect(await page.isVisible('#login-error')).toBe(true);
        await page.fill('#login-email', 'nadia@example.test');
        await page.fill('#login-password', 'not the password');
        await page.click('#login-form button[type="submit"]');
        await page.waitForFunction(() => document.getElementById('login-password')?.getAttribute('aria-invalid') === 'true');
        await shot('login-error');

        await signInThroughForm(page, app.url, 'nadia@example.test', FIRST_PASSWORD);
        await page.waitForURL(`${app.url}/change-password`);
        expect(await page.textContent('.ws-steps-count')).toMatch(lang === 'ar' ? /1 من 3/ : /Step 1 of 3/);
        await shot('change-password');
        await page.fill('#pw-current', FIRST_PASSWORD);
        await page.fill('#pw-new', 'short');
        await page.fill('#pw-confirm', 'short');
        await page.click('.ws-password-form button[type="submit"]');
        expect(await page.isVisible('#pw-new-error')).toBe(true);
        await page.fill('#pw-new', OWN_PASSWORD);
        await page.fill('#pw-confirm', `${OWN_PASSWORD}x`);
        await page.click('.ws-password-form button[type="submit"]');
        expect(await page.isVisible('#pw-confirm-error')).toBe(true);
        await page.fill('#pw-confirm', OWN_PASSWORD);
        await page.click('.ws-password-form button[type="submit"]');

        await page.waitForURL(`${app.url}/workspace/welcome`);
        expect(await page.getAttribute('.ws-steps-bar', 'aria-valuenow')).toBe('2');
        await page.fill('#pf-name', '');
        await page.click('.ws-profile-form button[type="submit"]');
        expect(await page.isVisible('#pf-name-error')).toBe(true);
        await page.fill('#pf-name', 'Nadia Saleh');
        await page.fill('#pf-job', 'Social media editor');
        await page.fill('#pf-phone', '+974 5555 1234');
        await page.setInputFiles('#pf-avatar-file', { name: 'me.png', mimeType: 'image/png', buffer: await portrait() });
        await page.waitForSelector('[data-avatar-preview] img');
        const avatarUrl = await page.getAttribute('[data-avatar-preview] img', 'src');
        // The member's own picture, not an asset of a brand.
        expect(avatarUrl).toMatch(/^\/api\/avatars\//);
        // Shown once it has loaded, which a busy machine may take a while to do.
        await expect
          .poll(() => page.$eval('[data-avatar-preview] img', (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), { timeout: 10_000 })
          .toBe(true);
        expect((await app.ws.as(app.manager).get('/api/assets')).body.assets).toEqual([]);
        await shot('welcome');
        await page.click('.ws-profile-form button[type="submit"]');

        await page.waitForURL(`${app.url}/workspace`);
        const tour = page.locator('.tour[role="dialog"]');
        await tour.waitFor();
        await settled(page);
        expect(await page.locator('.ws-user img.avatar').getAttribute('src')).toBe(avatarUrl);
        await shot('tour');
        const titles: string[] = [];
        for (let step = 0; step < 3; step++) {
          titles.push((await tour.locator('.tour-title').textContent()) ?? '');
          expect(await page.locator('.tour-target').count()).toBe(1);
          if (width < 900) {
            // The open menu covers the page: what the step points at is in the menu, and nothing is drawn over it.
            const onTop = await page.$eval('.tour-target', (target) => {
              const box = target.getBoundingClientRect();
              const hit = document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 20));
              return Boolean(target.closest('.ws-sidebar')) && Boolean(hit && target.contains(hit));
            });
            expect(onTop, `tour step ${step + 1} at ${width} px`).toBe(true);
          }
          await tour.locator('.tour-actions .button-primary').click();
        }
        titles.push((await tour.locator('.tour-title').textContent()) ?? '');
        const stored = page.waitForResponse((r) => r.url().endsWith('/api/auth/onboarding') && r.ok());
        await tour.locator('.tour-actions .button-primary').click();
        await stored;
        expect(new Set(titles).size).toBe(4);
        await tour.waitFor({ state: 'detached' });
        const signedIn = await request(app.ws.app).post('/api/auth/login').send({ email: 'nadia@example.test', password: OWN_PASSWORD });
        expect(signedIn.body.user).toMatchObject({ mustChangePassword: false, profileCompleted: true, onboardingCompleted: true, jobTitle: 'Social media editor' });

        await page.reload();
        await settled(page);
        expect(await page.locator('.tour').count()).toBe(0);

        await page.goto(`${app.url}/workspace/settings`);
        await page.click('[data-restart-tour]');
        await page.waitForURL(`${app.url}/workspace`);
        await tour.waitFor();
        const skipped = page.waitForResponse((r) => r.url().endsWith('/api/auth/onboarding') && r.ok());
        await page.keyboard.press('Escape');
        await skipped;
        await tour.waitFor({ state: 'detached' });
        await page.reload();
        await settled(page);
        expect(await page.locator('.tour').count()).toBe(0);

        if (width <= 900) await page.click('[data-ws-menu]');
        await page.click('.ws-sidebar [data-ws-logout]');
        await page.waitForURL(`${app.url}/login`);
        await page.goto(`${app.url}/workspace`);
        expect(new URL(page.url()).pathname).toBe('/login');
        expect(dialogs).toEqual([]);
      } finally {
        await context.close();
        await app.close();
      }
    },
    120_000,
  );

  it('when the default password is kept, then the old one stops working and the other session of the user ends', async () => {
    const app = await seed();
    const other = await app.ws.signIn(app.contributor.email);
    const context = await browser().newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    try {
      await signInThroughForm(page, app.url, app.contributor.email);
      await page.waitForURL(`${app.url}/workspace`);
      await page.goto(`${app.url}/workspace/settings`);
      await page.fill('#pw-current', PASSWORD);
      await page.fill('#pw-new', OWN_PASSWORD);
      await page.fill('#pw-confirm', OWN_PASSWORD);
      await page.click('.ws-password-form button[type="submit"]');
      await page.waitForSelector('.form-success:not([hidden])');
      expect((await app.ws.withCookie(other.cookie).get('/api/auth/me')).status).toBe(401);
      await page.goto(`${app.url}/workspace/profile`);
      expect(new URL(page.url()).pathname).toBe('/workspace/profile');
    } finally {
      await context.close();
      await app.close();
    }
  });
});
