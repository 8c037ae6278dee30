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

  it('when a manager ticks one card and shift-clicks a third, then three are selected, moving them approves all three in one go, and Undo puts them back in review', () =>
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
      expect(await page.locator('[data-undo-text]').textContent()).toBe('3 posts moved to Approved.');
      await checkAndShoot(page, 'workspace-board-undo-en-1440');
      await page.locator('[data-undo-button]').click();
      await page.locator('.kanban-column[data-status="review"] .post-card').nth(4).waitFor();
      expect(await Promise.all(ids.map((id) => statusOf(app, id)))).toEqual(['review', 'review', 'review', 'review', 'review']);
      await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent === '3 posts are back where they were.');
      expect(await page.locator('[data-undo-button]').isVisible()).toBe(false);
    }));

  it('when nobody presses Undo, then it goes after ten seconds and the posts stay moved', () =>
    runAs(browser(), 'manager', { prepare: (app) => waiting(app, 2) }, async ({ app, page, data: ids }) => {
      await page.clock.install();
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await box(page, 'Post 1').check();
      await box(page, 'Post 2').check();
      await page.selectOption('[data-bulk-status]', 'draft');
      await page.click('[data-bulk-move]');
      // Both are the contributor's: sending them back asks why.
      await page.locator('dialog.modal[open] textarea[name="comment"]').fill('Later');
      await page.locator('dialog.modal[open] button[type="submit"]').click();
      await page.locator('[data-undo-button]').waitFor();
      await page.clock.runFor(9_000);
      expect(await page.locator('[data-undo-button]').isVisible()).toBe(true);
      await page.clock.runFor(1_500);
      expect(await page.locator('[data-undo-button]').isVisible()).toBe(false);
      expect(await Promise.all(ids.map((id) => statusOf(app, id)))).toEqual(['draft', 'draft']);
    }));

  it('when a contributor takes their approved posts back to draft, then no Undo is offered: they may not approve them again', () =>
    runAs(
      browser(),
      'contributor',
      {
        prepare: async (app) => {
          const ids = await waiting(app, 2);
          expect((await app.ws.as(app.manager).patch('/api/posts').send({ ids, status: 'approved' })).status).toBe(200);
          return ids;
        },
      },
      async ({ app, page, data: ids }) => {
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        await page.locator('.kanban-column[data-status="approved"] [data-select-column]').check();
        await page.selectOption('[data-bulk-status]', 'draft');
        await page.click('[data-bulk-move]');
        await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent === '2 posts moved to Draft.');
        expect(await page.locator('[data-undo-button]').isVisible()).toBe(false);
        expect(await Promise.all(ids.map((id) => statusOf(app, id)))).toEqual(['draft', 'draft']);
      },
    ));

  it('when a column\'s box is ticked, then all its cards the user may change are picked, part of them shows it as mixed, and Escape lets go of them all', () =>
    runAs(
      browser(),
      'contributor',
      {
        prepare: async (app) => {
          await waiting(app, 3);
          // A colleague's post in the same column: seen, never picked.
          const theirs = await app.ws.as(app.manager).post('/api/posts').send({ title: 'Theirs', status: 'review', brandId: app.brand.id });
          expect(theirs.status).toBe(201);
        },
      },
      async ({ page, app }) => {
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        const all = page.locator('.kanban-column[data-status="review"] [data-select-column]');
        expect(await all.getAttribute('aria-label')).toBe('Select all posts in In review');
        expect(await page.locator('.kanban-column[data-status="draft"] [data-select-column]').isVisible()).toBe(false);
        await all.check();
        expect(await page.locator('[data-bulk-count]').textContent()).toBe('3 posts selected');
        expect(await card(page, 'Theirs').locator('.post-select').count()).toBe(0);
        await box(page, 'Post 2').uncheck();
        expect(await all.evaluate((b) => [(b as HTMLInputElement).checked, (b as HTMLInputElement).indeterminate])).toEqual([false, true]);
        await box(page, 'Post 1').focus();
        await page.keyboard.press('Escape');
        expect(await page.locator('[data-bulk]').isHidden()).toBe(true);
        expect(await page.locator('.post-card.is-selected').count()).toBe(0);
        expect(await all.evaluate((b) => [(b as HTMLInputElement).checked, (b as HTMLInputElement).indeterminate])).toEqual([false, false]);
        // The focus stays where it was, on the box.
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Select “Post 1”');
        expect(await page.textContent('#ws-toast')).toBe('Selection cleared.');
        // Escape in an open menu closes the menu and keeps the selection.
        await box(page, 'Post 3').check();
        await card(page, 'Post 3').locator('.post-move').click();
        await page.keyboard.press('Escape');
        expect(await page.locator('[data-bulk-count]').textContent()).toBe('1 post selected');
      },
    ));

  it('when the selection spans two brands or holds a post without a date, then the bar offers only what the server accepts for all: no other brand\'s campaign, no Scheduled', () =>
    runAs(
      browser(),
      'manager',
      {
        prepare: async (app) => {
          const other = await app.ws.brand('Museum of History');
          await app.ws.members.update(app.manager.id, { brandIds: [app.brand.id, other.id] });
          const art = (await app.ws.as(app.manager).post('/api/campaigns').send({ name: 'Art nights', brandId: app.brand.id })).body.campaign;
          await app.ws.as(app.manager).post('/api/campaigns').send({ name: 'History days', brandId: other.id });
          const post = async (title: string, brandId: number, scheduledAt: string | null) =>
            expect((await app.ws.as(app.manager).post('/api/posts').send({ title, status: 'approved', brandId, scheduledAt })).status).toBe(201);
          await post('Dated art', app.brand.id, '2026-06-20T17:00:00Z');
          await post('Undated art', app.brand.id, null);
          await post('Dated history', other.id, '2026-06-21T17:00:00Z');
          return art as { id: number };
        },
      },
      async ({ page, app, data: art }) => {
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        const offered = async (select: string) => page.locator(`${select} option`).allTextContents();
        await box(page, 'Dated art').check();
        expect(await offered('[data-bulk-status]')).toContain('Scheduled');
        expect(await offered('[data-bulk-campaign]')).toEqual(['Campaign…', 'No campaign', 'Art nights · Museum of Art']);
        await box(page, 'Undated art').check();
        expect(await offered('[data-bulk-status]')).not.toContain('Scheduled');
        await box(page, 'Dated history').check();
        expect(await offered('[data-bulk-campaign]')).toEqual(['Campaign…', 'No campaign']);
        await box(page, 'Dated history').uncheck();
        await page.selectOption('[data-bulk-campaign]', String(art.id));
        await page.click('[data-bulk-assign]');
        await page.waitForFunction(() => document.querySelector('[data-bulk]')?.hasAttribute('hidden'));
        const campaigns = ((await app.ws.as(app.manager).get('/api/posts')).body.posts as { title: string; campaignId: number | null }[]).map((p) => [p.title, p.campaignId]);
        expect(campaigns).toEqual([
          ['Dated history', null],
          ['Undated art', art.id],
          ['Dated art', art.id],
        ]);
      },
    ));

  for (const lang of ['en', 'ar'] as const) {
    it(`when a contributor sends 20 posts to review at once (${lang}), then the manager's bell holds one notification that counts them`, () =>
      runAs(
        browser(),
        'manager',
        {
          lang,
          prepare: async (app) => {
            const ids: number[] = [];
            for (let i = 1; i <= 20; i += 1) ids.push((await app.ws.as(app.contributor).post('/api/posts').send({ title: `Post ${i}`, brandId: app.brand.id })).body.post.id);
            expect((await app.ws.as(app.contributor).patch('/api/posts').send({ ids, status: 'review' })).status).toBe(200);
          },
        },
        async ({ page, app }) => {
          await page.goto(`${app.url}/workspace`);
          await settled(page);
          await page.locator('.ws-user [data-notifications-count]:not([hidden])').waitFor();
          await page.locator('.ws-user [data-notifications-open]').click();
          const item = page.locator('dialog.modal[open] .notification');
          await item.waitFor();
          expect(await item.count()).toBe(1);
          expect(await item.locator('.notification-text').textContent()).toBe(lang === 'en' ? 'Lina Farah sent 20 posts to review' : 'أرسل Lina Farah 20 منشورًا للمراجعة');
          expect(await item.getAttribute('href')).toBe('/workspace');
          await checkAndShoot(page, `workspace-notifications-bulk-${lang}-1440`);
        },
      ));
  }

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
      const review = page.locator('.kanban-column[data-status="review"]');
      expect(await review.locator('[data-count]').textContent()).toBe('300');
      // The cards past the first screen are drawn while the browser is idle, so the test waits for the last of them.
      await expect.poll(() => review.locator('.post-card').count(), { timeout: 30_000 }).toBe(300);
      const sizes = await page.evaluate(() => {
        const list = document.querySelector('.kanban-column[data-status="review"] .kanban-cards')!;
        return { page: document.documentElement.scrollHeight, window: window.innerHeight, list: list.scrollHeight, shown: list.clientHeight };
      });
      expect(sizes.page).toBeLessThanOrEqual(sizes.window + 40);
      expect(sizes.list).toBeGreaterThan(sizes.shown * 5);
    }));
});
