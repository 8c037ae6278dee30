import { expect, it } from 'vitest';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser, type Seeded } from './browser-helpers';

/** A campaign with three posts and two tracks, and a second one that must survive. */
async function campaignWithContent(app: Seeded) {
  const manager = app.ws.as(app.manager);
  const campaign = (await manager.post('/api/campaigns').send({ name: 'Autumn lectures', brandId: app.brand.id, startDate: '2026-09-01', endDate: '2026-11-30', status: 'active', description: 'Weekly evening talks with the curators.' })).body.campaign;
  const keep = (await manager.post('/api/campaigns').send({ name: 'Family Saturdays', brandId: app.brand.id })).body.campaign;
  for (const title of ['Speaker line-up', 'Ticket reminder', 'Thank-you note']) {
    expect((await manager.post('/api/posts').send({ title, campaignId: campaign.id })).status).toBe(201);
  }
  for (const name of ['Radio', 'Newsletter']) {
    expect((await manager.post(`/api/campaigns/${campaign.id}/tracks`).send({ name, channel: name })).status).toBe(201);
  }
  return { campaign, keep };
}

describeBrowser('Campaigns /workspace/campaigns in a browser', () => {
  const browser = useBrowser();

  it('when a manager deletes a campaign, then the red modal counts its posts and tracks first, Escape keeps it, and confirming deletes all of it', () =>
    runAs(browser(), 'manager', { prepare: campaignWithContent }, async ({ app, page, data: { campaign, keep } }) => {
      await page.goto(`${app.url}/workspace/campaigns`);
      await settled(page);
      await checkAndShoot(page, 'workspace-campaigns-manager-en-1440');
      const remove = page.getByRole('button', { name: 'Delete Autumn lectures' });
      await remove.click();
      const modal = page.locator('dialog.modal.modal-danger[open]');
      await modal.waitFor();
      expect(await modal.getAttribute('role')).toBe('alertdialog');
      expect(await modal.locator('.modal-message').textContent()).toBe('“Autumn lectures” will be deleted together with 3 posts and 2 tracks. This cannot be undone.');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
      expect(await modal.locator('.button-danger').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(180, 35, 24)');
      await checkAndShoot(page, 'workspace-campaigns-delete-modal-en-1440');
      await page.keyboard.press('Escape');
      await modal.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Delete Autumn lectures');
      expect((await app.ws.as(app.manager).get(`/api/campaigns/${campaign.id}`)).status).toBe(200);

      await remove.click();
      await modal.locator('.button-danger').click();
      await modal.waitFor({ state: 'detached' });
      await page.locator('[data-campaign-id]', { hasText: 'Autumn lectures' }).waitFor({ state: 'detached' });
      expect(await page.textContent('#ws-toast')).toContain('deleted with 3 posts and 2 tracks');
      expect((await app.ws.as(app.manager).get(`/api/campaigns/${campaign.id}`)).status).toBe(404);
      expect((await app.ws.as(app.manager).get(`/api/posts?campaignId=${campaign.id}`)).body.posts).toEqual([]);
      expect((await app.ws.as(app.manager).get(`/api/campaigns/${keep.id}`)).status).toBe(200);
    }));

  it('when a manager creates a campaign and adds a track in Arabic, then both show, with the dates in Arabic', () =>
    runAs(browser(), 'manager', { lang: 'ar', width: 390 }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/campaigns`);
      await settled(page);
      await page.click('[data-new-campaign]');
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('input[name="name"]').fill('ليالي رمضان');
      await modal.locator('input[name="startDate"]').fill('2026-03-01');
      await modal.locator('input[name="endDate"]').fill('2026-02-01');
      await modal.locator('button[type="submit"]').click();
      expect(await modal.locator('.field-error:not([hidden])').textContent()).toContain('تاريخ الانتهاء');
      await modal.locator('input[name="endDate"]').fill('2026-03-30');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      const item = page.locator('[data-campaign-id]', { hasText: 'ليالي رمضان' });
      await item.waitFor();
      expect(await item.textContent()).toMatch(/مارس/);
      await item.getByRole('button', { name: 'إضافة مسار إلى ليالي رمضان' }).click();
      await modal.locator('input[name="name"]').fill('إعلانات الإذاعة');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      await item.locator('.track', { hasText: 'إعلانات الإذاعة' }).waitFor();
      await checkAndShoot(page, 'workspace-campaigns-manager-ar-390');
    }));

  it('when a contributor opens the campaigns, then there is no delete, edit or new button, only the posts link', () =>
    runAs(browser(), 'contributor', { prepare: campaignWithContent }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/campaigns`);
      await settled(page);
      expect(await page.locator('[data-campaign-id]').count()).toBe(2);
      expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /^Edit/ }).count()).toBe(0);
      expect(await page.locator('[data-new-campaign]').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Posts of Autumn lectures' }).count()).toBe(1);
    }));

  it('when the server answers 403 to a page script (the manager was demoted while the confirmation was open), then the user is signed out and sent to /login', () =>
    runAs(browser(), 'manager', { prepare: campaignWithContent }, async ({ app, page, data: { campaign } }) => {
      await page.goto(`${app.url}/workspace/campaigns`);
      await settled(page);
      await page.getByRole('button', { name: 'Delete Autumn lectures' }).click();
      // The confirmation opens once the campaign's content is counted: the demotion comes after.
      await page.locator('dialog.modal-danger[open]').waitFor();
      expect((await app.ws.as(app.admin).patch(`/api/members/${app.manager.id}`).send({ role: 'contributor' })).status).toBe(200);
      // The open dialog is not taken away: it says the page reloads once it closes.
      await page.locator('dialog.modal-danger[open] .live-notice[role="alert"]').waitFor();
      const deleteAnswer = page.waitForResponse((r) => r.request().method() === 'DELETE');
      await page.locator('dialog.modal-danger[open] .button-danger').click();
      expect((await deleteAnswer).status()).toBe(403);
      await page.waitForURL(`${app.url}/login`);
      expect((await app.ws.as(app.admin).get(`/api/campaigns/${campaign.id}`)).status).toBe(200);
      await page.goto(`${app.url}/workspace`);
      expect(new URL(page.url()).pathname).toBe('/login');
    }));

  it('when the session is gone and a page script gets 401, then it goes to /login', () =>
    runAs(browser(), 'contributor', { prepare: campaignWithContent }, async ({ app, page }) => {
      await page.route('**/api/members', (route) => route.fulfill({ status: 401, contentType: 'application/json', body: '{"error":"Sign in first"}' }));
      await page.goto(`${app.url}/workspace/team`);
      await page.waitForURL(`${app.url}/login`);
    }));
});
