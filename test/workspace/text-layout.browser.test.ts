import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { request } from '../support/http';
import { describeBrowser } from '../support/browser';
import { docx } from '../support/files';
import { checkAndShoot, runAs, settled, useBrowser, type Lang, type Seeded } from './browser-helpers';

const LONG_NAME = 'Alexandra Montgomery-Whitfield';
const LONG_CAMPAIGN = 'Summer Festival of Contemporary Ceramics and Glass';
const ARABIC_CAMPAIGN = 'مهرجان الصيف للخزف المعاصر والزجاج في المتحف';
const LONG_PROJECT = 'International Partnerships Programme for Museums';
/** One word longer than any column is wide: the only kind that may break inside. */
const ONE_WORD = 'Supercalifragilisticexpialidociousannouncement';
const TITLES = ['Announcing the reopening of the eastern galleries after renovation', 'Photography workshop registrations', 'إطلالة جديدة على المتحف الإسلامي للفنون المعاصرة', ONE_WORD];

/** Names longer than a select is wide, in both scripts, on posts, tasks and files. */
async function longNames(app: Seeded) {
  const as = app.ws.as(app.manager);
  await app.ws.members.update(app.contributor.id, { name: LONG_NAME });
  const campaign = (await as.post('/api/campaigns').send({ name: LONG_CAMPAIGN, brandId: app.brand.id })).body.campaign as { id: number };
  const arabic = (await as.post('/api/campaigns').send({ name: ARABIC_CAMPAIGN, brandId: app.brand.id })).body.campaign as { id: number };
  const project = (await as.post('/api/projects').send({ name: LONG_PROJECT, brandId: app.brand.id })).body.project as { id: number };
  for (const title of TITLES) {
    expect((await as.post('/api/posts').send({ title, campaignId: campaign.id, status: 'draft', platform: 'instagram', scheduledAt: '2026-01-20T10:00:00Z' })).status).toBe(201);
    const task = await as.post('/api/tasks').send({ title, brandId: app.brand.id, projectId: project.id, campaignId: campaign.id, assigneeId: app.contributor.id, dueDate: '2026-01-20' });
    expect(task.status).toBe(201);
  }
  const upload = await request(app.ws.app)
    .post('/api/assets')
    .set('Authorization', `Bearer ${app.contributor.token}`)
    .field('campaignId', String(campaign.id))
    .attach('files', docx(), { filename: 'brief.docx', contentType: 'application/octet-stream' });
  expect(upload.status).toBe(201);
  return { campaign, arabic, project };
}

/**
 * Words broken across two lines although they fit, unbroken, in the block that holds them:
 * each as "text (word width in line width)".
 */
function wordsBrokenThatFit(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const found: string[] = [];
    for (const root of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement!;
        if (!parent.checkVisibility()) continue;
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size < 2) continue;
          const probe = document.createElement('span');
          probe.style.whiteSpace = 'nowrap';
          probe.textContent = match[0];
          parent.append(probe);
          const width = probe.getBoundingClientRect().width;
          probe.remove();
          let block: HTMLElement = parent;
          while (getComputedStyle(block).display.startsWith('inline')) block = block.parentElement!;
          const style = getComputedStyle(block);
          const line = block.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          if (width <= line) found.push(`${match[0]} (${Math.round(width)} in ${Math.round(line)})`);
        }
      }
    }
    return found;
  }, selector);
}

/**
 * Card texts whose narrowest width is less than their longest word: a card squeezed by its
 * neighbours could then break a word that would fit.
 */
