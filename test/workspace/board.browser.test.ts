import { request } from '../support/http';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { POST_STATUSES, type PostStatus } from '../../src/workspace/domain';
import { describeBrowser } from '../support/browser';
import { pdf } from '../support/files';
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
const card = (page: Page, title: string) => page.locator('.post-card').filter({ has: page.locator('.post-title', { hasText: new RegExp(`^${title}$`) }) });
const modal = (page: Page) => page.locator('dialog.modal[open]');

const LINK = 'https://museum.example/p/1';
/** The English names of the statuses, as the move menu says them. */
const STATUS_OF: Record<string, PostStatus> = { Idea: 'idea', Draft: 'draft', 'In review': 'review', Approved: 'approved', Scheduled: 'scheduled', Published: 'published' };

/** A post of `owner`'s taken to `status` by the manager (with a link when published), dated unless told otherwise. */
async function postAt(app: Seeded, owner: TestUser, status: PostStatus, title: string, scheduledAt: string | null = '2026-06-20T17:00:00Z') {
  const made = await app.ws.as(owner).post('/api/posts').send({ title, brandId: app.brand.id, scheduledAt });
  expect(made.status, made.text).toBe(201);
  if (status === 'idea') return made.body.post as { id: number };
  const moved = await app.ws.as(app.manager).patch(`/api/posts/${made.body.post.id}`).send({ status, ...(status === 'published' ? { publicationUrl: LINK } : {}) });
  expect(moved.status, moved.text).toBe(200);
  return moved.body.post as { id: number };
}

/** The contributor's posts and the manager's, one in each status, titled by owner and status. */
async function everyStatus(app: Seeded) {
  for (const owner of ['contributor', 'manager'] as const) {
    for (const status of POST_STATUSES) await postAt(app, app[owner], status, `${owner} ${status}`);
  }
}

