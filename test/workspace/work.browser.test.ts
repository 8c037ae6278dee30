import { expect, it } from 'vitest';
import { describeBrowser } from '../support/browser';
import { closeAll, runAs, seed, settled, signedIn, useBrowser } from './browser-helpers';

describeBrowser('Tasks, Projects, Budget and Settings in a browser', () => {
  const browser = useBrowser();

  it('when a contributor assigns a task to a colleague, then it is under "Assigned by me", the colleague finds it under "My tasks" and marks it done', async () => {
    const app = await seed();
    const author = await signedIn(browser(), app, app.contributor);
    try {
      const { page } = author;
      await page.goto(`${app.url}/workspace/tasks`);
      await settled(page);
      expect(await page.textContent('.ws-state')).toContain('Nothing is assigned to you');
      await page.click('[data-new-task]');
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('input[name="title"]').fill('Proofread the wall texts');
      await modal.locator('select[name="assigneeId"]').selectOption(String(app.manager.id));
      await modal.locator('select[name="priority"]').selectOption('high');
      await modal.locator('input[name="dueDate"]').fill('2099-05-01');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      // Assigned to someone else, it does not belong under "My tasks", not even until a reload.
      await settled(page);
      expect(await page.locator('[data-task-id]', { hasText: 'Proofread the wall texts' }).count()).toBe(0);
      expect(await page.textContent('.ws-state')).toContain('Nothing is assigned to you');
      await page.click('[data-scope="created"]');
      await page.locator('[data-task-id]', { hasText: 'Proofread the wall texts' }).waitFor();
      expect(await page.getAttribute('[data-scope="created"]', 'aria-pressed')).toBe('true');
      expect(await page.textContent('[data-task-id]')).toContain('Assigned to Omar Khalil');
      expect(new URL(page.url()).searchParams.get('scope')).toBe('created');
      await closeAll(author.context, author.dialogs);

      const assignee = await signedIn(browser(), app, app.manager);
      await assignee.page.goto(`${app.url}/workspace/tasks`);
      await settled(assignee.page);
      const task = assignee.page.locator('[data-task-id]', { hasText: 'Proofread the wall texts' });
      await task.getByLabel('Status of Proofread the wall texts').selectOption('done');
      await assignee.page.locator('.task-done', { hasText: 'Proofread the wall texts' }).waitFor();
      const stored = (await app.ws.as(app.manager).get('/api/tasks?scope=assigned')).body.tasks;
      expect(stored).toMatchObject([{ title: 'Proofread the wall texts', status: 'done', priority: 'high', dueDate: '2099-05-01' }]);
      await closeAll(assignee.context, assignee.dialogs);
    } finally {
      await app.close();
    }
  });

  it('when a tab\'s list answers after another tab was chosen, then the tab chosen last keeps its own list', async () => {
    const app = await seed();
    await app.ws.as(app.manager).post('/api/tasks').send({ title: 'Only under all', brandId: app.brand.id });
    const { page, context, dialogs } = await signedIn(browser(), app, app.contributor);
    try {
      await page.goto(`${app.url}/workspace/tasks`);
      await settled(page);
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/tasks?scope=created*', async (route) => {
        await held;
        // The page may have given up on this request meanwhile.
        await route.continue().catch(() => undefined);
      });
      const isHeld = (r: { url(): string }) => r.url().includes('scope=created');
      // Whichever comes, the other is left waiting until the page closes; neither may surface as an error.
      const heldEnded = Promise.race([
        page.waitForEvent('requestfinished', isHeld).catch(() => undefined),
        page.waitForEvent('requestfailed', isHeld).catch(() => undefined),
      ]);

      await page.click('[data-scope="created"]');
      expect(await page.getAttribute('[data-scope="created"]', 'aria-pressed')).toBe('true');
      expect(await page.locator('[data-task-id]').count()).toBe(0);

      await page.click('[data-scope="all"]');
      await page.locator('[data-task-id]', { hasText: 'Only under all' }).waitFor();
      release();
      await heldEnded;
      await settled(page);
      expect(await page.getAttribute('[data-scope="all"]', 'aria-pressed')).toBe('true');
      expect(await page.locator('[data-task-id]', { hasText: 'Only under all' }).count()).toBe(1);
      expect(new URL(page.url()).searchParams.get('scope')).toBe('all');
      await closeAll(context, dialogs);
    } finally {
      await app.close();
    }
  });

  it('when a manager creates a project and adds budget entries, then the project lists and the totals, table and chart follow', () =>
    runAs(browser(), 'manager', {
      prepare: async (app) => {
        const campaign = (await app.ws.as(app.manager).post('/api/campaigns').send({ name: 'Night at the museum', brandId: app.brand.id })).body.campaign;
        return { campaign };
      },
    }, async ({ app, page, data: { campaign } }) => {
      await page.goto(`${app.url}/workspace/projects`);
      await settled(page);
      await page.click('[data-new-project]');
      const modal = page.locator('dialog.modal[open]');
      await modal.locator('input[name="name"]').fill('Audio guide');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      await page.locator('[data-project-id]', { hasText: 'Audio guide' }).waitFor();
      expect(await page.textContent('[data-project-id]')).toContain('0 open tasks');

      await page.goto(`${app.url}/workspace/budget`);
      await settled(page);
      expect(await page.inputValue('#budget-campaign')).toBe(String(campaign.id));
      for (const [kind, category, amount] of [
        ['planned', 'Catering', '1500'],
        ['spent', 'Catering', '1725.5'],
      ]) {
        await page.click('[data-new-entry]');
        await modal.locator('select[name="kind"]').selectOption(kind);
        await modal.locator('input[name="category"]').fill(category);
        await modal.locator('input[name="amount"]').fill(amount);
        await modal.locator('button[type="submit"]').click();
        await modal.waitFor({ state: 'detached' });
        await settled(page);
      }
      expect(await page.textContent('[data-total="planned"]')).toContain('1,500.00');
      expect(await page.textContent('[data-total="spent"]')).toContain('1,725.50');
      expect(await page.textContent('[data-total="remaining"]')).toContain('225.50');
      expect(await page.getAttribute('[data-remaining-box]', 'class')).toContain('kpi-box-over');
      expect(await page.locator('[data-entries] tbody tr').count()).toBe(2);
      // The chart is drawn once Chart.js has loaded, which the page does when it first draws one.
      type ChartJs = { getChart: (canvas: Element) => { data: { labels: string[] } } | undefined };
      await expect.poll(() => page.evaluate(() => (window as unknown as { Chart?: ChartJs }).Chart?.getChart(document.querySelector('[data-chart]')!)?.data.labels)).toEqual(['Catering']);
      const summary = (await app.ws.as(app.manager).get(`/api/budget-entries/summary?campaignId=${campaign.id}`)).body.summary;
      expect(summary).toMatchObject({ planned: 150_000, spent: 172_550 });
    }));

  it('when a contributor opens the budget, then the figures show without any write button', () =>
    runAs(browser(), 'contributor', {
      prepare: async (app) => {
        const campaign = (await app.ws.as(app.manager).post('/api/campaigns').send({ name: 'Lecture series', brandId: app.brand.id })).body.campaign;
        await app.ws.as(app.manager).post('/api/budget-entries').send({ campaignId: campaign.id, category: 'Speakers', amount: 90_000, currency: 'QAR' });
      },
    }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/budget`);
      await settled(page);
      expect(await page.textContent('[data-total="spent"]')).toContain('900.00');
      expect(await page.locator('[data-new-entry]').count()).toBe(0);
      expect(await page.locator('[data-entries] button').count()).toBe(0);
    }));

  it('when the language is switched in Settings or with the header toggle, then the page turns and the profile keeps the choice', () =>
    runAs(browser(), 'contributor', {}, async ({ app, page, context }) => {
      await page.goto(`${app.url}/workspace/settings`);
      await page.check('#lang-ar');
      await page.click('.ws-language-form button[type="submit"]');
      await page.waitForFunction(() => document.documentElement.dir === 'rtl');
      expect((await app.ws.as(app.contributor).get('/api/auth/me')).body.user.language).toBe('ar');
      await page.click('.lang-toggle a[hreflang="en"]');
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      expect((await app.ws.as(app.contributor).get('/api/auth/me')).body.user.language).toBe('en');
      expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('en');
    }));
});
