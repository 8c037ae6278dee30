import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser, type Seeded } from './browser-helpers';

/**
 * Two projects, and tasks the manager made: one for the contributor (in the first project),
 * one for the superadmin, which the contributor only sees.
 */
async function tasksOf(app: Seeded) {
  const as = app.ws.as(app.manager);
  const project = async (name: string) => (await as.post('/api/projects').send({ name, brandId: app.brand.id })).body.project as { id: number; name: string };
  const guide = await project('Visitor guide');
  const signage = await project('Gallery signage');
  const make = async (body: object) => {
    const res = await as.post('/api/tasks').send({ brandId: app.brand.id, ...body });
    expect(res.status).toBe(201);
    return res.body.task as { id: number; title: string };
  };
  const mine = await make({ title: 'Proofread the guide', assigneeId: app.contributor.id, priority: 'high', dueDate: '2026-02-10', projectId: guide.id });
  const theirs = await make({ title: 'Book the printer', assigneeId: app.admin.id, priority: 'low', projectId: signage.id });
  return { guide, signage, mine, theirs };
}

const stored = async (app: Seeded, id: number) => (await app.ws.as(app.admin).get(`/api/tasks/${id}`)).body.task as Record<string, unknown>;

/** The panel's field by its label. */
const field = (panel: Locator, label: string) => panel.getByLabel(label, { exact: true });

/** Waits for the toast that says the task was saved, then clears it for the next change. */
async function savedToast(page: Page) {
  await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('saved'));
  await page.evaluate(() => document.querySelector('#ws-toast')!.replaceChildren());
}

describeBrowser('A task opened in its panel, in a browser', () => {
  const browser = useBrowser();

  it("when the assignee opens their task from its card, then its status, priority, due date, project and assignee change in place, the API and the card agree, and once handed on it only reads", () =>
    runAs(browser(), 'contributor', { prepare: tasksOf }, async ({ app, page, data }) => {
      await page.goto(`${app.url}/workspace/tasks?scope=all&view=board`);
      await settled(page);
      await page.locator(`[data-task-id="${data.mine.id}"] .task-open`).click();
      const panel = page.locator('dialog.modal[open] .task-panel');
      await panel.waitFor();
      expect(await field(panel, 'Status').inputValue()).toBe('todo');
      expect(await field(panel, 'Assignee').inputValue()).toBe(String(app.contributor.id));
      expect(await field(panel, 'Priority').inputValue()).toBe('high');
      expect(await field(panel, 'Due date').inputValue()).toBe('2026-02-10');
      expect(await field(panel, 'Project').inputValue()).toBe(String(data.guide.id));
      // The status is where the focus starts.
      expect(await page.evaluate(() => document.activeElement?.closest('.task-fields') !== null)).toBe(true);

      await field(panel, 'Status').selectOption('doing');
      await savedToast(page);
      await field(panel, 'Priority').selectOption('urgent');
      await savedToast(page);
      await field(panel, 'Due date').fill('2026-03-01');
      await savedToast(page);
      await field(panel, 'Project').selectOption(String(data.signage.id));
      await savedToast(page);
      expect(await stored(app, data.mine.id)).toMatchObject({ status: 'doing', priority: 'urgent', dueDate: '2026-03-01', projectId: data.signage.id, assigneeId: app.contributor.id });
      // The board behind the panel follows.
      await page.locator(`.kanban-column[data-status="doing"] [data-task-id="${data.mine.id}"]`).waitFor({ state: 'attached' });
      await checkAndShoot(page, 'workspace-task-panel-en-1440');

      await field(panel, 'Assignee').selectOption(String(app.manager.id));
      await savedToast(page);
      expect(await stored(app, data.mine.id)).toMatchObject({ assigneeId: app.manager.id });
      // No longer the contributor's to change: the panel reads, and the focus stays in it.
      await panel.locator('.task-facts').waitFor();
      expect(await panel.locator('select, input[type="date"]').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
      expect(await panel.locator('.task-facts').textContent()).toContain('Omar Khalil');
    }));

  it('when a task the contributor may not change is opened from a link in Arabic at 390 px, then its details read without a control and its comments stay open to them', () =>
    runAs(browser(), 'contributor', { lang: 'ar', width: 390, prepare: tasksOf }, async ({ app, page, data }) => {
      await page.goto(`${app.url}/workspace/tasks?task=${data.theirs.id}`);
      await settled(page);
      const panel = page.locator('dialog.modal[open] .task-panel');
      await panel.waitFor();
      expect(await panel.locator('select, input').count()).toBe(0);
      const facts = await panel.locator('.task-facts').evaluate((dl) => [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
      expect(facts).toEqual([
        ['الحالة', 'للتنفيذ'],
        ['المكلَّف', 'Salma Haddad'],
        ['الأولوية', 'منخفضة'],
        ['تاريخ الاستحقاق', 'بلا تاريخ استحقاق'],
        ['المشروع', 'Gallery signage'],
      ]);
      await panel.locator('textarea').waitFor();
      await checkAndShoot(page, 'workspace-task-panel-read-ar-390');
    }));

  it('when the assignee opens the task from their notification in Arabic at 390 px, then its fields are there to change, with no serious axe violation', () =>
    runAs(browser(), 'contributor', { lang: 'ar', width: 390, prepare: tasksOf }, async ({ app, page, data }) => {
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      await page.locator('.ws-mobilebar [data-notifications-open]').click();
      await page.locator('dialog.modal[open] .notification').first().click();
      await page.waitForURL(`**/workspace/tasks?task=${data.mine.id}`);
      const panel = page.locator('dialog.modal[open] .task-panel');
      await panel.waitFor();
      await field(panel, 'الحالة').selectOption('done');
      await page.waitForFunction(() => document.querySelector('#ws-toast')?.textContent.includes('Proofread the guide'));
      expect(await stored(app, data.mine.id)).toMatchObject({ status: 'done' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await checkAndShoot(page, 'workspace-task-panel-ar-390');
    }));

  it('when the server refuses a change made in the panel, then the field goes back to what is stored and says why, and the user stays signed in', () =>
    runAs(browser(), 'manager', { prepare: tasksOf }, async ({ app, page, data }) => {
      await page.goto(`${app.url}/workspace/tasks?scope=all`);
      await settled(page);
      await page.locator(`[data-task-id="${data.theirs.id}"]`).getByRole('button', { name: /Comments/ }).click();
      const panel = page.locator('dialog.modal[open] .task-panel');
      await panel.waitFor();
      // Lina leaves the brand after the page was read.
      await app.ws.members.update(app.contributor.id, { brandIds: [] });
      await field(panel, 'Assignee').selectOption(String(app.contributor.id));
      const error = panel.locator('.field-error:not([hidden])');
      await error.waitFor();
      expect(await error.textContent()).toContain('not a member');
      expect(await field(panel, 'Assignee').inputValue()).toBe(String(app.admin.id));
      expect(await field(panel, 'Assignee').getAttribute('aria-invalid')).toBe('true');
      expect(await stored(app, data.theirs.id)).toMatchObject({ assigneeId: app.admin.id });
      expect(new URL(page.url()).pathname).toBe('/workspace/tasks');
    }));
});
