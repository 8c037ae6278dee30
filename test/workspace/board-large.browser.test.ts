import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import { POST_STATUSES } from '../../src/workspace/domain';
import { SqlPostRepository } from '../../src/workspace/posts/repository';
import { countsSeen, idleDrawingStopped, runAs, scrollUntilDrawn, settled, useBrowser, watchCounts, type Seeded } from './browser-helpers';

const COUNT = 1_000;

/** `count` posts of the manager's, spread over the six columns (stored directly: a thousand API calls would take a minute). */
async function postsInEveryColumn(app: Seeded, count: number) {
  const posts = new SqlPostRepository(app.ws.stores.records.workspace);
  const now = new Date(app.ws.clock.now()).toISOString();
  let last: { id: number; title: string } | null = null;
  for (let i = 0; i < count; i++) {
    const status = POST_STATUSES[i % POST_STATUSES.length];
    const made = await posts.create({
      brandId: app.brand.id,
      campaignId: null,
      title: `Post ${i + 1} of ${count}`,
      caption: 'A caption of a usual length.',
      platform: 'instagram',
      status,
      scheduledAt: status === 'scheduled' ? now : null,
      publicationUrl: status === 'published' ? 'https://museum.example/p/1' : null,
      ownerId: app.manager.id,
      attachments: [],
      createdAt: now,
    });
    // The column shows the newest first: the first idea made is its last card.
    if (status === 'idea') last ??= { id: made.id, title: made.title };
  }
  return { last: last! };
}

const thousandPosts = (app: Seeded) => postsInEveryColumn(app, COUNT);

const column = (page: Page, status: string) => page.locator(`.kanban-column[data-status="${status}"]`);

describeBrowser('Board /workspace with long columns, and columns out of sight, in a browser', () => {
  const browser = useBrowser();

  it('when the board holds 1,000 posts, then its first screen shows without drawing every card, no more than a few hundred are drawn until a column is scrolled, the counts say 1,000, and the last card of a column is reached by scrolling and by a search link, and moved', { timeout: 180_000 }, () =>
    runAs(browser(), 'manager', { width: 1440, prepare: thousandPosts }, async ({ app, page, data: { last } }) => {
      await page.goto(`${app.url}/workspace`);
      await page.locator('.post-card').first().waitFor();
      const firstScreen = await page.evaluate(() => ({ at: performance.now(), cards: document.querySelectorAll('.post-card').length }));
      expect(firstScreen.cards, 'cards drawn for the first screen').toBeLessThan(COUNT);
      expect(firstScreen.at, 'ms from navigation to the first screen').toBeLessThan(10_000);
      await settled(page);
      const counts = await page.locator('[data-count]').allTextContents();
      expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(COUNT);
      expect(Number(await column(page, 'idea').locator('[data-count]').textContent())).toBe(Math.ceil(COUNT / POST_STATUSES.length));

      // While the browser is idle the board draws up to a few hundred cards, which keeps a
      // post's panel quick to open; scrolling down a column (each scrolls on its own) draws it to its end.
      await idleDrawingStopped(page, '.post-card');
      const far = column(page, 'idea').locator(`.post-card[data-post-id="${last.id}"]`);
      await scrollUntilDrawn(page, '.kanban-column[data-status="idea"] .kanban-cards', `.post-card[data-post-id="${last.id}"]`, 1);
      expect(await column(page, 'idea').locator('.post-card').count()).toBe(Math.ceil(COUNT / POST_STATUSES.length));

      // A search result links the post: its card is drawn and its panel opens.
      await page.goto(`${app.url}/workspace?post=${last.id}`);
      await page.locator('dialog.modal[open]', { hasText: last.title }).waitFor();
      expect(await page.locator(`.post-card[data-post-id="${last.id}"]`).count()).toBe(1);
      await page.keyboard.press('Escape');
      await page.locator('dialog.modal[open]').waitFor({ state: 'detached' });

      // Moved from its menu, it lands in Draft, keeps the focus, and the counts follow.
      await far.getByRole('button', { name: `Move “${last.title}”` }).click();
      await page.getByRole('menuitem', { name: 'Move to Draft' }).click();
      await column(page, 'draft').locator(`.post-card[data-post-id="${last.id}"]`).waitFor();
      expect(await page.evaluate(() => document.activeElement?.closest('.post-card')?.getAttribute('data-post-id'))).toBe(String(last.id));
      expect(Number(await column(page, 'draft').locator('[data-count]').textContent())).toBe(Math.ceil(COUNT / POST_STATUSES.length) + 1);
      expect((await app.ws.as(app.manager).get(`/api/posts/${last.id}`)).body.post.status).toBe('draft');
    }));

  it('when the board opens on a phone, then the columns out of sight get their cards after those in sight, each column gets them without being scrolled to, and the last shows them when scrolled to', () =>
    runAs(browser(), 'manager', { width: 390, prepare: (app) => postsInEveryColumn(app, 6 * POST_STATUSES.length) }, async ({ app, page }) => {
      await watchCounts(page, '.kanban-column', '.post-card');
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      const seen = await countsSeen(page);
      const [firstDrawn] = seen;
      expect(firstDrawn[0], 'the first column, in sight').toBe(6);
      expect(firstDrawn.slice(2), 'the columns beyond the second, out of sight').toEqual([0, 0, 0, 0]);
      expect(seen.at(-1), 'every column, none scrolled to').toEqual(POST_STATUSES.map(() => 6));

      const lastColumn = column(page, POST_STATUSES.at(-1)!);
      await lastColumn.scrollIntoViewIfNeeded();
      await expect.poll(() => lastColumn.locator('.post-card').first().isVisible()).toBe(true);
    }));
});
