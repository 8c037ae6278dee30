import { expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createI18n } from '../../src/platform/i18n';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, closeAll, seed, settled, signedIn, useBrowser, WIDTHS, type Lang, type Seeded } from './browser-helpers';

const i18n = createI18n();
/** A string of the workspace's pages as the reader's language words it. */
const say = (lang: Lang, key: string, vars: Record<string, string> = {}) => i18n.getFixedT(lang)(`workspace.${key}`, vars);

const COMBINATIONS = (['en', 'ar'] as const).flatMap((lang) => WIDTHS.map((width) => [lang, width] as const));

const card = (page: Page, title: string) => page.locator('.post-card', { hasText: title });
const modal = (page: Page) => page.locator('dialog.modal[open]');
/** The bell of the width on show: in the sidebar, or in the bar above the page on a narrow screen. */
const bell = (page: Page, width: number) => page.locator(width < 900 ? '.ws-mobilebar [data-notifications-open]' : '.ws-user [data-notifications-open]');

/** `n` as the page writes a count, in its language's digits. */
const figure = (page: Page, n: number) => page.evaluate((value) => new Intl.NumberFormat(document.documentElement.lang, { maximumFractionDigits: 0 }).format(value), n);

/** Opens `path` and waits until the page has its data and its live stream. */
async function openLive(page: Page, url: string) {
  const streaming = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events');
  await page.goto(url);
  expect((await streaming).status()).toBe(200);
  await settled(page);
}

/** A post of the contributor's in review: the manager approves or sends it back. */
async function waitingPost(app: Seeded, title = 'Opening night') {
  const res = await app.ws.as(app.contributor).post('/api/posts').send({ title, caption: 'Doors open at 7', status: 'review', brandId: app.brand.id, platform: 'instagram' });
  expect(res.status).toBe(201);
  return res.body.post as { id: number; title: string };
}

/** Two members of one brand, each in a browser context of their own. */
async function twoMembers(browser: Browser, lang: Lang, width: number) {
  const app = await seed();
  const manager = await signedIn(browser, app, app.manager, { lang, width: 1440 });
  const contributor = await signedIn(browser, app, app.contributor, { lang, width });
  return {
    app,
    manager,
    contributor,
    async close() {
      await closeAll(manager.context, manager.dialogs);
      await closeAll(contributor.context, contributor.dialogs);
      await app.close();
    },
  };
}

