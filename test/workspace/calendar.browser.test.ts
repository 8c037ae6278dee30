import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import type { PostStatus } from '../../src/workspace/domain';
import type { TestUser } from '../support/workspace';
import { checkAndShoot, countsSeen, idleDrawingStopped, runAs, scrollUntilDrawn, settled, useBrowser, watchCounts, type Seeded } from './browser-helpers';

/** Two campaigns with posts in June 2026, one published and one without a date. */
async function calendarData(app: Seeded) {
  const as = (user: TestUser) => app.ws.as(user);
  const campaign = async (name: string) => (await as(app.manager).post('/api/campaigns').send({ name, brandId: app.brand.id })).body.campaign;
  const summer = await campaign('Summer nights');
  const school = await campaign('School visits');
  const post = async (user: TestUser, body: object) => {
    const res = await as(user).post('/api/posts').send(body);
    expect(res.status, res.text).toBe(201);
    return res.body.post as { id: number; scheduledAt: string | null; title: string };
  };
  const written = await post(app.contributor, { title: 'Opening night poster', status: 'review', platform: 'instagram', campaignId: summer.id, scheduledAt: '2026-06-10T10:30:00Z' });
  // Scheduled by a manager, as only managers may.
  const scheduled = await as(app.manager).patch(`/api/posts/${written.id}`).send({ status: 'scheduled' });
  expect(scheduled.status, scheduled.text).toBe(200);
  const poster = scheduled.body.post as typeof written;
  const reel = await post(app.manager, { title: 'Behind the scenes reel', status: 'draft', campaignId: summer.id, scheduledAt: '2026-06-12T14:00:00Z' });
  const letter = await post(app.manager, { title: 'Letter to schools', status: 'review', campaignId: school.id, scheduledAt: '2026-06-12T08:15:00Z' });
  const talk = await post(app.manager, { title: 'Gallery talk announcement', status: 'idea', campaignId: school.id });
  const opens = await post(app.manager, {
    title: 'Exhibition opens',
    status: 'published',
    campaignId: summer.id,
    scheduledAt: '2026-06-03T09:00:00Z',
    publicationUrl: 'https://www.instagram.com/p/exhibition-opens',
  });
  return { summer, school, poster, reel, letter, talk, opens };
}

const JUNE = '/workspace/calendar?date=2026-06-01';
const card = (page: Page, title: string) => page.locator('.cal-card', { hasText: title });
const day = (page: Page, key: string) => page.locator(`.cal-day[data-day="${key}"]`);
const stored = async (app: Seeded, id: number) => (await app.ws.as(app.manager).get(`/api/posts/${id}`)).body.post as { scheduledAt: string | null; status: string };

/** A post of `owner`'s taken to `status` by the manager (with a link when published). */
async function postAt(app: Seeded, owner: TestUser, status: PostStatus, title: string, scheduledAt: string | null) {
  const made = await app.ws.as(owner).post('/api/posts').send({ title, brandId: app.brand.id, scheduledAt });
  expect(made.status, made.text).toBe(201);
  if (status === 'idea') return made.body.post as { id: number; scheduledAt: string | null };
  const moved = await app.ws.as(app.manager).patch(`/api/posts/${made.body.post.id}`).send({ status, ...(status === 'published' ? { publicationUrl: 'https://museum.example/p/1' } : {}) });
  expect(moved.status, moved.text).toBe(200);
  return moved.body.post as { id: number; scheduledAt: string | null };
}

/** Drags the card of `postId` onto the Unscheduled tray, as `drag` does onto a day. */
async function dragToTray(page: Page, postId: number) {
  const size = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(height, size.height) });
  await page.dragAndDrop(`.cal-card[data-post-id="${postId}"] a`, '[data-unscheduled-tray]');
  await page.setViewportSize(size);
}

/** The same moment of day, `days` later, as the browser (in this machine's time zone) computes it. */
function daysLater(iso: string, days: number): number {
  const d = new Date(iso);
  d.setDate(d.getDate() + days);
  return d.getTime();
}

/**
 * Drags the card of `postId` onto `dayKey`. The window is first made as tall as the page: were
 * the page to scroll between pressing and moving, the drag would start from another card.
 */
