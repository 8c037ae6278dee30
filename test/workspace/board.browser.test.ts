import { request } from '../support/http';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import type { TestUser } from '../support/workspace';
import { checkAndShoot, runAs, settled, useBrowser, type Seeded } from './browser-helpers';

async function picture(): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 450, channels: 3, background: { r: 14, g: 147, b: 132 } } }).jpeg().toBuffer();
}

/** A campaign with posts in several columns; the scheduled one has an image attached. */
async function boardData(app: Seeded) {
  const as = (user: TestUser) => app.ws.as(user);
  const campaign = (await as(app.manager).post('/api/campaigns').send({ name: 'Summer nights', brandId: app.brand.id })).body.campaign;
  const other = (await as(app.manager).post('/api/campaigns').send({ name: 'School visits', brandId: app.brand.id })).body.campaign;
  const upload = await request(app.ws.app)
    .post('/api/assets')
    .set('Authorization', `Bearer ${app.contributor.token}`)
    .field('brandId', String(app.brand.id))
    .attach('files', await picture(), { filename: 'poster.jpg', contentType: 'image/jpeg' });
  expect(upload.status).toBe(201);
  const post = async (user: TestUser, body: object) => {
    const res = await as(user).post('/api/posts').send(body);
    expect(res.status).toBe(201);
    return res.body.post;
  };
  const written = await post(app.contributor, {
    title: 'Opening night poster',
    status: 'review',
    platform: 'instagram',
    campaignId: campaign.id,
    scheduledAt: '2026-06-20T17:00:00Z',
    attachments: [upload.body.assets[0].id],
  });
  // Past review only by a manager's hand.
  const scheduled = await as(app.manager).patch(`/api/posts/${written.id}`).send({ status: 'scheduled' });
  expect(scheduled.status).toBe(200);
  const poster = scheduled.body.post;
  const reel = await post(app.manager, { title: 'Behind the scenes reel', status: 'draft', platform: 'tiktok', campaignId: campaign.id });
  const letter = await post(app.manager, { title: 'Letter to schools', status: 'idea', platform: 'email', campaignId: other.id });
  return { campaign, other, poster, reel, letter };
}

/** Items of the open menu that are not wholly in view and on top: the sideways-scrolling board must never clip one. */
function hiddenMenuItems(page: Page): Promise<(string | null)[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[role="menu"]:not([hidden]) [role="menuitem"]')]
      .filter((item) => {
        const r = item.getBoundingClientRect();
        const inView = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
        return !inView || document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) !== item;
      })
      .map((item) => item.textContent),
  );
}

const column = (page: Page, status: string) => page.locator(`.kanban-column[data-status="${status}"]`);
const card = (page: Page, title: string) => page.locator('.post-card', { hasText: title });

