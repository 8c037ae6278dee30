import { expect, it } from 'vitest';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser } from './browser-helpers';

describeBrowser('Team /workspace/team and Users /workspace/users in a browser', () => {
  const browser = useBrowser();

  it('when a manager adds a member, then only the contributor role is offered, a taken email is refused in place, and the new member must change the password', () =>
    runAs(browser(), 'manager', {}, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/team`);
      await settled(page);
      expect(await page.locator('[data-member-id]').count()).toBe(3);
      await page.click('[data-new-member]');
      const modal = page.locator('dialog.modal[open]');
      expect(await modal.locator('select[name="role"] option').allTextContents()).toEqual(['Contributor']);
      await modal.locator('input[name="name"]').fill('Huda Nasser');
      await modal.locator('input[name="email"]').fill(app.contributor.email);
      await modal.locator('select[name="access"]').selectOption('password');
      await modal.locator('input[name="password"]').fill('short');
      await modal.locator('button[type="submit"]').click();
      expect(await modal.locator('.field-error:not([hidden])').textContent()).toContain('at least 10 characters');
      await modal.locator('input[name="password"]').fill('Welcome-To-The-Team-1');
      await modal.locator('button[type="submit"]').click();
      await page.waitForFunction(() => document.querySelector('dialog.modal[open] .field-error:not([hidden])')?.textContent.includes('already in use'));
      await checkAndShoot(page, 'workspace-team-add-member-en-1440');
      await modal.locator('input[name="email"]').fill('huda@example.test');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      await page.locator('[data-member-id]', { hasText: 'Huda Nasser' }).waitFor();
      const signIn = await app.ws.signIn('huda@example.test', 'Welcome-To-The-Team-1');
      expect(signIn.res.body.user).toMatchObject({ role: 'contributor', mustChangePassword: true, brandIds: [app.brand.id] });
    }));

  it('when a superadmin changes a role and deletes a user through the red modal, then the table follows and the own row never offers delete', () =>
    runAs(browser(), 'admin', {
      lang: 'ar',
      prepare: async (app) => {
        const other = await app.ws.brand('Children’s Museum');
        return { other };
      },
    }, async ({ app, page, data: { other } }) => {
      await page.goto(`${app.url}/workspace/users`);
      await settled(page);
      expect(await page.locator(`tr[data-user-id="${app.admin.id}"] .button-danger-quiet`).count()).toBe(0);

      await page.locator(`tr[data-user-id="${app.contributor.id}"]`).getByRole('button', { name: /^تعديل/ }).click();
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('select[name="role"]').selectOption('manager');
      await modal.getByLabel('Children’s Museum').check();
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      const row = page.locator(`tr[data-user-id="${app.contributor.id}"]`);
      await row.locator('.role-manager').waitFor();
      expect(await row.textContent()).toContain('Children’s Museum');
      const stored = (await app.ws.as(app.admin).get('/api/members')).body.members.find((m: { id: number }) => m.id === app.contributor.id);
      expect(stored).toMatchObject({ role: 'manager', brandIds: [app.brand.id, other.id] });

      await page.locator(`tr[data-user-id="${app.manager.id}"] .button-danger-quiet`).click();
      const danger = page.locator('dialog.modal-danger[open]');
      expect(await danger.locator('.modal-message').textContent()).toContain('Omar Khalil');
      await checkAndShoot(page, 'workspace-users-delete-modal-ar-1440');
      await danger.locator('.button-danger').click();
      await page.locator(`tr[data-user-id="${app.manager.id}"]`).waitFor({ state: 'detached' });
      expect((await app.ws.as(app.admin).get('/api/members')).body.members.some((m: { id: number }) => m.id === app.manager.id)).toBe(false);
    }));

  it('when a superadmin adds a brand and tries to delete one still in use, then the refusal shows in the modal', () =>
    runAs(browser(), 'admin', {
      prepare: async (app) => {
        await app.ws.as(app.manager).post('/api/campaigns').send({ name: 'In use', brandId: app.brand.id });
      },
    }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/users`);
      await settled(page);
      await page.click('[data-new-brand]');
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('input[name="name"]').fill('Science Centre');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      await page.locator('[data-brand-id]', { hasText: 'Science Centre' }).waitFor();

      await page.getByRole('button', { name: 'Delete brand Museum of Art' }).click();
      await page.locator('dialog.modal-danger[open] .button-danger').click();
      await page.locator('dialog.modal-danger[open] .modal-error:not([hidden])').waitFor();
      expect(await page.textContent('dialog.modal-danger[open] .modal-error')).toContain('still has campaigns or posts');
      await page.keyboard.press('Escape');
      expect(await page.locator('[data-brand-id]').count()).toBe(2);
    }));
});