async function drag(page: Page, postId: number, dayKey: string) {
  const size = page.viewportSize()!;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.max(height, size.height) });
  await page.dragAndDrop(`.cal-card[data-post-id="${postId}"] a`, `.cal-day[data-day="${dayKey}"]`);
  await page.setViewportSize(size);
}

/** What scrolls sideways: the page itself, or any element wider than the window. */
function overflow(page: Page) {
  return page.evaluate(() => ({
    page: document.documentElement.scrollWidth - window.innerWidth,
    wide: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 || e.getBoundingClientRect().left < -1)
      .filter((e) => !e.closest('.sr-only, .cal-day-name, .cal-day-count, [hidden], .ws-sidebar, .ws-toast'))
      .map((e) => `${e.tagName}.${e.className}`),
  }));
}

/** Keeps a copy of a screenshot in the scratch folder a person looks at, when there is one. */
async function shoot(page: Page, name: string) {
  await checkAndShoot(page, name);
  const scratch = process.env.CALENDAR_SHOTS;
  if (!scratch) return;
  fs.mkdirSync(scratch, { recursive: true });
  fs.copyFileSync(path.resolve(__dirname, '..', 'artifacts', `${name}.png`), path.join(scratch, `${name}.png`));
}

describeBrowser('Calendar /workspace/calendar in a browser', () => {
  const browser = useBrowser();

  it('when June is opened in English, then posts sit on their days with their status, the week starts on Monday, and the undated post is in the side list', () =>
    runAs(browser(), 'manager', { prepare: calendarData }, async ({ app, page, data: { opens } }) => {
      await page.goto(`${app.url}${JUNE}`);
      await settled(page);
      expect(await page.textContent('[data-period]')).toBe('June 2026');
      expect(await page.locator('.cal-weekdays span').first().textContent()).toBe('Mon');
      expect(await day(page, '2026-06-10').locator('.cal-card').allTextContents()).toEqual([expect.stringContaining('Opening night poster')]);
      expect(await day(page, '2026-06-12').locator('.cal-card-title').allTextContents()).toEqual(['Letter to schools', 'Behind the scenes reel']);
      expect(await card(page, 'Behind the scenes reel').getAttribute('data-status')).toBe('draft');
      expect(await card(page, 'Behind the scenes reel').textContent()).toContain('Status: Draft');
      expect(await day(page, '2026-06-03').locator('.cal-card').textContent()).toContain('Published Jun 3');
      expect(await card(page, 'Exhibition opens').locator('a').getAttribute('draggable')).toBe('false');
      expect(await card(page, 'Exhibition opens').locator('a').getAttribute('href')).toBe(`/workspace?post=${opens.id}`);
      expect(await page.locator('.cal-unscheduled .cal-card-title').allTextContents()).toEqual(['Gallery talk announcement']);
      expect(await page.locator('.cal-legend li').allTextContents()).toEqual(['Idea', 'Draft', 'In review', 'Approved', 'Scheduled', 'Published']);
      expect(await page.locator('.ws-sidebar a[data-nav="calendar"]').getAttribute('aria-current')).toBe('page');
      await shoot(page, 'calendar-month-en-1440');

      await page.click('[data-step="1"]');
      expect(await page.textContent('[data-period]')).toBe('July 2026');
      expect(new URL(page.url()).searchParams.get('date')).toBe('2026-07-01');
      await page.click('[data-today]');
      const now = new Date();
      expect(await page.textContent('[data-period]')).toBe(now.toLocaleDateString('en', { month: 'long', year: 'numeric' }));
      expect(await page.locator('.cal-day.is-today[aria-current="date"]').count()).toBe(1);
    }));

  it('when a card is dragged to another day, then it is rescheduled there at the same time of day; an undated post dragged onto a day gets one', () =>
    runAs(browser(), 'manager', { prepare: calendarData }, async ({ app, page, data: { poster, talk } }) => {
      await page.goto(`${app.url}${JUNE}`);
      await settled(page);
      await drag(page, poster.id, '2026-06-17');
      await day(page, '2026-06-17').locator('.cal-card', { hasText: 'Opening night poster' }).waitFor();
      await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('moved to'));
      expect(await page.textContent('#ws-toast')).toBe('“Opening night poster” moved to Wednesday, June 17.');
      expect(new Date((await stored(app, poster.id)).scheduledAt!).getTime()).toBe(daysLater(poster.scheduledAt!, 7));

      await drag(page, talk.id, '2026-06-15');
      await day(page, '2026-06-15').locator('.cal-card', { hasText: 'Gallery talk announcement' }).waitFor();
      await expect.poll(async () => (await stored(app, talk.id)).scheduledAt).not.toBeNull();
      const given = new Date((await stored(app, talk.id)).scheduledAt!);
      expect(given.getTime()).toBe(new Date(2026, 5, 15, 9).getTime());
      expect(await page.locator('.cal-unscheduled .cal-card').count()).toBe(0);
    }));

  it('when the server refuses a move, then its message is shown and the card goes back to its day', () =>
    runAs(browser(), 'manager', { prepare: calendarData }, async ({ app, page, data: { reel, letter } }) => {
      await page.goto(`${app.url}${JUNE}`);
      await settled(page);
      // Deleted by someone else a moment ago, its live event still on the way: the server answers 404.
      await page.route(`**/api/posts/${letter.id}`, (route) =>
        route.request().method() === 'PATCH'
          ? route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ error: 'No such post', code: 'NOT_FOUND' }) })
          : route.fallback(),
      );
      await drag(page, letter.id, '2026-06-25');
      await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('no longer exists'));
      await day(page, '2026-06-12').locator('.cal-card', { hasText: 'Letter to schools' }).waitFor();
      expect(await day(page, '2026-06-25').locator('.cal-card').count()).toBe(0);

      // A 400 from the server, for a move made from the keyboard.
      await page.route(`**/api/posts/${reel.id}`, (route) =>
        route.request().method() === 'PATCH'
          ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'Bad moment', code: 'VALIDATION' }) })
          : route.fallback(),
      );
      await card(page, 'Behind the scenes reel').locator('a').focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('not valid'));
      await day(page, '2026-06-12').locator('.cal-card', { hasText: 'Behind the scenes reel' }).waitFor();
      expect(await day(page, '2026-06-13').locator('.cal-card').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.closest('.cal-card')?.textContent)).toContain('Behind the scenes reel');
      expect((await stored(app, reel.id)).scheduledAt).toBe(reel.scheduledAt);
    }));

  it('when a card is picked up with Space, moved with the arrow keys and dropped with Enter, then it is rescheduled and keeps the focus; Escape puts it back', () =>
    runAs(browser(), 'manager', { prepare: calendarData }, async ({ app, page, data: { reel, letter } }) => {
      await page.goto(`${app.url}${JUNE}`);
      await settled(page);
      await card(page, 'Behind the scenes reel').locator('a').focus();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-describedby'))).toBe('cal-card-hint');
      await page.keyboard.press('Space');
      expect(await page.textContent('#ws-toast')).toContain('“Behind the scenes reel” picked up, on Friday, June 12.');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      expect(await page.textContent('#ws-toast')).toBe('“Behind the scenes reel” over Sunday, June 21.');
      expect(await day(page, '2026-06-21').locator('.cal-card.is-held').count()).toBe(1);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('moved to'));
      expect(new Date((await stored(app, reel.id)).scheduledAt!).getTime()).toBe(daysLater(reel.scheduledAt!, 9));
      expect(await page.evaluate(() => document.activeElement?.closest('.cal-day')?.getAttribute('data-day'))).toBe('2026-06-21');
      expect(page.url()).toContain('/workspace/calendar');

      await card(page, 'Letter to schools').locator('a').focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowUp');
      expect(await day(page, '2026-06-05').locator('.cal-card.is-held').count()).toBe(1);
      await page.keyboard.press('Escape');
      expect(await day(page, '2026-06-12').locator('.cal-card', { hasText: 'Letter to schools' }).count()).toBe(1);
      expect(await page.locator('.cal-card.is-held').count()).toBe(0);
      expect((await stored(app, letter.id)).scheduledAt).toBe(letter.scheduledAt);

      // Past the end of the month, the calendar turns the page with the card.
      await card(page, 'Behind the scenes reel').locator('a').focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      expect(await page.textContent('[data-period]')).toBe('July 2026');
      expect(await day(page, '2026-07-05').locator('.cal-card.is-held').count()).toBe(1);
      await page.keyboard.press('Escape');
    }));

  it('when a campaign is chosen, then only its posts stay, and the filter and the week view are kept in the address across a reload', () =>
    runAs(browser(), 'contributor', { prepare: calendarData }, async ({ app, page, data: { school } }) => {
      await page.goto(`${app.url}${JUNE}`);
      await settled(page);
      expect(await page.locator('.cal-card').count()).toBe(5);
      await page.selectOption('#filter-campaign', String(school.id));
      await page.waitForFunction(() => document.querySelectorAll('.cal-card').length === 2);
      expect(await page.locator('.cal-card-title').allTextContents()).toEqual(['Letter to schools', 'Gallery talk announcement']);
      expect(new URL(page.url()).searchParams.get('campaignId')).toBe(String(school.id));

      await page.click('[data-view="week"]');
      expect(await page.getAttribute('[data-view="week"]', 'aria-pressed')).toBe('true');
      await page.click('[data-step="1"]');
      expect(await page.textContent('[data-period]')).toBe('June 8 – 14, 2026');
      await page.reload();
      await settled(page);
      expect(await page.textContent('[data-period]')).toBe('June 8 – 14, 2026');
      expect(await page.inputValue('#filter-campaign')).toBe(String(school.id));
      expect(await page.locator('.cal-grid.is-week .cal-day').count()).toBe(7);
      expect(await page.locator('.cal-card-title').allTextContents()).toEqual(['Letter to schools', 'Gallery talk announcement']);
      // A contributor moves only their own posts.
      expect(await card(page, 'Letter to schools').locator('a').getAttribute('draggable')).toBe('false');
      await page.click('[data-clear-filters]');
      await page.waitForFunction(() => document.querySelectorAll('.cal-card').length === 4);
      await shoot(page, 'calendar-week-en-1440');
    }));

  it('when a day of the month has more posts than fit, then three show with a button to the rest, which opens that day\'s week; a narrow window lists them all', () =>
    runAs(browser(), 'manager', {
      prepare: async (app) => {
        for (let hour = 9; hour < 14; hour += 1) {
          expect((await app.ws.as(app.manager).post('/api/posts').send({ title: `Countdown ${hour}`, brandId: app.brand.id, scheduledAt: new Date(2026, 5, 24, hour).toISOString() })).status).toBe(201);
        }
      },
    }, async ({ app, page }) => {
      await page.goto(`${app.url}${JUNE}`);
      await settled(page);
      const crowded = day(page, '2026-06-24');
      expect(await crowded.locator('.cal-card:visible .cal-card-title').allTextContents()).toEqual(['Countdown 9', 'Countdown 10', 'Countdown 11']);
      expect(await crowded.locator('.cal-more').textContent()).toBe('+2 more');
      await crowded.locator('.cal-more').click();
      expect(await page.textContent('[data-period]')).toBe('June 22 – 28, 2026');
      expect(await day(page, '2026-06-24').locator('.cal-card:visible').count()).toBe(5);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Countdown 9');
      expect(new URL(page.url()).searchParams.get('view')).toBe('week');

      await page.click('[data-view="month"]');
      await page.setViewportSize({ width: 390, height: 900 });
      expect(await day(page, '2026-06-24').locator('.cal-card:visible').count()).toBe(5);
      expect(await page.locator('.cal-more:visible').count()).toBe(0);
    }));

  it('when a card is clicked, then the post\'s panel opens on the board', () =>
    runAs(browser(), 'manager', { prepare: calendarData }, async ({ app, page, data: { reel } }) => {
      await page.goto(`${app.url}${JUNE}`);
      await settled(page);
      await card(page, 'Behind the scenes reel').locator('a').click();
      await page.waitForURL((url) => url.pathname === '/workspace');
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('.post-panel').waitFor();
      expect(await modal.locator('.modal-title').textContent()).toBe('Behind the scenes reel');
      expect(new URL(page.url()).searchParams.has('post')).toBe(false);
      expect(reel.id).toBeGreaterThan(0);
    }));

  it('when the page is Arabic, then it is right-to-left, the month and days are named in Arabic, the week starts on Sunday at the right, and the arrows are mirrored', () =>
    runAs(browser(), 'manager', { lang: 'ar', prepare: calendarData }, async ({ app, page }) => {
      await page.goto(`${app.url}${JUNE}`);
      await settled(page);
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      expect(await page.textContent('[data-period]')).toContain('يونيو');
      expect(await page.locator('.cal-weekdays span').first().textContent()).toBe('الأحد');
      const first = (await page.locator('.cal-day').nth(0).boundingBox())!;
      const second = (await page.locator('.cal-day').nth(1).boundingBox())!;
      expect(first.x).toBeGreaterThan(second.x);
      const flipped = await page.evaluate(() => [...document.querySelectorAll('.cal-step .icon')].map((i) => getComputedStyle(i).transform));
      expect(flipped).toEqual(['matrix(-1, 0, 0, 1, 0, 0)', 'matrix(-1, 0, 0, 1, 0, 0)']);
      const [previous, next] = await Promise.all([page.locator('[data-step="-1"]').boundingBox(), page.locator('[data-step="1"]').boundingBox()]);
      expect(previous!.x).toBeGreaterThan(next!.x);
      expect(await page.getAttribute('[data-step="-1"]', 'aria-label')).toBe('الشهر السابق');
      await shoot(page, 'calendar-month-ar-1440');

      // In Arabic, ArrowLeft is the next day.
      await card(page, 'Behind the scenes reel').locator('a').focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('ArrowLeft');
      expect(await day(page, '2026-06-13').locator('.cal-card.is-held').count()).toBe(1);
      await page.keyboard.press('Escape');
    }));

  for (const lang of ['en', 'ar'] as const) {
    it(`when the window is 390 px wide (${lang}), then the month is a list of its days with posts, the week a list of days, and nothing scrolls sideways`, () =>
      runAs(browser(), 'manager', { lang, width: 390, prepare: calendarData }, async ({ app, page }) => {
        await page.goto(`${app.url}${JUNE}`);
        await settled(page);
        expect(await overflow(page)).toEqual({ page: 0, wide: [] });
        expect(await page.locator('.cal-day:visible').count()).toBe(3);
        expect(await page.locator('.cal-day:visible .cal-day-name').first().isVisible()).toBe(true);
        await shoot(page, `calendar-month-${lang}-390`);
        await page.click('[data-view="week"]');
        await page.click('[data-today]');
        expect(await page.locator('.cal-day:visible').count()).toBe(7);
        expect(await overflow(page)).toEqual({ page: 0, wide: [] });
        await shoot(page, `calendar-week-${lang}-390`);
      }));
  }

  it('when a busy month opens on a phone, then the first days get their cards with the days and the later days in the tasks after, until every card is there', () =>
    runAs(
      browser(),
      'manager',
      {
        width: 390,
        // Eight days of June with four posts each: 32 cards, past a screenful of 12.
        prepare: async (app) => {
          for (let i = 0; i < 32; i++) {
            const date = `2026-06-${String(3 + Math.floor(i / 4) * 3).padStart(2, '0')}T${String(8 + (i % 4)).padStart(2, '0')}:00:00Z`;
            const made = await app.ws.as(app.manager).post('/api/posts').send({ title: `Busy day post ${i + 1}`, brandId: app.brand.id, scheduledAt: date });
            expect(made.status, made.text).toBe(201);
          }
        },
      },
      async ({ app, page }) => {
        await watchCounts(page, '.cal-day.has-posts:not(.is-outside)', '.cal-card');
        await page.goto(`${app.url}${JUNE}`);
        await settled(page);
        const seen = await countsSeen(page);
        expect(seen[0], 'the first screenful of days, then none').toEqual([4, 4, 4, 0, 0, 0, 0, 0]);
        expect(seen.at(-1), 'every card, in the end').toEqual([4, 4, 4, 4, 4, 4, 4, 4]);
        await day(page, '2026-06-24').scrollIntoViewIfNeeded();
        expect(await day(page, '2026-06-24').locator('.cal-card-title').allTextContents()).toHaveLength(4);
      },
    ));

  it('when the week view is opened in Arabic, then it passes axe and is captured', () =>
    runAs(browser(), 'manager', { lang: 'ar', prepare: calendarData }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/calendar?view=week&date=2026-06-10`);
      await settled(page);
      expect(await page.locator('.cal-grid.is-week .cal-day').count()).toBe(7);
      expect(await day(page, '2026-06-07').count()).toBe(1);
      expect(await page.locator('.cal-grid .cal-card').count()).toBe(3);
      await shoot(page, 'calendar-week-ar-1440');
    }));

  it('when a manager drops an approved post on a day, then it is scheduled for that moment; from the tray, at nine', () =>
    runAs(
      browser(),
      'manager',
      {
        prepare: async (app) => ({
          dated: await postAt(app, app.contributor, 'approved', 'Approved teaser', '2026-06-15T10:30:00Z'),
          undated: await postAt(app, app.contributor, 'approved', 'Approved and undated', null),
        }),
      },
      async ({ app, page, data: { dated, undated } }) => {
        await page.goto(`${app.url}${JUNE}`);
        await settled(page);
        await drag(page, dated.id, '2026-06-18');
        await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('scheduled for'));
        expect(await page.textContent('#ws-toast')).toBe('“Approved teaser” scheduled for Thursday, June 18.');
        expect(await stored(app, dated.id)).toMatchObject({ status: 'scheduled' });
        expect(new Date((await stored(app, dated.id)).scheduledAt!).getTime()).toBe(daysLater(dated.scheduledAt!, 3));
        expect(await card(page, 'Approved teaser').getAttribute('data-status')).toBe('scheduled');

        await drag(page, undated.id, '2026-06-22');
        await expect.poll(async () => (await stored(app, undated.id)).status).toBe('scheduled');
        expect(new Date((await stored(app, undated.id)).scheduledAt!).getTime()).toBe(new Date(2026, 5, 22, 9).getTime());
      },
    ));

  it('when a contributor drops their draft on a day, then it is only dated; their approved post moved to a day goes back to review, and the message says so', () =>
    runAs(
      browser(),
      'contributor',
      {
        prepare: async (app) => ({
          draft: await postAt(app, app.contributor, 'draft', 'My draft', null),
          approved: await postAt(app, app.contributor, 'approved', 'My approved post', '2026-06-15T10:30:00Z'),
        }),
      },
      async ({ app, page, data: { draft, approved } }) => {
        await page.goto(`${app.url}${JUNE}`);
        await settled(page);
        await drag(page, draft.id, '2026-06-16');
        await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('moved to'));
        expect(await stored(app, draft.id)).toMatchObject({ status: 'draft', scheduledAt: expect.any(String) });

        await drag(page, approved.id, '2026-06-17');
        await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('back in review'));
        expect(await page.textContent('#ws-toast')).toBe('“My approved post” moved to Wednesday, June 17; it is back in review for a manager’s approval.');
        expect(await stored(app, approved.id)).toMatchObject({ status: 'review' });
        expect(await card(page, 'My approved post').getAttribute('data-status')).toBe('review');
      },
    ));

  it('when a dated post is dropped on Unscheduled, or Delete is pressed while it is held, then it loses its date; a scheduled post is not taken there', () =>
    runAs(browser(), 'manager', { prepare: calendarData }, async ({ app, page, data: { reel, letter, poster } }) => {
      await page.goto(`${app.url}${JUNE}`);
      await settled(page);
      await dragToTray(page, reel.id);
      await page.locator('.cal-unscheduled .cal-card', { hasText: 'Behind the scenes reel' }).waitFor();
      await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent === '“Behind the scenes reel” has no date now.');
      expect(await stored(app, reel.id)).toMatchObject({ status: 'draft', scheduledAt: null });

      // Scheduled means dated: the tray refuses the drop, and the post keeps its day.
      await dragToTray(page, poster.id);
      expect(await day(page, '2026-06-10').locator('.cal-card', { hasText: 'Opening night poster' }).count()).toBe(1);
      expect((await stored(app, poster.id)).scheduledAt).toBe(poster.scheduledAt);

      await card(page, 'Letter to schools').locator('a').focus();
      await page.keyboard.press('Space');
      expect(await page.textContent('#ws-toast')).toContain('Delete takes its date off.');
      await page.keyboard.press('Delete');
      await page.locator('.cal-unscheduled .cal-card', { hasText: 'Letter to schools' }).waitFor();
      await expect.poll(async () => (await stored(app, letter.id)).scheduledAt).toBeNull();
      expect(await page.evaluate(() => document.activeElement?.closest('.cal-unscheduled') !== null)).toBe(true);

      // Held from the keyboard, a scheduled post says nothing of Delete, and Delete does nothing.
      await card(page, 'Opening night poster').locator('a').focus();
      await page.keyboard.press('Space');
      expect(await page.textContent('#ws-toast')).not.toContain('Delete');
      await page.keyboard.press('Delete');
      await page.keyboard.press('Escape');
      expect((await stored(app, poster.id)).scheduledAt).toBe(poster.scheduledAt);
    }));

  it('when a contributor looks at the calendar, then each card they may drag the server lets them date, and the others it refuses', () =>
    runAs(
      browser(),
      'contributor',
      {
        prepare: async (app) => {
          for (const owner of ['contributor', 'manager'] as const) {
            for (const status of ['idea', 'draft', 'review', 'approved', 'scheduled', 'published'] as const) {
              await postAt(app, app[owner], status, `${owner} ${status}`, '2026-06-10T10:00:00Z');
            }
          }
        },
      },
      async ({ app, page }) => {
        await page.goto(`${app.url}/workspace/calendar?view=week&date=2026-06-10`);
        await settled(page);
        for (const owner of ['contributor', 'manager'] as const) {
          for (const status of ['idea', 'draft', 'review', 'approved', 'scheduled', 'published'] as const) {
            const title = `${owner} ${status}`;
            const draggable = (await page.locator('.cal-card', { has: page.locator('.cal-card-title', { hasText: new RegExp(`^${title}$`) }) }).locator('a').getAttribute('draggable')) === 'true';
            const fresh = await postAt(app, app[owner], status, title, '2026-06-10T10:00:00Z');
            const res = await app.ws.as(app.contributor).patch(`/api/posts/${fresh.id}`).send({ scheduledAt: '2026-06-11T10:00:00Z' });
            expect(res.status === 200, `${title}: draggable ${draggable}, answered ${res.status}`).toBe(draggable);
            const undated = await app.ws.as(app.contributor).patch(`/api/posts/${(await postAt(app, app[owner], status, title, '2026-06-10T10:00:00Z')).id}`).send({ scheduledAt: null });
            // The tray takes a card only when it may lose its date: draggable, and not scheduled.
            expect(undated.status === 200, `${title}: undated answered ${undated.status}`).toBe(draggable && status !== 'scheduled');
          }
        }
      },
    ), 60_000);

  it('when a thousand posts have no date, then the tray scrolls on its own and the page stays its height', () =>
    runAs(
      browser(),
      'manager',
      {
        prepare: async (app) => {
          const { db } = app.ws.stores.records.workspace;
          const at = new Date(app.ws.clock.now()).toISOString();
          for (let batch = 0; batch < 10; batch += 1) {
            const rows = Array.from({ length: 100 }, (_, i) => ({
              brand_id: app.brand.id,
              campaign_id: null,
              title: `Undated ${batch * 100 + i + 1}`,
              caption: null,
              platform: null,
              status: 'idea' as const,
              scheduled_at: null,
              publication_url: null,
              owner_id: app.manager.id,
              created_at: at,
              updated_at: at,
            }));
            await db.insertInto('posts').values(rows).execute();
          }
        },
      },
      async ({ app, page }) => {
        await page.goto(`${app.url}${JUNE}`);
        await settled(page);
        expect(await page.textContent('[data-unscheduled-count]')).toBe('1000');
        // The tray draws a screenful at once, more while the browser is idle up to the page's
        // few hundred cards, and the rest as it is scrolled.
        await idleDrawingStopped(page, '.cal-unscheduled .cal-card');
        await scrollUntilDrawn(page, '.cal-unscheduled', '.cal-card', 1000);
        const sizes = await page.evaluate(() => {
          const list = document.querySelector('.cal-unscheduled')!;
          return { page: document.documentElement.scrollHeight, window: window.innerHeight, list: list.scrollHeight, shown: list.clientHeight };
        });
        expect(sizes.page).toBeLessThan(sizes.window * 2);
        expect(sizes.list).toBeGreaterThan(sizes.shown * 10);
        await shoot(page, 'calendar-tray-en-1440');
        await page.setViewportSize({ width: 390, height: 900 });
        const narrow = await page.evaluate(() => ({ page: document.documentElement.scrollHeight, list: document.querySelector('.cal-unscheduled')!.clientHeight }));
        expect(narrow.list).toBeLessThanOrEqual(900);
        expect(narrow.page).toBeLessThan(3000);
      },
    ), 60_000);
});