function squeezable(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const found: string[] = [];
    for (const node of document.querySelectorAll<HTMLElement>(sel)) {
      if (!node.checkVisibility()) continue;
      const longest = Math.max(
        ...node.textContent.split(/\s+/).filter(Boolean).map((word) => {
          const probe = document.createElement('span');
          probe.style.whiteSpace = 'nowrap';
          probe.textContent = word;
          node.append(probe);
          const width = probe.getBoundingClientRect().width;
          probe.remove();
          return width;
        }),
      );
      const before = node.style.inlineSize;
      node.style.inlineSize = 'min-content';
      const narrowest = node.getBoundingClientRect().width;
      node.style.inlineSize = before;
      if (narrowest + 0.5 < longest) found.push(`${node.textContent} (${Math.round(narrowest)} < ${Math.round(longest)})`);
    }
    return found;
  }, selector);
}

const CARD_TEXTS = '.post-title, .post-campaign, .cal-card-title, .cal-card-campaign';

/** Whether two shots show the same: antialiasing may differ by a shade, text in another place may not. */
async function alike(a: Buffer, b: Buffer): Promise<boolean> {
  const [x, y] = await Promise.all([a, b].map((shot) => sharp(shot).raw().toBuffer({ resolveWithObject: true })));
  if (x.info.width !== y.info.width || x.info.height !== y.info.height) return false;
  return x.data.every((value, i) => Math.abs(value - y.data[i]) <= 16);
}

/**
 * Whether a select shows its chosen option as that option's text reads by itself: the shot
 * of the select as it is equals the shot with the option set to its own direction.
 */
async function showsFromItsStart(select: Locator, dir: 'ltr' | 'rtl'): Promise<boolean> {
  await select.evaluate((node) => (node as HTMLSelectElement).blur());
  const asShown = await select.screenshot({ animations: 'disabled' });
  await select.evaluate((node, d) => {
    (node as HTMLSelectElement).selectedOptions[0].dir = d;
  }, dir);
  const ownDirection = await select.screenshot({ animations: 'disabled' });
  await select.evaluate((node) => (node as HTMLSelectElement).selectedOptions[0].removeAttribute('dir'));
  return alike(asShown, ownDirection);
}

