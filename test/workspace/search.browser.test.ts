import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser, type Seeded } from './browser-helpers';

const BOX = '#ws-search-input';
const OPTIONS = '#ws-search-results [role="option"]';

async function made(app: Seeded, path: string, body: object, key: string): Promise<{ id: number }> {
  const res = await app.ws.as(app.manager).post(path).send({ brandId: app.brand.id, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body[key];
}

/** Types into the search box and waits until the server's answer for that text is drawn. */
async function searchFor(page: Page, text: string) {
  const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/search' && new URL(res.url()).searchParams.get('q') === text.trim());
  await page.fill(BOX, text);
  await answered;
  await page.waitForSelector(`${BOX}:not([aria-busy])`);
  await page.waitForSelector('[data-ws-search-popup]:not([hidden])');
}

describeBrowser('The search box of the workspace top bar in a browser', () => {
  const browser = useBrowser();

  it('when a manager types part of a title, moves down with the arrow key and presses Enter, then the board opens with that post shown and focused', () =>
    runAs(browser(), 'manager', {
      prepare: async (app) => {
        const post = await made(app, '/api/posts', { title: 'Lantern night at the museum', caption: 'Paper lanterns in the courtyard' }, 'post');
        await made(app, '/api/campaigns', { name: 'Lanterns of the Silk Road', description: 'An exhibition of lanterns' }, 'campaign');
        await made(app, '/api/tasks', { title: 'Order paper for the lanterns' }, 'task');
        await made(app, '/api/projects', { name: 'Courtyard lighting', description: 'Lanterns along the paths' }, 'project');
        return { post };
      },
    }, async ({ app, page, data: { post } }) => {
      await page.goto(`${app.url}/workspace/tasks`);
      await settled(page);
      const box = page.locator(BOX);
      expect(await box.getAttribute('aria-expanded')).toBe('false');

      await searchFor(page, 'LANTERN NIGHT');
      expect(await page.locator(OPTIONS).count()).toBe(1);
      expect(await page.textContent('#ws-search-results')).toContain('Posts');

      await searchFor(page, 'lantern');
      expect(await box.getAttribute('aria-expanded')).toBe('true');
      const labels = await page.locator('.ws-search-group-label').allTextContents();
      expect(labels.sort()).toEqual(['Campaigns', 'Posts', 'Projects', 'Tasks']);
      expect(await page.locator(OPTIONS).count()).toBe(4);
      // The first result is a title match: the four titles all hold the text, the newest first.
      await checkAndShoot(page, 'workspace-search-en-1440');

      // Down to the post, wherever its group stands.
      const order = await page.locator(OPTIONS).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-url')));
      const index = order.indexOf(`/workspace?post=${post.id}`);
      expect(index).toBeGreaterThanOrEqual(0);
      for (let i = 0; i <= index; i++) await box.press('ArrowDown');
      const activeId = await box.getAttribute('aria-activedescendant');
      expect(await page.getAttribute(`#${activeId}`, 'aria-selected')).toBe('true');
      expect(await page.getAttribute(`#${activeId}`, 'data-url')).toBe(`/workspace?post=${post.id}`);

      await Promise.all([page.waitForURL(`**/workspace?post=${post.id}`), box.press('Enter')]);
      // The post's panel opens on its card; closed, it leaves the focus on the card.
      await page.locator('dialog.modal[open] .post-panel').waitFor();
      await settled(page);
      await page.keyboard.press('Escape');
      await page.locator('dialog.modal[open]').waitFor({ state: 'detached' });
      const card = page.locator(`[data-post-id="${post.id}"]`);
      await expect.poll(() => card.evaluate((node) => node.classList.contains('is-search-target') && document.activeElement === node)).toBe(true);
      await checkAndShoot(page, 'workspace-search-landed-en-1440');
    }));

  it('when nothing matches, then the list says so; Escape closes it and, pressed again, empties the box', () =>
    runAs(browser(), 'contributor', {}, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/projects`);
      await settled(page);
      await searchFor(page, 'zz%_nothing');
      expect(await page.textContent('[data-ws-search-status]')).toBe('No results for “zz%_nothing”');
      expect(await page.locator(OPTIONS).count()).toBe(0);
      await page.press(BOX, 'Escape');
      expect(await page.isHidden('[data-ws-search-popup]')).toBe(true);
      expect(await page.getAttribute(BOX, 'aria-expanded')).toBe('false');
      expect(await page.inputValue(BOX)).toBe('zz%_nothing');
      await page.press(BOX, 'Escape');
      expect(await page.inputValue(BOX)).toBe('');
      // One character asks nothing and shows nothing.
      await page.fill(BOX, 'z');
      await page.waitForTimeout(400);
      expect(await page.isHidden('[data-ws-search-popup]')).toBe(true);
    }));

  it('when an older answer arrives after a newer one, then the list keeps the results of the text in the box', () =>
    runAs(browser(), 'contributor', {
      prepare: async (app) => {
        await made(app, '/api/posts', { title: 'Moon night' }, 'post');
        await made(app, '/api/posts', { title: 'Moonlight tour' }, 'post');
      },
    }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/campaigns`);
      await settled(page);
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route((url) => url.pathname === '/api/search' && url.searchParams.get('q') === 'moon', async (route) => {
        await held;
        await route.continue().catch(() => undefined);
      });
      const first = page.waitForRequest((req) => new URL(req.url()).searchParams.get('q') === 'moon');
      await page.fill(BOX, 'moon');
      await first;
      await searchFor(page, 'moonlight');
      release();
      await page.waitForTimeout(300);
      expect(await page.locator(OPTIONS).allTextContents()).toEqual(['Moonlight tour']);
    }));

  it('when a contributor searches in Arabic on a 390px screen, then the box fits the screen, the results read right to left, and Enter opens the task', () =>
    runAs(browser(), 'contributor', {
      lang: 'ar',
      width: 390,
      prepare: async (app) => {
        await made(app, '/api/campaigns', { name: 'حملة الخزف في الربيع', description: 'معرض الربيع: مئة وعشرون قطعة من تسع مجموعات.' }, 'campaign');
        const task = await made(app, '/api/tasks', { title: 'كتابة بطاقات الخزف بالعربية', description: 'لمعرض الربيع' }, 'task');
        await made(app, '/api/posts', { title: 'Ceramics week', caption: 'أسبوع الخزف في المتحف' }, 'post');
        return { task };
      },
    }, async ({ app, page, data: { task } }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      const box = page.locator(BOX);
      const rect = (await box.boundingBox())!;
      expect(rect.x).toBeGreaterThanOrEqual(0);
      expect(rect.x + rect.width).toBeLessThanOrEqual(390);
      expect(rect.width).toBeGreaterThan(300);
      expect(await box.getAttribute('placeholder')).toBe('ابحث في الحملات والمنشورات والمهام والمشاريع والملفات');
      // The box reads right to left even while empty, so its text starts clear of the magnifier at its right.
      expect(await box.evaluate((node) => getComputedStyle(node).direction)).toBe('rtl');
      const icon = (await page.locator('.ws-search > .icon').boundingBox())!;
      const padding = await box.evaluate((node) => parseFloat(getComputedStyle(node).paddingRight));
      expect(icon.x).toBeGreaterThanOrEqual(rect.x + rect.width - padding);

      await searchFor(page, 'الخزف');
      expect(await page.locator(OPTIONS).count()).toBe(3);
      const popup = (await page.locator('[data-ws-search-popup]').boundingBox())!;
      expect(popup.x).toBeGreaterThanOrEqual(0);
      expect(popup.x + popup.width).toBeLessThanOrEqual(390);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await page.locator('.ws-search-group-label').allTextContents()).toEqual(expect.arrayContaining(['المهام', 'الحملات', 'المنشورات']));
      await checkAndShoot(page, 'workspace-search-ar-390');
      // Typed with tashkeel, the word still finds the records, and the marks fall on the stored spelling.
      await searchFor(page, 'الخَزَف');
      expect(await page.locator(OPTIONS).count()).toBe(3);
      expect(new Set(await page.locator(`${OPTIONS} mark`).allTextContents())).toEqual(new Set(['الخزف']));
      await searchFor(page, 'الخزف');

      const order = await page.locator(OPTIONS).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-url')));
      const index = order.indexOf(`/workspace/tasks?task=${task.id}`);
      // Up from nothing chosen goes to the last, then on up to the task.
      for (let i = order.length - 1; i >= index; i--) await box.press('ArrowUp');
      await Promise.all([page.waitForURL(`**/workspace/tasks?task=${task.id}`), box.press('Enter')]);
      await page.locator('dialog.modal[open] .thread').waitFor();
      await settled(page);
      await page.keyboard.press('Escape');
      await page.locator('dialog.modal[open]').waitFor({ state: 'detached' });
      // Made by the manager, not assigned to anyone: the page shows it under "All".
      expect(await page.getAttribute('[data-scope="all"]', 'aria-pressed')).toBe('true');
      const item = page.locator(`[data-task-id="${task.id}"]`);
      await expect.poll(() => item.evaluate((node) => node.classList.contains('is-search-target') && document.activeElement === node)).toBe(true);
      await checkAndShoot(page, 'workspace-search-landed-ar-390');
    }));
});
