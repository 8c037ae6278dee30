import type { Browser, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { describeBrowser, screenshot } from '../support/browser';
import { linkIn, mailFor } from '../support/mail';
import type { Received } from '../support/smtp';
import { checkAndShoot, forbidNativeDialogs, runAs, settled, useBrowser, type Lang, type Seeded } from './browser-helpers';

const OWN_PASSWORD = 'Lantern-Harbour-42';

/** The invitation link of the one mail the test SMTP server received since the last look. */
async function mailedLink(app: Seeded, deliver: () => Promise<Received[]>, shotAs?: { page: Page; name: string }): Promise<string> {
  const received = await deliver();
  expect(received).toHaveLength(1);
  if (shotAs) {
    // The mail as a mail program shows it, for a person to look at.
    await shotAs.page.setContent(String(received[0].parsed.html));
    await screenshot(shotAs.page, shotAs.name);
  }
  return linkIn(received[0], `${app.ws.config.mail.publicUrl}/invite/`);
}

/** The link on the served app: the mail names the configured public address. */
const onServer = (app: Seeded, link: string) => `${app.url}${new URL(link).pathname}`;

/** Fills in the new member form, leaving the way in as an invitation, and sends it. */
async function inviteThroughForm(page: Page, name: string, email: string) {
  const modal = page.locator('dialog.modal[open]');
  expect(await modal.locator('select[name="access"]').inputValue()).toBe('invite');
  expect(await modal.locator('input[name="password"]').isVisible()).toBe(false);
  await modal.locator('input[name="name"]').fill(name);
  await modal.locator('input[name="email"]').fill(email);
  return modal;
}

/** A browser nobody is signed in to, as the invited person opens the mail's link. */
async function stranger(browser: Browser, width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  return { context, page, dialogs: forbidNativeDialogs(page) };
}

/** Chooses the password on the invitation page: a mismatch is caught in place first. */
async function choosePassword(page: Page) {
  await page.fill('#np-new', OWN_PASSWORD);
  await page.fill('#np-confirm', `${OWN_PASSWORD}x`);
  await page.click('.ws-new-password-form button[type="submit"]');
  expect(await page.isVisible('#np-confirm-error')).toBe(true);
  await page.fill('#np-confirm', OWN_PASSWORD);
  await page.click('.ws-new-password-form button[type="submit"]');
}

describeBrowser('invitations by mail in a browser: Users, Team, /invite/<token>', () => {
  const browser = useBrowser();

  it('when a superadmin invites from the Users page, then the mailed link sets a password and lands on the profile step signed in, and on to the tour', () =>
    runAs(browser(), 'admin', {}, async ({ app, page }) => {
      const mail = await mailFor(app.ws);
      await page.goto(`${app.url}/workspace/users`);
      await settled(page);
      await page.click('[data-new-user]');
      const modal = await inviteThroughForm(page, 'Nadia Saleh', 'nadia@example.test');
      await checkAndShoot(page, 'workspace-users-invite-form-en-1440');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      const row = page.locator('tr[data-user-id]', { hasText: 'Nadia Saleh' });
      await row.waitFor();
      expect(await row.locator('.badge', { hasText: 'Invited' }).count()).toBe(1);
      expect(await row.textContent()).toContain('The link works until');
      expect(await row.getByRole('button', { name: 'Resend the invitation to Nadia Saleh' }).count()).toBe(1);
      expect(await row.getByRole('button', { name: 'Revoke the invitation of Nadia Saleh' }).count()).toBe(1);
      expect(await page.textContent('#ws-toast')).toContain('Nadia Saleh was invited');
      await checkAndShoot(page, 'workspace-users-invite-sent-en-1440');

      const invitee = await stranger(browser(), 1440);
      try {
        const link = await mailedLink(app, () => mail.deliver(), { page: invitee.page, name: 'mail-invitation-en-1440' });
        await invitee.page.goto(onServer(app, link));
        expect(await invitee.page.textContent('h1')).toBe('Join the workspace');
        expect(await invitee.page.textContent('.ws-steps-count')).toContain('Step 1 of 3');
        expect(await invitee.page.inputValue('#np-username')).toBe('nadia@example.test');
        await checkAndShoot(invitee.page, 'workspace-invite-en-1440');
        await choosePassword(invitee.page);
        await invitee.page.waitForURL(`${app.url}/workspace/welcome`);
        expect(await invitee.page.getAttribute('.ws-steps-bar', 'aria-valuenow')).toBe('2');
        expect(await invitee.page.inputValue('#pf-name')).toBe('Nadia Saleh');
        const me = await invitee.page.evaluate(async () => (await fetch('/api/auth/me')).json());
        expect(me.user).toMatchObject({ email: 'nadia@example.test', mustChangePassword: false, profileCompleted: false });

        await invitee.page.fill('#pf-job', 'Social media editor');
        await invitee.page.click('.ws-profile-form button[type="submit"]');
        await invitee.page.waitForURL(`${app.url}/workspace`);
        await invitee.page.locator('.tour[role="dialog"]').waitFor();

        // The link has done its work.
        await invitee.page.goto(onServer(app, link));
        expect(await invitee.page.textContent('h1')).toBe('This invitation no longer works');
        expect(invitee.dialogs).toEqual([]);
      } finally {
        await invitee.context.close();
      }

      await page.reload();
      await settled(page);
      expect(await page.locator('tr[data-user-id]', { hasText: 'Nadia Saleh' }).locator('.badge', { hasText: 'Invited' }).count()).toBe(0);
    }), 120_000);

  it.each([
    ['ar', 390],
    ['en', 1440],
  ] as [Lang, number][])('when a manager reading %s invites from the Team page and resends (%i px), then the invited are listed apart, the mail and the page are in that language, the first link says it no longer works, and the new one joins', (lang, width) =>
    runAs(browser(), 'manager', { lang, width, prepare: (app) => app.ws.members.update(app.manager.id, { language: lang }).then(() => undefined) }, async ({ app, page }) => {
      const mail = await mailFor(app.ws);
      const shot = (name: string, on = page) => checkAndShoot(on, `workspace-${name}-${lang}-${width}`);
      const dir = lang === 'ar' ? 'rtl' : 'ltr';
      await page.goto(`${app.url}/workspace/team`);
      await settled(page);
      expect(await page.isVisible('[data-invited]')).toBe(false);
      await page.click('[data-new-member]');
      const modal = await inviteThroughForm(page, 'Huda Nasser', 'huda@example.test');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      const card = page.locator('[data-invited-list] [data-member-id]', { hasText: 'Huda Nasser' });
      await card.waitFor();
      expect(await page.locator('[data-team] [data-member-id]', { hasText: 'Huda Nasser' }).count()).toBe(0);

      const invitee = await stranger(browser(), width);
      try {
        const first = await mailedLink(app, () => mail.deliver(), { page: invitee.page, name: `mail-invitation-${lang}-${width}` });
        app.ws.clock.advance(1000);
        await card.getByRole('button', { name: lang === 'ar' ? 'إعادة إرسال الدعوة إلى Huda Nasser' : 'Resend the invitation to Huda Nasser' }).click();
        await page.waitForFunction(() => document.getElementById('ws-toast')?.classList.contains('is-visible'));
        expect(await card.textContent()).toMatch(lang === 'ar' ? /يعمل الرابط حتى/ : /The link works until/);
        await shot('team-invited');
        const second = await mailedLink(app, () => mail.deliver());
        expect(second).not.toBe(first);

        // A browser that has chosen no language opens the invitation in the invited member's.
        await invitee.page.goto(onServer(app, second));
        expect(await invitee.page.getAttribute('html', 'dir')).toBe(dir);
        await shot('invite', invitee.page);
        await invitee.page.goto(onServer(app, first));
        expect(await invitee.page.getAttribute('html', 'dir')).toBe(dir);
        expect(await invitee.page.locator('.ws-new-password-form').count()).toBe(0);
        await shot('invite-invalid', invitee.page);
        await invitee.page.goto(onServer(app, second));
        await choosePassword(invitee.page);
        await invitee.page.waitForURL(`${app.url}/workspace/welcome`);
        await settled(invitee.page);
        expect(await invitee.page.getAttribute('html', 'dir')).toBe(dir);
        await shot('invite-welcome', invitee.page);
        expect(invitee.dialogs).toEqual([]);
      } finally {
        await invitee.context.close();
      }
    }), 120_000);

  it.each([
    ['en', 1440, 'Revoke the invitation of Karim Aziz', 'This invitation no longer works'],
    ['ar', 390, 'إلغاء دعوة Karim Aziz', 'لم تعد هذه الدعوة صالحة'],
  ] as [Lang, number, string, string][])('when a superadmin revokes through the red modal (%s, %i px), then the row goes and the link says it no longer works', (lang, width, revokeLabel, gone) =>
    runAs(browser(), 'admin', {
      lang,
      width,
      prepare: async (app) => {
        const res = await app.ws.as(app.admin).post('/api/members').send({ name: 'Karim Aziz', email: 'karim@example.test', role: 'manager', brandIds: [app.brand.id] });
        return { id: res.body.member.id as number };
      },
    }, async ({ app, page, data: { id } }) => {
      const mail = await mailFor(app.ws);
      const link = await mailedLink(app, () => mail.deliver());
      await page.goto(`${app.url}/workspace/users`);
      await settled(page);
      const row = page.locator(`tr[data-user-id="${id}"]`);
      expect(await row.locator('.button-danger-quiet').count()).toBe(1);
      await checkAndShoot(page, `workspace-users-invited-${lang}-${width}`);
      await row.getByRole('button', { name: revokeLabel }).click();
      const danger = page.locator('dialog.modal-danger[open]');
      expect(await danger.locator('.modal-message').textContent()).toContain('karim@example.test');
      await checkAndShoot(page, `workspace-users-revoke-modal-${lang}-${width}`);
      await danger.locator('.button-danger').click();
      await row.waitFor({ state: 'detached' });
      const response = await page.goto(onServer(app, link));
      expect(response?.status()).toBe(410);
      expect(await page.textContent('h1')).toBe(gone);
    }), 120_000);
});