describeBrowser('Colleagues working side by side: live pages in a browser', () => {
  const browser = useBrowser();

  it.each(COMBINATIONS)(
    'when a manager moves a card, comments and mentions its author (%s, %i px), then her board, open panel and bell follow without a reload, marked and said, axe-clean',
    async (lang, width) => {
      const team = await twoMembers(browser(), lang, width);
      try {
        const { app } = team;
        const post = await waitingPost(app);
        const mine = team.contributor.page;
        const theirs = team.manager.page;
        await mine.clock.install();
        await openLive(mine, `${app.url}/workspace`);
        await openLive(theirs, `${app.url}/workspace`);
        const count = bell(mine, width).locator('[data-notifications-count]');
        expect(await count.isHidden()).toBe(true);
        // A mark on this document: a reload would lose it.
        await mine.evaluate(() => document.documentElement.setAttribute('data-test-loaded', 'once'));

        // Time stands still on her page from here, so that the mark stays while it is checked.
        await mine.clock.pauseAt(await mine.evaluate(() => Date.now() + 1000));
        await card(theirs, post.title).locator('.post-move').click();
        await theirs.getByRole('menuitem', { name: say(lang, 'board.moveTo', { status: say(lang, 'status.approved') }) }).click();

        const moved = card(mine, post.title);
        await moved.locator('xpath=ancestor::section[@data-status="approved"]').waitFor();
        expect(await moved.getAttribute('class')).toContain('is-live-change');
        await mine.clock.runFor(500);
        // Said with the notification the approval brought her.
        await mine.waitForFunction((text) => document.querySelector('#ws-toast')?.textContent.includes(text), say(lang, 'live.postMoved', { title: post.title, status: say(lang, 'status.approved') }));
        expect(await mine.locator('#ws-toast').textContent()).toContain(say(lang, 'notifications.kinds.approved', { actor: 'Omar Khalil', title: post.title }));
        const one = await figure(mine, 1);
        await expect.poll(() => count.textContent()).toBe(one);
        expect(await bell(mine, width).getAttribute('aria-label')).toBe(say(lang, 'notifications.openUnread', { count: one }));
        // The manager's own page moved the card without a mark.
        expect(await card(theirs, post.title).getAttribute('class')).not.toContain('is-live-change');
        // On a narrow screen the board scrolls sideways: the shot shows the marked card.
        await moved.scrollIntoViewIfNeeded();
        // axe's timers need the clock: a few milliseconds at a time, well within the mark's moment.
        await checkAndShoot(mine, `workspace-live-board-${lang}-${width}`, { tick: () => mine.clock.runFor(5) });
        expect(await moved.getAttribute('class'), 'still marked when axe and the screenshot saw it').toContain('is-live-change');
        await mine.clock.resume();

        await moved.locator('.post-open').click();
        const panel = modal(mine);
        await panel.locator('.comment-list[aria-busy="false"]').waitFor({ state: 'attached' });
        await card(theirs, post.title).locator('.post-open').click();
        const composer = modal(theirs).locator('textarea.comment-input');
        await composer.fill('@Lina Farah add the time, please');
        await modal(theirs).locator('.comment-send').click();
        await modal(theirs).locator('.comment', { hasText: 'add the time' }).waitFor();

        await panel.locator('.comment', { hasText: 'add the time' }).waitFor();
        await expect.poll(() => count.textContent()).toBe(await figure(mine, 2));
        await checkAndShoot(mine, `workspace-live-comment-${lang}-${width}`);
        await panel.locator('.modal-close').click();

        await bell(mine, width).click();
        const list = modal(mine).locator('.notification-list');
        await list.locator('.notification').nth(1).waitFor();
        expect(await list.locator('.notification').first().textContent()).toContain(say(lang, 'notifications.kinds.mentioned', { actor: 'Omar Khalil', title: post.title }));

        // One more while the panel is open: it joins the list at the top, marked, and is read out there.
        const task = await app.ws.as(app.manager).post('/api/tasks').send({ title: 'Print the poster', brandId: app.brand.id, assigneeId: app.contributor.id });
        expect(task.status).toBe(201);
        const assigned = say(lang, 'notifications.kinds.assigned', { actor: 'Omar Khalil', title: 'Print the poster' });
        await list.locator('.notification').nth(2).waitFor();
        expect(await list.locator('.notification').first().textContent()).toContain(assigned);
        expect(await list.locator('.notification').first().getAttribute('class')).toContain('is-live-change');
        expect(await modal(mine).locator('.notification-panel [role="status"]').textContent()).toBe(assigned);
        await expect.poll(() => count.textContent()).toBe(await figure(mine, 3));
        await checkAndShoot(mine, `workspace-live-bell-${lang}-${width}`);

        // All of it arrived on the page as it was first loaded.
        expect(await mine.getAttribute('html', 'data-test-loaded')).toBe('once');
      } finally {
        await team.close();
      }
    },
    60_000,
  );

  it.each(COMBINATIONS)(
    'when a colleague changes a post whose form is open (%s, %i px), then what was typed stays, a notice says so, and Reload opens the form on the post as it is now',
    async (lang, width) => {
      const team = await twoMembers(browser(), lang, width);
      try {
        const { app } = team;
        const post = await waitingPost(app, 'Gallery tour');
        const mine = team.contributor.page;
        await openLive(mine, `${app.url}/workspace`);
        await card(mine, post.title).locator('.post-open').click();
        await modal(mine).getByRole('button', { name: say(lang, 'postPanel.edit') }).click();
        const form = modal(mine);
        const caption = form.locator('textarea[name="caption"]');
        await caption.fill('Tours every hour from 10');

        const changed = await app.ws.as(app.manager).patch(`/api/posts/${post.id}`).send({ title: 'Gallery tour at dusk' });
        expect(changed.status).toBe(200);

        const notice = form.locator('.live-notice');
        await notice.getByRole('button', { name: say(lang, 'live.reload') }).waitFor();
        expect(await notice.getAttribute('role')).toBe('status');
        expect(await notice.textContent()).toContain(say(lang, 'live.postChanged'));
        expect(await caption.inputValue()).toBe('Tours every hour from 10');
        expect(await form.locator('input[name="title"]').inputValue()).toBe('Gallery tour');
        await checkAndShoot(mine, `workspace-live-form-notice-${lang}-${width}`);

        await notice.getByRole('button', { name: say(lang, 'live.reload') }).click();
        await mine.waitForFunction(() => document.querySelector<HTMLInputElement>('dialog.modal[open] input[name="title"]')?.value === 'Gallery tour at dusk');
        expect(await modal(mine).locator('.live-notice').textContent()).toBe('');
        expect(await modal(mine).count()).toBe(1);
      } finally {
        await team.close();
      }
    },
    60_000,
  );
});
