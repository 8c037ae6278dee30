import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser, type Seeded } from './browser-helpers';

/** A post of the contributor's waiting for review, which tells the manager. */
async function waitingPost(app: Seeded) {
  const res = await app.ws.as(app.contributor).post('/api/posts').send({ title: 'Opening night', caption: 'Doors open at 7', status: 'review', brandId: app.brand.id, platform: 'instagram' });
  expect(res.status).toBe(201);
  return res.body.post as { id: number };
}

const card = (page: Page, title: string) => page.locator('.post-card', { hasText: title });
const modal = (page: Page) => page.locator('dialog.modal[open]');
const kindsOf = async (app: Seeded, who: 'contributor' | 'manager') =>
  ((await app.ws.as(app[who]).get('/api/notifications')).body.notifications as { kind: string }[]).map((n) => n.kind);

describeBrowser('Comments, review and notifications in a browser', () => {
  const browser = useBrowser();

  it('when a manager follows the bell to a post waiting for review, comments with a mention and sends it back with a reason, then the author is told of each and the history says so', () =>
    runAs(browser(), 'manager', { prepare: waitingPost }, async ({ app, page, data: post }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      const bell = page.locator('.ws-user [data-notifications-open]');
      await page.waitForFunction(() => document.querySelector('.ws-user [data-notifications-count]')?.textContent === '1');
      expect(await bell.getAttribute('aria-label')).toBe('Notifications, 1 unread');
      await bell.click();
      const link = modal(page).getByRole('link', { name: /Lina Farah asks you to review “Opening night”/ });
      await link.waitFor();
      await checkAndShoot(page, 'workspace-notifications-en-1440');
      await link.click();
      await page.waitForURL(/\/workspace$/);
      await modal(page).locator('.post-panel').waitFor();
      await settled(page);
      expect(await modal(page).locator('.post-details').textContent()).toContain('Doors open at 7');
      expect(await modal(page).locator('.history-list').textContent()).toContain('Lina Farah created the post as In review');
      await page.waitForFunction(() => document.querySelector('.ws-user [data-notifications-count]')?.hasAttribute('hidden'));

      await modal(page).getByLabel('Write a comment').fill('@Lina Farah the date is missing');
      await modal(page).getByLabel('Write a comment').press('Control+Enter');
      await modal(page).locator('.comment', { hasText: 'the date is missing' }).waitFor();
      await checkAndShoot(page, 'workspace-post-panel-en-1440');

      await modal(page).getByRole('button', { name: 'Send back' }).click();
      const ask = modal(page);
      await ask.getByLabel('What should change?').waitFor();
      await ask.locator('button[type="submit"]').click();
      expect(await ask.locator('.field-error:not([hidden])').textContent()).toContain('Say what should change.');
      await ask.getByLabel('What should change?').fill('Add the date and the time');
      await ask.locator('button[type="submit"]').click();
      await card(page, 'Opening night').locator('xpath=ancestor::section[@data-status="draft"]').waitFor();

      expect(await kindsOf(app, 'contributor')).toEqual(['sent_back', 'mentioned']);
      const events = (await app.ws.as(app.manager).get(`/api/posts/${post.id}/activity`)).body.events as { kind: string }[];
      expect(events.map((e) => e.kind)).toEqual(['created', 'sent_back']);
      const thread = (await app.ws.as(app.contributor).get(`/api/posts/${post.id}/comments`)).body.comments as { body: string }[];
      expect(thread.map((c) => c.body)).toEqual(['@Lina Farah the date is missing', 'Add the date and the time']);
    }));

  it('when a manager drags a post from review to Approved, then it is approved and its author is told', () =>
    runAs(browser(), 'manager', { prepare: waitingPost }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await page.dragAndDrop('.post-card:has-text("Opening night")', '.kanban-column[data-status="approved"]');
      await card(page, 'Opening night').locator('xpath=ancestor::section[@data-status="approved"]').waitFor();
      expect(await kindsOf(app, 'contributor')).toEqual(['approved']);
    }));

  it.each([
    ['en', 1440],
    ['ar', 390],
  ] as const)('when a contributor works on their post (%s, %i px), then the board offers only the moves they may make, and their comment shows in the panel', (lang, width) =>
    runAs(browser(), 'contributor', { lang, width, prepare: waitingPost }, async ({ app, page, data: post }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await card(page, 'Opening night').locator('.post-move').click();
      const items = await page.locator('[role="menu"]:not([hidden]) [role="menuitem"]').allTextContents();
      expect(items).toHaveLength(2);
      expect(items.join(' ')).not.toMatch(lang === 'en' ? /Approved|Scheduled|Published/ : /موافق|مجدول|منشور/);
      await page.keyboard.press('Escape');

      await page.dragAndDrop('.post-card:has-text("Opening night")', '.kanban-column[data-status="published"]');
      await settled(page);
      expect(await page.locator('dialog.modal[open]').count()).toBe(0);
      expect((await app.ws.as(app.contributor).get(`/api/posts/${post.id}`)).body.post.status).toBe('review');

      await card(page, 'Opening night').locator('.post-open').click();
      await modal(page).locator('.post-panel').waitFor();
      await settled(page);
      const text = lang === 'en' ? 'Ready when you are' : 'جاهز للمراجعة';
      await modal(page).locator('textarea.comment-input').fill(text);
      await modal(page).locator('.comment-send').click();
      await modal(page).locator('.comment', { hasText: text }).waitFor();
      expect(await modal(page).locator('.post-panel-actions').textContent()).toContain(lang === 'en' ? 'Waiting for a manager’s review.' : 'بانتظار مراجعة أحد المديرين.');
      await checkAndShoot(page, `workspace-post-panel-contributor-${lang}-${width}`);
      expect(await kindsOf(app, 'manager')).toEqual(['review_requested']);
    }));

  it('when a task link from a notification is opened, then its comments open, and a comment sent there reaches its owner', () =>
    runAs(
      browser(),
      'contributor',
      {
        lang: 'ar',
        width: 390,
        prepare: async (app) => (await app.ws.as(app.manager).post('/api/tasks').send({ title: 'Print the poster', brandId: app.brand.id, assigneeId: app.contributor.id })).body.task as { id: number },
      },
      async ({ app, page, data: task }) => {
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        await page.locator('.ws-mobilebar [data-notifications-open]').click();
        await modal(page).getByRole('link', { name: /Print the poster/ }).click();
        await page.waitForURL(/\/workspace\/tasks$/);
        await modal(page).locator('.thread').waitFor();
        await settled(page);
        await modal(page).locator('textarea.comment-input').fill('سأطبعه غدًا');
        await modal(page).locator('.comment-send').click();
        await modal(page).locator('.comment', { hasText: 'سأطبعه غدًا' }).waitFor();
        await checkAndShoot(page, 'workspace-task-comments-ar-390');
        expect((await app.ws.as(app.manager).get(`/api/tasks/${task.id}/comments`)).body.comments).toMatchObject([{ body: 'سأطبعه غدًا' }]);
        expect(await kindsOf(app, 'manager')).toEqual(['commented']);
      },
    ));
});