describeBrowser('Names and titles in narrow places, in a browser', () => {
  const browser = useBrowser();

  it.each([
    ['en', 390],
    ['ar', 390],
    ['en', 1024],
    ['ar', 1440],
  ] as const)('when posts and tasks with long titles are on the board, the task board and the calendar (%s, %i px), then words break at spaces, and inside only a word wider than its column', (lang: Lang, width) =>
    runAs(browser(), 'manager', { lang, width, prepare: longNames }, async ({ app, page }) => {
      for (const [name, path] of [
        ['board', '/workspace'],
        ['task-board', '/workspace/tasks?scope=all&view=board'],
        ['calendar', '/workspace/calendar?date=2026-01-20'],
        ['calendar-week', '/workspace/calendar?view=week&date=2026-01-20'],
      ]) {
        await page.goto(`${app.url}${path}`);
        await settled(page);
        expect(await wordsBrokenThatFit(page, '.kanban, .cal-grid'), `${name}: words broken that fit`).toEqual([]);
        expect(await squeezable(page, CARD_TEXTS), `${name}: texts narrower than a word`).toEqual([]);
        // The one long word still stays inside its card.
        const spilling = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('.post-card, .cal-card-link')].filter((c) => c.scrollWidth > c.clientWidth + 1).length);
        expect(spilling, name).toBe(0);
        if (name === 'board' && width === 390) await checkAndShoot(page, `workspace-long-titles-${name}-${lang}-${width}`);
      }
    }), 90_000);

  /** The selects that list people, campaigns and projects, each with the value to choose and the direction of its text. */
  const SELECTS = (data: Awaited<ReturnType<typeof longNames>>, app: Seeded) =>
    [
      ['/workspace', '#filter-campaign', data.campaign.id],
      ['/workspace/calendar', '#filter-campaign', data.campaign.id],
      ['/workspace/tasks?scope=all', '#filter-assignee', app.contributor.id],
      ['/workspace/tasks?scope=all', '#filter-project', data.project.id],
      ['/workspace/tasks?scope=all', '#filter-campaign', data.campaign.id],
      ['/workspace/assets', '#assets-campaign', data.campaign.id],
      ['/workspace/assets', '#assets-uploader', app.contributor.id],
      ['/workspace/assets', '#upload-campaign', data.campaign.id],
      ['/workspace/budget', '#budget-campaign', data.campaign.id],
    ] as const;

  it('when an Arabic page at 390 px shows English names chosen in its selects, then each shows from the name\'s start, in page and in form', () =>
    runAs(browser(), 'manager', { lang: 'ar', width: 390, prepare: longNames }, async ({ app, page, data }) => {
      for (const [path, selector, value] of SELECTS(data, app)) {
        if (new URL(page.url(), app.url).pathname + new URL(page.url(), app.url).search !== path) {
          await page.goto(`${app.url}${path}`);
          await settled(page);
        }
        const select = page.locator(selector);
        await select.selectOption(String(value));
        await settled(page);
        expect(await showsFromItsStart(select, 'ltr'), `${path} ${selector}`).toBe(true);
      }
      await checkAndShoot(page, 'workspace-long-names-select-ar-390');

      // The forms: a new task's assignee and project, a new post's campaign.
      await page.goto(`${app.url}/workspace/tasks?scope=all`);
      await settled(page);
      await page.click('[data-new-task]');
      const taskForm = page.locator('dialog.modal[open]');
      await taskForm.locator('select[name="assigneeId"]').selectOption(String(app.contributor.id));
      await taskForm.locator('select[name="projectId"]').selectOption(String(data.project.id));
      expect(await showsFromItsStart(taskForm.locator('select[name="assigneeId"]'), 'ltr')).toBe(true);
      expect(await showsFromItsStart(taskForm.locator('select[name="projectId"]'), 'ltr')).toBe(true);
      await checkAndShoot(page, 'workspace-long-names-task-form-ar-390');
      await page.keyboard.press('Escape');
      await taskForm.waitFor({ state: 'detached' });
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await page.click('[data-new-post]');
      const postForm = page.locator('dialog.modal[open]');
      await postForm.locator('select[name="campaignId"]').selectOption(String(data.campaign.id));
      expect(await showsFromItsStart(postForm.locator('select[name="campaignId"]'), 'ltr')).toBe(true);
    }), 90_000);

  it('when an English page at 390 px shows an Arabic campaign chosen in its filters, then it shows from the name\'s start too', () =>
    runAs(browser(), 'manager', { lang: 'en', width: 390, prepare: longNames }, async ({ app, page, data }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await page.locator('#filter-campaign').selectOption(String(data.arabic.id));
      await settled(page);
      expect(await showsFromItsStart(page.locator('#filter-campaign'), 'rtl')).toBe(true);
    }));

  it.each([
    ['en', 1440],
    ['ar', 1440],
    ['en', 901],
  ] as const)('when the superadmin is named "Administrator" (%s, %i px), then the sidebar shows the name on one line, beside the picture and above the role and the bell', (lang: Lang, width) =>
    runAs(browser(), 'admin', { lang, width, prepare: (app) => app.ws.members.update(app.admin.id, { name: 'Administrator' }) }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      const name = page.locator('.ws-user-name');
      expect(await name.textContent()).toBe('Administrator');
      const lines = await name.evaluate((node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
      });
      expect(lines).toBe(1);
      const [nameBox, roleBox, bellBox] = await Promise.all([name, page.locator('.ws-user .role-badge'), page.locator('.ws-user .ws-bell')].map((l) => l.boundingBox()));
      expect(roleBox!.y).toBeGreaterThanOrEqual(nameBox!.y + nameBox!.height - 1);
      expect(bellBox!.y + bellBox!.height).toBeGreaterThan(roleBox!.y);
      expect(await page.locator('.ws-user .ws-bell').isVisible()).toBe(true);
    }));
});
