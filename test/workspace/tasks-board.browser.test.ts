import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import { checkAndShoot, runAs, settled, useBrowser, type Seeded } from './browser-helpers';

const column = (page: Page, status: string) => page.locator(`.task-board .kanban-column[data-status="${status}"]`);
const card = (page: Page, title: string) => page.locator('.task-card', { hasText: title });

/** A project of the seeded brand with two tasks, a task outside it, and a second brand with its own project. */
async function tasksOf(app: Seeded) {
  const as = (who: 'admin' | 'manager' | 'contributor') => app.ws.as(app[who]);
  const project = (await as('manager').post('/api/projects').send({ name: 'Visitor guide', brandId: app.brand.id, status: 'active' })).body.project;
  const make = async (body: object) => {
    const res = await as('manager').post('/api/tasks').send({ brandId: app.brand.id, ...body });
    expect(res.status).toBe(201);
    return res.body.task as { id: number; title: string };
  };
  const proofread = await make({ title: 'Proofread the guide', projectId: project.id, assigneeId: app.contributor.id, priority: 'high', dueDate: '2020-01-10' });
  const print = await make({ title: 'Print the guide', projectId: project.id, priority: 'low', dueDate: '2099-03-01' });
  const caption = await make({ title: 'Caption the photos', assigneeId: app.contributor.id, priority: 'urgent' });
  const other = await app.ws.brand('Science Museum');
  await app.ws.members.update(app.admin.id, { brandIds: [app.brand.id, other.id] });
  const theirs = (await as('admin').post('/api/projects').send({ name: 'Planetarium show', brandId: other.id })).body.project;
  return { project, proofread, print, caption, other, theirs };
}

const statusOf = async (app: Seeded, id: number) => (await app.ws.as(app.admin).get(`/api/tasks/${id}`)).body.task.status as string;

