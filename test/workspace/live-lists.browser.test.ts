import sharp from 'sharp';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createI18n } from '../../src/platform/i18n';
import { describeBrowser } from '../support/browser';
import { request } from '../support/http';
import { checkAndShoot, runAs, settled, useBrowser, type Lang, type Seeded } from './browser-helpers';

const i18n = createI18n();
const say = (lang: Lang, key: string, vars: Record<string, string> = {}) => i18n.getFixedT(lang)(`workspace.${key}`, vars);

/** Opens `url` and waits until the page has its data and its live stream. */
async function openLive(page: Page, url: string) {
  const streaming = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events');
  await page.goto(url);
  expect((await streaming).status()).toBe(200);
  await settled(page);
}

const toastSays = (page: Page, text: string) => page.waitForFunction((wanted) => document.querySelector('#ws-toast')?.textContent.includes(wanted), text);
const marked = async (page: Page, selector: string) => expect(await page.locator(selector).getAttribute('class')).toContain('is-live-change');

async function picture(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 400, channels: 3, background: { r: 160, g: 82, b: 45 } } }).jpeg().toBuffer();
}

describeBrowser('Lists that follow a colleague’s changes, in a browser', () => {
  const browser = useBrowser();

  it('when a manager moves a post to another day and deletes another, then the contributor’s calendar follows, marked and said', () =>
    runAs(
      browser(),
      'contributor',
      {
        prepare: async (app: Seeded) => {
          const post = async (title: string, scheduledAt: string) => (await app.ws.as(app.manager).post('/api/posts').send({ title, status: 'draft', brandId: app.brand.id, scheduledAt })).body.post as { id: number };
          return { reel: await post('Behind the scenes reel', '2026-06-12T14:00:00Z'), letter: await post('Letter to schools', '2026-06-15T08:00:00Z') };
        },
      },
      async ({ app, page, data: { reel, letter } }) => {
        await openLive(page, `${app.url}/workspace/calendar?date=2026-06-01`);
        const onDay = (day: string, title: string) => page.locator(`[data-day="${day}"] .cal-card`, { hasText: title });
        await onDay('2026-06-12', 'Behind the scenes reel').waitFor();

        expect((await app.ws.as(app.manager).patch(`/api/posts/${reel.id}`).send({ scheduledAt: '2026-06-20T14:00:00Z' })).status).toBe(200);
        await onDay('2026-06-20', 'Behind the scenes reel').waitFor();
        expect(await onDay('2026-06-12', 'Behind the scenes reel').count()).toBe(0);
        await marked(page, `.cal-card[data-post-id="${reel.id}"]`);
        const date = await page.evaluate(() => new Intl.DateTimeFormat('en', { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(2026, 5, 20, 12)));
        await toastSays(page, say('en', 'live.postOnDay', { title: 'Behind the scenes reel', date }));
        await checkAndShoot(page, 'workspace-live-calendar-en-1440');

        expect((await app.ws.as(app.manager).delete(`/api/posts/${letter.id}`)).status).toBe(200);
        await onDay('2026-06-15', 'Letter to schools').waitFor({ state: 'detached' });
        await toastSays(page, say('en', 'live.postDeleted', { title: 'Letter to schools' }));
      },
    ));

  it('when a manager gives the contributor a task, moves it and changes it while its panel is open, then her task board and the panel follow, the panel’s fields only on Reload (ar, 390 px)', () =>
    runAs(browser(), 'contributor', { lang: 'ar', width: 390 }, async ({ app, page }) => {
      await openLive(page, `${app.url}/workspace/tasks?scope=all&view=board`);
      const column = (status: string) => page.locator(`.task-board .kanban-column[data-status="${status}"]`);
      const as = app.ws.as(app.manager);
      const made = await as.post('/api/tasks').send({ title: 'Print the poster', brandId: app.brand.id, assigneeId: app.contributor.id });
      expect(made.status).toBe(201);
      const task = made.body.task as { id: number };
      await column('todo').locator('.task-card', { hasText: 'Print the poster' }).waitFor();
      await marked(page, `.task-card[data-task-id="${task.id}"]`);
      await toastSays(page, say('ar', 'live.taskCreated', { title: 'Print the poster' }));

      expect((await as.patch(`/api/tasks/${task.id}`).send({ status: 'doing' })).status).toBe(200);
      await column('doing').locator('.task-card', { hasText: 'Print the poster' }).waitFor();
      await toastSays(page, say('ar', 'live.taskMoved', { title: 'Print the poster', status: say('ar', 'tasks.status.doing') }));

      await page.locator('.task-card', { hasText: 'Print the poster' }).locator('.task-open').click();
      const panel = page.locator('dialog.modal[open] .task-panel');
      const priority = panel.locator('.field', { hasText: say('ar', 'tasks.fieldPriority') }).locator('select');
      await priority.waitFor();
      expect((await as.patch(`/api/tasks/${task.id}`).send({ priority: 'urgent' })).status).toBe(200);
      const reload = panel.locator('.live-notice').getByRole('button', { name: say('ar', 'live.reload') });
      await reload.waitFor();
      expect(await priority.inputValue(), 'the field is left as the member had it').toBe('medium');
      await checkAndShoot(page, 'workspace-live-task-panel-ar-390');
      await reload.click();
      expect(await panel.locator('.field', { hasText: say('ar', 'tasks.fieldPriority') }).locator('select').inputValue()).toBe('urgent');
      expect(await panel.locator('.live-notice').textContent()).toBe('');

      expect((await as.delete(`/api/tasks/${task.id}`)).status).toBe(200);
      await panel.locator('.live-notice', { hasText: say('ar', 'live.taskGone') }).waitFor();
      expect(await panel.locator('.task-fields select:not([disabled])').count()).toBe(0);
      await page.locator('dialog.modal[open] .modal-close').click();
      await page.locator(`.task-card[data-task-id="${task.id}"]`).waitFor({ state: 'detached' });
    }));

  it('when a manager uploads a file and deletes it, then the contributor’s asset library shows it come and go', () =>
    runAs(browser(), 'contributor', {}, async ({ app, page }) => {
      await openLive(page, `${app.url}/workspace/assets`);
      const res = await request(app.ws.app)
        .post('/api/assets')
        .set('Authorization', `Bearer ${app.manager.token}`)
        .field('brandId', String(app.brand.id))
        .attach('files', await picture(), { filename: 'terracotta.jpg', contentType: 'image/jpeg' });
      expect(res.status).toBe(201);
      const asset = res.body.assets[0] as { id: number };
      await page.locator(`.asset[data-asset-id="${asset.id}"]`).waitFor();
      await marked(page, `.asset[data-asset-id="${asset.id}"]`);
      await toastSays(page, say('en', 'live.assetCreated', { name: 'terracotta.jpg' }));
      await checkAndShoot(page, 'workspace-live-assets-en-1440');

      expect((await app.ws.as(app.manager).delete(`/api/assets/${asset.id}`)).status).toBe(200);
      await page.locator(`.asset[data-asset-id="${asset.id}"]`).waitFor({ state: 'detached' });
      await toastSays(page, say('en', 'live.assetDeleted', { name: 'terracotta.jpg' }));
    }));

  it('when the contributor is made a manager, then her page loads again as a manager’s', () =>
    runAs(browser(), 'contributor', {}, async ({ app, page }) => {
      await openLive(page, `${app.url}/workspace`);
      expect(await page.locator('.ws-user .role-badge').textContent()).toBe('Contributor');
      const reloaded = page.waitForEvent('load');
      expect((await app.ws.as(app.admin).patch(`/api/members/${app.contributor.id}`).send({ role: 'manager' })).status).toBe(200);
      await reloaded;
      expect(await page.locator('.ws-user .role-badge').textContent()).toBe('Manager');
    }));
});
