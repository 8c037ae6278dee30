import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser, type Seeded } from './browser-helpers';

/** `n` posts of the contributor's, waiting for review, titled "Post 1"… */
async function waiting(app: Seeded, n = 5) {
  const ids: number[] = [];
  for (let i = 1; i <= n; i += 1) {
    const res = await app.ws.as(app.contributor).post('/api/posts').send({ title: `Post ${i}`, status: 'review', brandId: app.brand.id });
    expect(res.status).toBe(201);
    ids.push(res.body.post.id);
  }
  return ids;
}

const card = (page: Page, title: string) => page.locator('.post-card').filter({ has: page.locator('.post-title', { hasText: new RegExp(`^${title}$`) }) });
const box = (page: Page, title: string) => card(page, title).locator('.post-select');
const statusOf = async (app: Seeded, id: number) => (await app.ws.as(app.manager).get(`/api/posts/${id}`)).body.post?.status as string | undefined;

describeBrowser('Bulk actions on the board in a browser', () => {
  const browser = useBrowser();

  it('when a manager ticks one card and shift-clicks a third, then three are selected, and moving them approves all three in one go', () =>
    runAs(browser(), 'manager', { prepare: (app) => waiting(app) }, async ({ app, page, data: ids }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      expect(await page.locator('[data-bulk]').isHidden()).toBe(true);
      // Newest first in the column: Post 5 … Post 1.
      await box(page, 'Post 5').click();
      await box(page, 'Post 3').click({ modifiers: ['Shift'] });
      expect(await page.locator('[data-bulk-count]').textContent()).toBe('3 posts selected');
      expect(await page.locator('.post-card.is-selected').count()).toBe(3);
      await checkAndShoot(page, 'workspace-board-bulk-en-1440');
      await page.selectOption('[data-bulk-status]', 'approved');
      await page.click('[data-bulk-move]');
      await page.locator('.kanban-column[data-status="approved"] .post-card').nth(2).waitFor();
      expect(await page.locator('[data-bulk]').isHidden()).toBe(true);
      expect(await Promise.all(ids.map((id) => statusOf(app, id)))).toEqual(['review', 'review', 'approved', 'approved', 'approved']);
      expect(await page.locator('#ws-toast').textContent()).toBe('3 posts moved to Approved.');
    }));

  it('when a manager sends two posts back, then one reason is asked for, required, and goes to both', () =>
    runAs(browser(), 'manager', { prepare: (app) => waiting(app, 2) }, async ({ app, page, data: ids }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await box(page, 'Post 1').check();
      await box(page, 'Post 2').check();
      await page.selectOption('[data-bulk-status]', 'draft');
      await page.click('[data-bulk-move]');
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('button[type="submit"]').click();
      expect(await modal.locator('.field-error:not([hidden])').textContent()).toContain('Say what should change.');
      await modal.locator('textarea[name="comment"]').fill('Wrong dates on both');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      await page.locator('.kanban-column[data-status="draft"] .post-card').nth(1).waitFor();
      for (const id of ids) {
        expect(await statusOf(app, id)).toBe('draft');
        expect((await app.ws.as(app.contributor).get(`/api/posts/${id}/comments`)).body.comments).toMatchObject([{ body: 'Wrong dates on both' }]);
      }
    }));

  it('when cards are picked from the keyboard and deleted, then one modal asks once and all go', () =>
    runAs(browser(), 'contributor', { prepare: (app) => waiting(app, 4) }, async ({ app, page, data: ids }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      for (const title of ['Post 4', 'Post 2', 'Post 1']) {
        await box(page, title).focus();
        await page.keyboard.press('Space');
      }
      expect(await page.locator('[data-bulk-count]').textContent()).toBe('3 posts selected');
      // A contributor is offered only their own moves, publishing never in bulk.
      const offered = await page.locator('[data-bulk-status] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
      expect(offered).toEqual(['', 'idea', 'draft']);
      await page.click('[data-bulk-delete]');
      const modal = page.locator('dialog.modal-danger[open]');
      expect(await modal.locator('.modal-title').textContent()).toBe('Delete 3 posts?');
      await modal.locator('.button-danger').click();
      await modal.waitFor({ state: 'detached' });
      await card(page, 'Post 1').waitFor({ state: 'detached' });
      expect(await Promise.all(ids.map((id) => statusOf(app, id)))).toEqual([undefined, undefined, 'review', undefined]);
      expect(await page.locator('.post-card').count()).toBe(1);
    }));

  it('when posts are put into a campaign in Arabic at 390 px, then the bar fits the screen and the posts take the campaign', () =>
    runAs(
      browser(),
      'manager',
      {
        lang: 'ar',
        width: 390,
        prepare: async (app) => {
          const ids = await waiting(app, 2);
          const campaign = (await app.ws.as(app.manager).post('/api/campaigns').send({ name: 'حملة الصيف', brandId: app.brand.id })).body.campaign as { id: number };
          return { ids, campaign };
        },
      },
      async ({ app, page, data: { ids, campaign } }) => {
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        await box(page, 'Post 1').check();
        await box(page, 'Post 2').check();
        expect(await page.locator('[data-bulk-count]').textContent()).toBe('منشوران محددان');
        const bar = (await page.locator('[data-bulk]').boundingBox())!;
        expect(bar.x).toBeGreaterThanOrEqual(0);
        expect(bar.x + bar.width).toBeLessThanOrEqual(390);
        await checkAndShoot(page, 'workspace-board-bulk-ar-390');
        await page.selectOption('[data-bulk-campaign]', String(campaign.id));
        await page.click('[data-bulk-assign]');
        await page.waitForFunction(() => document.querySelector('[data-bulk]')?.hasAttribute('hidden'));
        for (const id of ids) expect((await app.ws.as(app.manager).get(`/api/posts/${id}`)).body.post.campaignId).toBe(campaign.id);
      },
    ));

  it('when the board holds 300 posts, then it stays one screen tall and each column scrolls on its own', () =>
    runAs(browser(), 'manager', { prepare: (app) => waiting(app, 300) }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      expect(await page.locator('.kanban-column[data-status="review"] .post-card').count()).toBe(300);
      const sizes = await page.evaluate(() => {
        const list = document.querySelector('.kanban-column[data-status="review"] .kanban-cards')!;
        return { page: document.documentElement.scrollHeight, window: window.innerHeight, list: list.scrollHeight, shown: list.clientHeight };
      });
      expect(sizes.page).toBeLessThanOrEqual(sizes.window + 40);
      expect(sizes.list).toBeGreaterThan(sizes.shown * 5);
    }));
});
