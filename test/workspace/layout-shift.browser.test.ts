import { expect, it, onTestFinished } from 'vitest';
import { describeBrowser, layoutShiftOfLoad, observeLayoutShifts } from '../support/browser';
import type { TestUser } from '../support/workspace';
import { seed, signedIn, settled, useBrowser, type Lang, type Seeded } from './browser-helpers';

const PAGES = ['board', 'calendar', 'campaigns', 'assets', 'tasks', 'projects', 'budget', 'team', 'users', 'settings', 'mail', 'profile'] as const;
type PageName = (typeof PAGES)[number];
const pathOf = (name: PageName) => (name === 'board' ? '/workspace' : name === 'mail' ? '/workspace/settings/mail' : `/workspace/${name}`);
/** The calendar on the month of the posts, the budget on the campaign that has entries. */
const queryOf = (name: PageName, campaignId: number | null) =>
  name === 'calendar' ? '?date=2026-06-01' : name === 'budget' && campaignId !== null ? `?campaignId=${campaignId}` : '';

/** Enough records on each page to fill a screen: posts in every column and on the calendar, tasks, a project, budget entries. */
async function inUse(app: Seeded) {
  const as = (user: TestUser) => app.ws.as(user);
  const campaign = (await as(app.manager).post('/api/campaigns').send({ name: 'Ceramics of the Silk Road', brandId: app.brand.id, status: 'active', startDate: '2026-06-01' })).body.campaign;
  await as(app.manager).post('/api/campaigns').send({ name: 'Family Saturdays', brandId: app.brand.id });
  for (let i = 0; i < 12; i++) {
    const made = await as(app.manager).post('/api/posts').send({
      title: `Post number ${i + 1} of the season`,
      status: ['idea', 'draft', 'review'][i % 3],
      campaignId: campaign.id,
      scheduledAt: `2026-06-${String(3 + i).padStart(2, '0')}T10:00:00Z`,
    });
    expect(made.status, made.text).toBe(201);
  }
  const project = (await as(app.manager).post('/api/projects').send({ name: 'New visitor guide', brandId: app.brand.id, status: 'active' })).body.project;
  for (let i = 0; i < 6; i++) {
    const made = await as(app.manager).post('/api/tasks').send({ brandId: app.brand.id, title: `Task number ${i + 1}`, assigneeId: app.admin.id, priority: 'medium', projectId: project.id });
    expect(made.status, made.text).toBe(201);
  }
  for (const category of ['Printing', 'Online ads', 'Photography']) {
    const made = await as(app.manager).post('/api/budget-entries').send({ campaignId: campaign.id, currency: 'QAR', kind: 'planned', category, amount: 500_000 });
    expect(made.status, made.text).toBe(201);
  }
  return { campaignId: campaign.id as number, projectId: project.id as number };
}

/** The goal for a page's layout shift (Lighthouse's CLS). */
const LIMIT = 0.02;

describeBrowser('the layout shift of loading each workspace page, in a browser', () => {
  const browser = useBrowser();

  const cases: [Lang, number][] = [
    ['en', 412],
    ['ar', 412],
    ['en', 1440],
    ['ar', 1440],
  ];
  for (const [lang, width] of cases) {
    for (const which of ['with records', 'empty'] as const) {
      it(`when every page loads ${which} in ${lang} at ${width} px, its records arriving after the first paint, then nothing on it shifts by more than ${LIMIT}`, { timeout: 120_000 }, async () => {
        const app = await seed();
        onTestFinished(() => app.close());
        const data = which === 'empty' ? null : await inUse(app);
        const { context, page } = await signedIn(browser(), app, app.admin, { lang, width });
        try {
          await page.addInitScript(observeLayoutShifts);
          const shifts: Record<string, number> = {};
          const moved: Record<string, string[]> = {};
          const paths: [string, string][] = PAGES.map((name) => [name, `${pathOf(name)}${queryOf(name, data?.campaignId ?? null)}`]);
          if (data) paths.push(['project', `/workspace/projects/${data.projectId}`]);
          for (const [name, path] of paths) {
            const { total, moved: what } = await layoutShiftOfLoad(page, `${app.url}${path}`, settled);
            shifts[name] = Number(total.toFixed(4));
            if (total > LIMIT) moved[name] = what;
          }
          expect(moved, JSON.stringify(shifts)).toEqual({});
        } finally {
          await context.close();
        }
      });
    }
  }

  for (const [lang, width] of [
    ['ar', 390],
    ['en', 1440],
  ] as const) {
    it(`when a post's panel opens in ${lang} at ${width} px and its history and comments arrive after it, then its buttons stay where they were`, async () => {
      const app = await seed();
      onTestFinished(() => app.close());
      const made = await app.ws.as(app.contributor).post('/api/posts').send({ title: 'Gallery tour', caption: 'Doors open at 7', status: 'review', brandId: app.brand.id });
      expect(made.status, made.text).toBe(201);
      for (const body of ['The poster is ready', 'Add the time, please', 'Done: tours every hour from 10']) {
        const comment = await app.ws.as(app.manager).post(`/api/posts/${made.body.post.id}/comments`).send({ body });
        expect(comment.status, comment.text).toBe(201);
      }
      const { context, page } = await signedIn(browser(), app, app.contributor, { lang, width });
      try {
        await page.goto(`${app.url}/workspace`);
        await settled(page);
        const held: (() => Promise<void>)[] = [];
        await page.route(/\/api\/posts\/\d+\/(activity|comments)/, (route) => {
          held.push(() => route.continue());
        });
        await page.locator('.post-card', { hasText: 'Gallery tour' }).locator('.post-open').click();
        const edit = page.locator('dialog.modal[open] [data-edit]');
        await edit.waitFor();
        await page.waitForFunction(() => document.querySelector('dialog.modal[open]')?.getAnimations().length === 0);
        await expect.poll(() => held.length).toBe(2);
        const before = await edit.boundingBox();
        const dialogBefore = await page.locator('dialog.modal[open]').boundingBox();
        await Promise.all(held.map((go) => go()));
        await settled(page);
        // The history and the comments made the panel taller: what they add comes below.
        expect((await page.locator('dialog.modal[open]').boundingBox())?.height).toBeGreaterThan(dialogBefore?.height ?? Infinity);
        expect(await edit.boundingBox()).toEqual(before);
      } finally {
        await context.close();
      }
    });
  }
});