describeBrowser('Board /workspace in a browser', () => {
  const browser = useBrowser();

  it('when a card is dragged to Published, then the modal asks for the link, shows the server\'s refusal of a bad one, and a good one publishes it', () =>
    runAs(browser(), 'manager', { prepare: boardData }, async ({ app, page, data: { poster } }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      const thumb = card(page, 'Opening night poster').locator('img.post-thumb');
      expect(await thumb.getAttribute('src')).toBe(poster.thumbnailUrl);
      await page.waitForFunction((src) => [...document.images].some((img) => img.getAttribute('src') === src && img.naturalWidth > 0), poster.thumbnailUrl);
      expect(await card(page, 'Opening night poster').textContent()).toContain('Summer nights');
      expect(await card(page, 'Opening night poster').textContent()).toContain('Instagram');
      expect(await card(page, 'Opening night poster').getByRole('img', { name: 'Owner: Lina Farah' }).count()).toBe(1);
      await checkAndShoot(page, 'workspace-board-en-1440');

      await page.dragAndDrop('.post-card:has-text("Opening night poster")', '.kanban-column[data-status="published"]');
      const modal = page.locator('dialog.modal[open]');
      await modal.waitFor();
      await modal.locator('input[name="publicationUrl"]').fill('instagram.com/p/opening');
      await modal.locator('button[type="submit"]').click();
      await modal.locator('.field-error:not([hidden])').waitFor();
      expect(await modal.locator('.field-error:not([hidden])').textContent()).toContain('starting with https://');
      await checkAndShoot(page, 'workspace-board-publish-error-en-1440');
      await modal.locator('input[name="publicationUrl"]').fill('');
      await modal.locator('button[type="submit"]').click();
      await page.waitForFunction(() => document.querySelector('dialog.modal[open] .field-error:not([hidden])')?.textContent?.includes('needs the link'));
      await modal.locator('input[name="publicationUrl"]').fill('https://www.instagram.com/p/opening-night');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      await card(page, 'Opening night poster').locator('xpath=ancestor::section[@data-status="published"]').waitFor();
      const stored = await app.ws.as(app.manager).get(`/api/posts/${poster.id}`);
      expect(stored.body.post).toMatchObject({ status: 'published', publicationUrl: 'https://www.instagram.com/p/opening-night' });
    }));

  it.each([
    ['en', 1440],
    ['ar', 390],
  ] as const)('when a post gets media from Assets and from an upload, reordered and one removed (%s, %i px), then the card shows the first picture', (lang, width) =>
    runAs(browser(), 'contributor', { lang, width, prepare: boardData }, async ({ app, page }) => {
      const strings = lang === 'en'
        ? { fromLibrary: 'Add from Assets', add: 'Add poster.jpg', earlier: 'Earlier: wall.png', remove: 'Remove poster.jpg' }
        : { fromLibrary: 'إضافة من الأصول', add: 'إضافة poster.jpg', earlier: 'تقديم: wall.png', remove: 'إزالة poster.jpg' };
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await page.click('[data-new-post]');
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('input[name="title"]').fill('Gallery night');
      await modal.getByRole('button', { name: strings.fromLibrary }).click();
      await modal.getByRole('button', { name: strings.add }).click();
      await modal.locator('input[type="file"]').setInputFiles({ name: 'wall.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 600, height: 400, channels: 3, background: '#c0392b' } }).png().toBuffer() });
      await modal.locator('.media-item', { hasText: 'wall.png' }).waitFor();
      expect(await modal.locator('.media-item .media-name').allTextContents()).toEqual(['poster.jpg', 'wall.png']);
      await modal.getByRole('button', { name: strings.earlier }).click();
      expect(await modal.locator('.media-item .media-name').allTextContents()).toEqual(['wall.png', 'poster.jpg']);
      await checkAndShoot(page, `workspace-post-media-${lang}-${width}`);
      await modal.getByRole('button', { name: strings.remove }).click();
      expect(await modal.locator('.media-item .media-name').allTextContents()).toEqual(['wall.png']);
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      const created = (await app.ws.as(app.contributor).get('/api/posts')).body.posts.find((p: { title: string }) => p.title === 'Gallery night');
      const assets = (await app.ws.as(app.contributor).get('/api/assets')).body.assets as { id: number; name: string; thumbnailUrl: string }[];
      const wall = assets.find((a) => a.name === 'wall.png')!;
      expect(created.attachments).toEqual([wall.id]);
      expect(created.thumbnailUrl).toBe(wall.thumbnailUrl);
      expect(await card(page, 'Gallery night').locator('img.post-thumb').getAttribute('src')).toBe(wall.thumbnailUrl);
    }));

  it('when a post with media is edited, then its media show in order and can be taken off, and the card follows', () =>
    runAs(browser(), 'contributor', { prepare: boardData }, async ({ app, page, data: { poster } }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await card(page, 'Opening night poster').locator('.post-open').click();
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('.post-panel [data-edit]').click();
      await modal.locator('.media-item', { hasText: 'poster.jpg' }).waitFor();
      await modal.getByRole('button', { name: 'Remove poster.jpg' }).click();
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      const stored = await app.ws.as(app.contributor).get(`/api/posts/${poster.id}`);
      expect(stored.body.post, stored.text).toMatchObject({ attachments: [], thumbnailUrl: null });
      expect(await card(page, 'Opening night poster').locator('img.post-thumb').count()).toBe(0);
    }));

  it('when the move menu is used from the keyboard, then the card changes column through the API and keeps the focus', () =>
    runAs(browser(), 'manager', { width: 390, prepare: boardData }, async ({ app, page, data: { reel } }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      const move = card(page, 'Behind the scenes reel').getByRole('button', { name: 'Move “Behind the scenes reel”' });
      await move.focus();
      await page.keyboard.press('Enter');
      await page.locator('[role="menu"]:visible').waitFor();
      await checkAndShoot(page, 'workspace-board-move-menu-en-390');
      expect(await hiddenMenuItems(page)).toEqual([]);
      expect(await page.locator('[role="menuitem"]:visible').count()).toBe(5);
      await page.keyboard.press('ArrowDown');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Move to In review');
      await page.keyboard.press('Enter');
      await column(page, 'review').locator('.post-card', { hasText: 'Behind the scenes reel' }).waitFor();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move “Behind the scenes reel”');
      expect(await page.textContent('#ws-toast')).toContain('moved to In review');
      expect((await app.ws.as(app.manager).get(`/api/posts/${reel.id}`)).body.post.status).toBe('review');

      await move.focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      expect(await page.locator('[role="menu"]:visible').count()).toBe(0);

      await page.goto(`${app.url}/workspace?lang=ar`);
      await settled(page);
      await card(page, 'Behind the scenes reel').locator('button[aria-haspopup="menu"]').click();
      await page.locator('[role="menu"]:visible').waitFor();
      expect(await hiddenMenuItems(page)).toEqual([]);
      await checkAndShoot(page, 'workspace-board-move-menu-ar-390');
    }));

  it('when filters are chosen, then only matching cards stay, the choice is kept in the address, and clearing brings all back', () =>
    runAs(browser(), 'contributor', { prepare: boardData }, async ({ app, page, data: { other } }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      expect(await page.locator('.post-card').count()).toBe(3);
      await page.selectOption('#filter-platform', 'tiktok');
      await settled(page);
      expect(await page.locator('.post-card').allTextContents()).toEqual([expect.stringContaining('Behind the scenes reel')]);
      await page.selectOption('#filter-platform', '');
      await page.selectOption('#filter-campaign', String(other.id));
      await page.waitForFunction(() => document.querySelectorAll('.post-card').length === 1);
      expect(await page.textContent('.post-card')).toContain('Letter to schools');
      expect(new URL(page.url()).searchParams.get('campaignId')).toBe(String(other.id));
      await page.reload();
      await settled(page);
      expect(await page.locator('.post-card').count()).toBe(1);
      await page.click('[data-clear-filters]');
      await page.waitForFunction(() => document.querySelectorAll('.post-card').length === 3);
    }));

  it('when a contributor creates a post and edits it, then it lands in its column; others\' cards offer no move or delete', () =>
    runAs(browser(), 'contributor', { lang: 'ar', prepare: boardData }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      expect(await card(page, 'Behind the scenes reel').locator('.post-move, .icon-button').count()).toBe(0);
      expect(await card(page, 'Behind the scenes reel').getAttribute('draggable')).toBeNull();
      // Their own post, but scheduled: past the moves an author makes, so it stays put; they may still delete it.
      expect(await card(page, 'Opening night poster').locator('.post-move').count()).toBe(0);
      expect(await card(page, 'Opening night poster').getAttribute('draggable')).toBeNull();
      expect(await card(page, 'Opening night poster').locator('.icon-button-danger').count()).toBe(1);

      await page.click('[data-new-post]');
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('button[type="submit"]').click();
      expect(await modal.locator('.field-error:not([hidden])').count()).toBe(1);
      await modal.locator('input[name="title"]').fill('جولة في المعرض');
      await modal.locator('select[name="platform"]').selectOption('instagram');
      await checkAndShoot(page, 'workspace-board-new-post-ar-1440');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      await column(page, 'idea').locator('.post-card', { hasText: 'جولة في المعرض' }).waitFor();

      await card(page, 'جولة في المعرض').locator('.post-open').click();
      await modal.locator('.post-panel [data-edit]').click();
      await modal.locator('select[name="status"]').waitFor();
      expect(await modal.locator('select[name="status"] option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['idea', 'draft', 'review']);
      await modal.locator('select[name="status"]').selectOption('draft');
      await modal.locator('button[type="submit"]').click();
      await column(page, 'draft').locator('.post-card', { hasText: 'جولة في المعرض' }).waitFor();

      await card(page, 'جولة في المعرض').locator('.icon-button-danger').click();
      await page.locator('dialog.modal-danger[open]').waitFor();
      await page.locator('dialog.modal-danger[open] .button-danger').click();
      await card(page, 'جولة في المعرض').waitFor({ state: 'detached' });
    }));
});