describeBrowser('The Tasks board, filters and a project\'s page in a browser', () => {
  const browser = useBrowser();

  it('when the contributor switches to the board, then tasks show by status; a card moves by drag and by its move menu, and the board survives a reload', async () => {
    await runAs(browser(), 'contributor', { prepare: tasksOf }, async ({ app, page, data }) => {
      await page.goto(`${app.url}/workspace/tasks?scope=all`);
      await settled(page);
      await page.click('[data-view="board"]');
      expect(await page.getAttribute('[data-view="board"]', 'aria-pressed')).toBe('true');
      expect(new URL(page.url()).searchParams.get('view')).toBe('board');
      expect(await page.isHidden('[data-tasks]')).toBe(true);
      expect(await column(page, 'todo').locator('.task-card').count()).toBe(3);
      // Overdue and undated cards say so.
      expect(await card(page, 'Proofread the guide').locator('.task-due.is-overdue').count()).toBe(1);
      expect(await card(page, 'Caption the photos').textContent()).toContain('No due date');
      // Not the contributor's to change: no move menu, not draggable.
      expect(await card(page, 'Print the guide').locator('.task-move').count()).toBe(0);
      expect(await card(page, 'Print the guide').getAttribute('draggable')).toBeNull();

      await page.dragAndDrop('.task-card:has-text("Proofread the guide")', '.task-board .kanban-column[data-status="doing"]');
      await column(page, 'doing').locator('.task-card', { hasText: 'Proofread the guide' }).waitFor();
      expect(await statusOf(app, data.proofread.id)).toBe('doing');

      // By keyboard: the move menu opens with Enter and its items are chosen with the arrows.
      await card(page, 'Caption the photos').locator('.task-move').focus();
      await page.keyboard.press('Enter');
      const items = await page.locator('[role="menu"]:not([hidden]) [role="menuitem"]').allTextContents();
      expect(items).toEqual(['Move to In progress', 'Move to Done']);
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await column(page, 'done').locator('.task-card', { hasText: 'Caption the photos' }).waitFor();
      expect(await statusOf(app, data.caption.id)).toBe('done');
      // The focus stays on the moved card.
      expect(await page.evaluate(() => document.activeElement?.closest('[data-task-id]')?.textContent)).toContain('Caption the photos');

      await page.reload();
      await settled(page);
      expect(await page.isVisible('[data-task-board]')).toBe(true);
      expect(await column(page, 'doing').textContent()).toContain('Proofread the guide');
      await checkAndShoot(page, 'tasks-board-en-1440');
    });
  });

  it('when filters and a sort are chosen, then the address keeps them, a reload shows the same, and "Clear filters" brings all back', async () => {
    await runAs(browser(), 'manager', { prepare: tasksOf }, async ({ app, page, data }) => {
      await page.goto(`${app.url}/workspace/tasks?scope=all`);
      await settled(page);
      expect(await page.locator('[data-task-id]').count()).toBe(3);
      await page.selectOption('#filter-project', String(data.project.id));
      await settled(page);
      await page.selectOption('#filter-sort', 'title');
      await settled(page);
      const titles = () => page.locator('[data-tasks] [data-task-id] h3').allTextContents();
      expect(await titles()).toEqual(['Print the guide', 'Proofread the guide']);
      await page.selectOption('#filter-due', 'overdue');
      await settled(page);
      expect(await titles()).toEqual(['Proofread the guide']);
      const address = new URL(page.url()).searchParams;
      expect(Object.fromEntries(address)).toMatchObject({ projectId: String(data.project.id), sort: 'title', due: 'overdue' });

      await page.reload();
      await settled(page);
      expect(await page.inputValue('#filter-project')).toBe(String(data.project.id));
      expect(await page.inputValue('#filter-sort')).toBe('title');
      expect(await page.inputValue('#filter-due')).toBe('overdue');
      expect(await titles()).toEqual(['Proofread the guide']);

      await page.selectOption('#filter-due', '');
      await page.selectOption('#filter-priority', 'urgent');
      await settled(page);
      expect(await page.textContent('[data-state]')).toContain('No tasks match these filters.');
      await page.click('[data-clear-filters]');
      await settled(page);
      expect(await page.locator('[data-task-id]').count()).toBe(3);
      expect(await page.isHidden('[data-clear-filters]')).toBe(true);
      expect([...new URL(page.url()).searchParams.keys()]).toEqual(['scope']);
    });
  });

  it('when a shared link names a value the page does not offer, then that filter is left out rather than failing the list', async () => {
    await runAs(browser(), 'manager', { prepare: tasksOf }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/tasks?scope=all&priority=asap&sort=oldest&due=week&view=board`);
      await settled(page);
      expect(await page.inputValue('#filter-priority')).toBe('');
      expect(await page.inputValue('#filter-sort')).toBe('due');
      expect(await page.inputValue('#filter-due')).toBe('week');
      expect(await page.isVisible('[data-task-board]')).toBe(true);
    });
  });

  it("when the project card's link is followed by keyboard, then the project's page names it and lists only its tasks, as a list and a board", async () => {
    await runAs(browser(), 'contributor', { prepare: tasksOf }, async ({ app, page, data }) => {
      await page.goto(`${app.url}/workspace/projects`);
      await settled(page);
      const link = page.getByRole('link', { name: 'View tasks of Visitor guide' });
      await link.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/workspace/projects/${data.project.id}`);
      await settled(page);
      expect(await page.textContent('h1')).toBe('Visitor guide');
      expect(await page.getAttribute('[data-nav="projects"]', 'aria-current')).toBe('page');
      expect((await page.locator('[data-tasks] [data-task-id] h3').allTextContents()).sort()).toEqual(['Print the guide', 'Proofread the guide']);
      expect(await page.locator('#filter-project').count()).toBe(0);
      await page.click('[data-view="board"]');
      expect(await page.locator('.task-card').count()).toBe(2);
      await checkAndShoot(page, 'tasks-project-en-1440');

      // A new task made here goes in the project.
      await page.click('[data-new-task]');
      const modal = page.locator('dialog.modal[open]');
      expect(await modal.locator('select[name="projectId"]').inputValue()).toBe(String(data.project.id));
      await modal.locator('input[name="title"]').fill('Translate the guide');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      await card(page, 'Translate the guide').waitFor();
      const stored = (await app.ws.as(app.contributor).get(`/api/tasks?projectId=${data.project.id}`)).body.tasks;
      expect(stored.map((x: { title: string }) => x.title)).toContain('Translate the guide');
    });
  });

  it("when someone asks for a project's page they may not see, then 404", async () => {
    await runAs(browser(), 'contributor', { prepare: tasksOf }, async ({ app, page, data }) => {
      const res = await page.goto(`${app.url}/workspace/projects/${data.theirs.id}`);
      expect(res?.status()).toBe(404);
      expect((await page.goto(`${app.url}/workspace/projects/abc`))?.status()).toBe(404);
    });
  });

  it('when the brand of a new task changes, then the project and campaign choices are only that brand\'s', async () => {
    await runAs(browser(), 'admin', { prepare: tasksOf }, async ({ app, page, data }) => {
      await app.ws.as(app.admin).post('/api/campaigns').send({ name: 'Space week', brandId: data.other.id });
      await app.ws.as(app.admin).post('/api/campaigns').send({ name: 'Spring lectures', brandId: app.brand.id });
      await page.goto(`${app.url}/workspace/tasks`);
      await settled(page);
      await page.click('[data-new-task]');
      const modal = page.locator('dialog.modal[open]');
      const choices = (name: string) => modal.locator(`select[name="${name}"] option`).allTextContents();
      await modal.locator('select[name="brandId"]').selectOption(String(app.brand.id));
      expect(await choices('projectId')).toEqual(['No project', 'Visitor guide']);
      expect(await choices('campaignId')).toEqual(['No campaign', 'Spring lectures']);
      await modal.locator('select[name="projectId"]').selectOption(String(data.project.id));
      await modal.locator('select[name="brandId"]').selectOption(String(data.other.id));
      expect(await choices('projectId')).toEqual(['No project', 'Planetarium show']);
      expect(await choices('campaignId')).toEqual(['No campaign', 'Space week']);
      // The project of the first brand is no longer chosen.
      expect(await modal.locator('select[name="projectId"]').inputValue()).toBe('');
      await modal.locator('select[name="projectId"]').selectOption(String(data.theirs.id));
      await modal.locator('input[name="title"]').fill('Book the dome');
      await modal.locator('button[type="submit"]').click();
      await modal.waitFor({ state: 'detached' });
      const stored = (await app.ws.as(app.admin).get(`/api/tasks?projectId=${data.theirs.id}`)).body.tasks;
      expect(stored).toMatchObject([{ title: 'Book the dome', brandId: data.other.id, projectId: data.theirs.id }]);
    });
  });

  it.each([
    ['en', 1440, '“My tasks” holds only the tasks assigned to you, so none of them can be assigned to Salma Haddad.', 'See the tasks of Salma Haddad in “All tasks”'],
    ['ar', 390, 'لا تضم «مهامي» إلا المهام المُسندة إليك، فلا يمكن أن تكون أيٌّ منها مُسندة إلى Salma Haddad.', 'عرض مهام Salma Haddad في «كل المهام»'],
  ] as const)('when "My tasks" is filtered by another assignee (%s, %i px), then the page says why nothing can match and takes them to All tasks, where their tasks are', async (lang, width, why, action) => {
    await runAs(browser(), 'contributor', { lang, width, prepare: tasksOf }, async ({ app, page }) => {
      await app.ws.as(app.manager).post('/api/tasks').send({ title: 'Sign the print order', brandId: app.brand.id, assigneeId: app.admin.id });
      await page.goto(`${app.url}/workspace/tasks`);
      await settled(page);
      expect(await page.getAttribute('[data-scope="assigned"]', 'aria-pressed')).toBe('true');
      // Oneself is no contradiction: one's own tasks show.
      await page.selectOption('#filter-assignee', String(app.contributor.id));
      await settled(page);
      expect(await page.locator('[data-tasks] [data-task-id]').count()).toBe(2);
      expect(await page.isHidden('[data-show-all]')).toBe(true);

      await page.selectOption('#filter-assignee', String(app.admin.id));
      await settled(page);
      expect(await page.locator('[data-task-id]').count()).toBe(0);
      expect(await page.textContent('[data-state]')).toBe(why);
      expect(await page.locator('[data-state] bdi').textContent()).toBe('Salma Haddad');
      await checkAndShoot(page, `tasks-mine-other-assignee-${lang}-${width}`);
      await page.getByRole('button', { name: action }).click();
      await settled(page);
      expect(await page.getAttribute('[data-scope="all"]', 'aria-pressed')).toBe('true');
      expect(Object.fromEntries(new URL(page.url()).searchParams)).toMatchObject({ scope: 'all', assigneeId: String(app.admin.id) });
      expect(await page.locator('[data-tasks] [data-task-id] h3').allTextContents()).toEqual(['Sign the print order']);
      expect(await page.isHidden('[data-show-all]')).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-scope'))).toBe('all');
    });
  });

  it('when the board is shown in Arabic at 390px, then it reads right to left with no serious axe violation', async () => {
    await runAs(browser(), 'contributor', { lang: 'ar', width: 390, prepare: tasksOf }, async ({ app, page }) => {
      await page.goto(`${app.url}/workspace/tasks?scope=all&view=board`);
      await settled(page);
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      expect(await page.locator('.task-card').count()).toBe(3);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await checkAndShoot(page, 'tasks-board-ar-390');
    });
  });
});