/** A post of the contributor's waiting for review, with a picture and a PDF. */
async function postWithMedia(app: Seeded) {
  const upload = await request(app.ws.app)
    .post('/api/assets')
    .set('Authorization', `Bearer ${app.contributor.token}`)
    .field('brandId', String(app.brand.id))
    .attach('files', await picture(), { filename: 'poster.jpg', contentType: 'image/jpeg' })
    .attach('files', pdf(), { filename: 'programme.pdf', contentType: 'application/pdf' });
  expect(upload.status, upload.text).toBe(201);
  const attachments = (upload.body.assets as { id: number }[]).map((a) => a.id);
  const res = await app.ws.as(app.contributor).post('/api/posts').send({ title: 'Opening night poster', status: 'review', brandId: app.brand.id, attachments });
  expect(res.status, res.text).toBe(201);
  return res.body.post as { id: number };
}

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
      await page.waitForFunction(() => document.querySelector('dialog.modal[open] .field-error:not([hidden])')?.textContent.includes('needs the link'));
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
      // The platform's single card may still be shown while the campaign's posts are read: wait for the campaign's.
      await card(page, 'Letter to schools').waitFor();
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

  it('when a contributor looks at their posts and others\' in every status, then each move, drag, pick and delete the board offers is one the server accepts, and each it leaves out the server refuses', () =>
    runAs(browser(), 'contributor', { prepare: everyStatus }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      // What the board offers, read first: the probes below add posts of the same titles, which
      // the board, live, then shows too.
      const offers = new Map<string, { offered: PostStatus[]; editable: boolean; deletable: boolean }>();
      for (const owner of ['contributor', 'manager'] as const) {
        for (const status of POST_STATUSES) {
          const title = `${owner} ${status}`;
          const shown = card(page, title);
          // A card's move menu is built as it opens: open it to read what it offers.
          let labels: string[] = [];
          if ((await shown.locator('.post-move').count()) === 1) {
            await shown.locator('.post-move').click();
            labels = await page.locator('[role="menu"]:not([hidden]) [role="menuitem"]').allTextContents();
            await page.keyboard.press('Escape');
          }
          const offered = labels.map((label) => STATUS_OF[label.replace('Move to ', '')]);
          expect(await shown.getAttribute('draggable'), title).toBe(offered.length ? 'true' : null);
          offers.set(title, { offered, editable: (await shown.locator('.post-select').count()) === 1, deletable: (await shown.locator('.icon-button-danger').count()) === 1 });
        }
      }
      // Their published post is the managers' now: no move, no pick, no delete.
      expect(await card(page, 'contributor published').locator('.post-move, .post-select, .icon-button-danger').count()).toBe(0);
      // Its panel offers no edit either.
      await card(page, 'contributor published').locator('.post-open').click();
      await modal(page).locator('.post-panel').waitFor();
      expect(await modal(page).locator('[data-edit]').count()).toBe(0);

      for (const owner of ['contributor', 'manager'] as const) {
        for (const status of POST_STATUSES) {
          const title = `${owner} ${status}`;
          const { offered, editable, deletable } = offers.get(title)!;
          for (const to of POST_STATUSES.filter((s) => s !== status)) {
            const fresh = await postAt(app, app[owner], status, title);
            const res = await app.ws.as(app.contributor).patch(`/api/posts/${fresh.id}`).send({ status: to, ...(to === 'published' ? { publicationUrl: LINK } : {}) });
            expect(res.status === 200, `${title} → ${to}: offered ${offered.includes(to)}, answered ${res.status}`).toBe(offered.includes(to));
          }
          const edited = await app.ws.as(app.contributor).patch(`/api/posts/${(await postAt(app, app[owner], status, title)).id}`).send({ caption: 'Changed' });
          expect(edited.status === 200, `${title}: picked for bulk changes ${editable}, edit answered ${edited.status}`).toBe(editable);
          const deleted = await app.ws.as(app.contributor).delete(`/api/posts/${(await postAt(app, app[owner], status, title)).id}`);
          expect(deleted.status === 200, `${title}: delete offered ${deletable}, answered ${deleted.status}`).toBe(deletable);
        }
      }
    }), 60_000);

  it('when an author edits their approved post, then the form says the change sends it back to review, and it lands In review', () =>
    runAs(browser(), 'contributor', { prepare: async (app) => postAt(app, app.contributor, 'approved', 'Approved poster') }, async ({ page, app, data: post }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await card(page, 'Approved poster').locator('.post-open').click();
      await modal(page).locator('[data-edit]').click();
      const form = modal(page);
      await form.locator('select[name="status"]').waitFor();
      expect(await form.locator('select[name="status"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['idea', 'draft', 'review', 'approved']);
      expect(await form.locator('.field:has(select[name="status"]) .field-hint').textContent()).toBe('A manager approved this post: saving a change sends it back to review.');
      expect(await form.locator('textarea[name="comment"]').isVisible()).toBe(false);
      await form.locator('textarea[name="caption"]').fill('With music');
      await form.locator('button[type="submit"]').click();
      await column(page, 'review').locator('.post-card', { hasText: 'Approved poster' }).waitFor();
      const events = (await app.ws.as(app.manager).get(`/api/posts/${post.id}/activity`)).body.events as { kind: string }[];
      expect(events.at(-1)).toMatchObject({ kind: 'reopened', fields: ['caption'] });
      await card(page, 'Approved poster').locator('.post-open').click();
      await modal(page).locator('.history-list', { hasText: 'changed the caption, so it went back to In review' }).waitFor();
    }));

  it('when posts are scheduled, then the Scheduled column shows the soonest first, whatever the order they were made in', () =>
    runAs(
      browser(),
      'manager',
      {
        prepare: async (app) => {
          for (const [title, at] of [['Late June', '2026-06-20T17:00:00Z'], ['Early June', '2026-06-05T09:00:00Z'], ['Mid June', '2026-06-12T12:00:00Z']]) {
            await postAt(app, app.manager, 'scheduled', title, at);
          }
        },
      },
      async ({ app, page }) => {
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        expect(await column(page, 'scheduled').locator('.post-title').allTextContents()).toEqual(['Early June', 'Mid June', 'Late June']);
      },
    ));

  it('when a post without a date is moved to Scheduled, then the modal asks for the moment, refuses none, and schedules it', () =>
    runAs(browser(), 'manager', { prepare: async (app) => postAt(app, app.manager, 'approved', 'Undated', null) }, async ({ app, page, data: post }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await page.dragAndDrop('.post-card:has-text("Undated")', '.kanban-column[data-status="scheduled"]');
      const ask = modal(page);
      await ask.locator('input[name="scheduledAt"]').waitFor();
      await ask.locator('button[type="submit"]').click();
      expect(await ask.locator('.field-error:not([hidden])').textContent()).toBe('A scheduled post needs its date and time.');
      await ask.locator('input[name="scheduledAt"]').fill('2026-07-01T10:30');
      await ask.locator('button[type="submit"]').click();
      await column(page, 'scheduled').locator('.post-card', { hasText: 'Undated' }).waitFor();
      const stored = (await app.ws.as(app.manager).get(`/api/posts/${post.id}`)).body.post;
      expect(stored).toMatchObject({ status: 'scheduled' });
      expect(new Date(stored.scheduledAt).getTime()).toBe(new Date(2026, 6, 1, 10, 30).getTime());
    }));

  it.each([
    ['en', 390],
    ['ar', 1440],
  ] as const)('when a manager sends a post back from its edit form (%s, %i px), then the reason is asked for right under the status, in view, and goes to the thread', (lang, width) =>
    runAs(browser(), 'manager', { lang, width, prepare: async (app) => postAt(app, app.contributor, 'review', 'Waiting poster') }, async ({ app, page, data: post }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await card(page, 'Waiting poster').locator('.post-open').click();
      await modal(page).locator('[data-edit]').click();
      const form = modal(page);
      const reason = form.locator('textarea[name="comment"]');
      await form.locator('select[name="status"]').waitFor();
      expect(await reason.isVisible()).toBe(false);
      await form.locator('select[name="status"]').selectOption('draft');
      expect(await reason.isVisible()).toBe(true);
      await form.locator('button[type="submit"]').click();
      const error = form.locator('.field:has(textarea[name="comment"]) .field-error:not([hidden])');
      await error.waitFor();
      expect(await error.textContent()).toBe(lang === 'en' ? 'Say what should change.' : 'اذكر ما يجب تغييره.');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('comment');
      const box = (await error.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(900);
      await checkAndShoot(page, `workspace-post-send-back-form-${lang}-${width}`);
      await reason.fill('The date is wrong');
      await form.locator('button[type="submit"]').click();
      await column(page, 'draft').locator('.post-card', { hasText: 'Waiting poster' }).waitFor();
      expect((await app.ws.as(app.contributor).get(`/api/posts/${post.id}/comments`)).body.comments).toMatchObject([{ body: 'The date is wrong' }]);
    }));

  it.each([
    ['en', 1440],
    ['ar', 390],
  ] as const)('when a reviewer opens a post with a picture and a PDF (%s, %i px), then the panel shows both, and each opens in the lightbox of the asset library', (lang, width) =>
    runAs(browser(), 'manager', { lang, width, prepare: postWithMedia }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await card(page, 'Opening night poster').locator('.post-open').click();
      const panel = modal(page);
      const media = panel.locator('.post-media-open');
      await panel.locator('.post-media[aria-busy="false"]').waitFor();
      expect(await panel.locator('.post-media-name').allTextContents()).toEqual(['poster.jpg', 'programme.pdf']);
      await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.post-media-thumb')].every((img) => img.naturalWidth > 0));
      await checkAndShoot(page, `workspace-post-panel-media-${lang}-${width}`);
      await media.first().click();
      const lightbox = page.locator('dialog.modal[open] .lightbox');
      await lightbox.waitFor();
      await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('dialog.modal[open] .lightbox-image')?.naturalWidth ?? 0) > 0);
      expect(await page.locator('dialog.modal[open] .modal-title').last().textContent()).toBe('poster.jpg');
      await page.locator('dialog.modal[open] [data-next]').click();
      expect(await lightbox.locator('iframe.lightbox-frame').getAttribute('src')).toMatch(/^\/api\/uploads\//);
      expect(await page.locator('dialog.modal[open] .modal-title').last().textContent()).toBe('programme.pdf');
      await checkAndShoot(page, `workspace-post-lightbox-${lang}-${width}`);
      // The PDF viewer may hold the keyboard: the lightbox's own Close button ends it.
      await page.locator('dialog.modal[open]').last().getByRole('button', { name: lang === 'en' ? 'Close' : 'إغلاق' }).last().click();
      await lightbox.waitFor({ state: 'detached' });
      expect(await panel.locator('.post-panel').isVisible()).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.classList.contains('post-media-open'))).toBe(true);
    }));

  it('when the board opens, then it asks for its records only after a frame of its own, so that its first paint waits for none of them', () =>
    runAs(browser(), 'manager', { width: 390, prepare: boardData }, async ({ app, page }) => {
      await page.addInitScript(() => {
        // How many frames the page's scripts had asked for and seen drawn when the first request for records went out.
        const seen = window as unknown as { framesDrawn: number; framesAtFirstCall?: number };
        seen.framesDrawn = 0;
        const askFrame = window.requestAnimationFrame.bind(window);
        window.requestAnimationFrame = (callback) => askFrame((time) => {
          seen.framesDrawn += 1;
          callback(time);
        });
        const fetch = window.fetch.bind(window);
        window.fetch = (input, init) => {
          if (String(input instanceof Request ? input.url : input).includes('/api/')) seen.framesAtFirstCall ??= seen.framesDrawn;
          return fetch(input, init);
        };
      });
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await card(page, 'Behind the scenes reel').waitFor();
      expect(await page.evaluate(() => (window as unknown as { framesAtFirstCall?: number }).framesAtFirstCall)).toBeGreaterThan(0);
    }));
});
