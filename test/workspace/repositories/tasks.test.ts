import { expect, it } from 'vitest';
import { describeEngines } from '../../support/records';
import type { NewTask, TaskFilter } from '../../../src/workspace/tasks/repository';
import { at, NOW, repositories } from './fixtures';

const task = (brandId: number, more: Partial<NewTask> = {}): NewTask => ({
  brandId,
  title: 'Task',
  description: null,
  status: 'todo',
  priority: 'medium',
  dueDate: null,
  visibility: 'brand',
  assigneeId: null,
  projectId: null,
  campaignId: null,
  postId: null,
  ownerId: null,
  createdAt: NOW,
  ...more,
});

describeEngines('SqlTaskRepository', (kind) => {
  async function setup() {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [me, other] = [await r.member({ brandIds: [brand.id] }), await r.member({ brandIds: [brand.id] })];
    const ids = async (filter: Partial<TaskFilter>) =>
      (await r.tasks.list({ brandIds: undefined, viewerId: me.id, includeOthersPrivate: true, scope: 'all', limit: 50, offset: 0, ...filter })).map((t) => t.title);
    return { r, brand, me, other, ids };
  }

  it('when tasks are listed, then by due day with undated ones last, then oldest first, then by id, a page at a time', async () => {
    const { r, brand, ids } = await setup();
    await r.tasks.create(task(brand.id, { title: 'undated' }));
    await r.tasks.create(task(brand.id, { title: 'late', dueDate: '2026-06-01' }));
    await r.tasks.create(task(brand.id, { title: 'soon, newer', dueDate: '2026-02-01', createdAt: at(5) }));
    await r.tasks.create(task(brand.id, { title: 'soon, older', dueDate: '2026-02-01', createdAt: at(-5) }));
    await r.tasks.create(task(brand.id, { title: 'soon, older too', dueDate: '2026-02-01', createdAt: at(-5) }));
    expect(await ids({})).toEqual(['soon, older', 'soon, older too', 'soon, newer', 'late', 'undated']);
    expect(await ids({ limit: 2, offset: 2 })).toEqual(['soon, newer', 'late']);
    expect(await ids({ brandIds: [] })).toEqual([]);
  });

  it("when scoped to the one asking, then mine, assigned and created pick theirs, and others' private tasks stay hidden unless allowed", async () => {
    const { r, brand, me, other, ids } = await setup();
    await r.tasks.create(task(brand.id, { title: 'made by me', ownerId: me.id }));
    await r.tasks.create(task(brand.id, { title: 'given to me', ownerId: other.id, assigneeId: me.id, dueDate: '2026-01-01' }));
    await r.tasks.create(task(brand.id, { title: 'theirs, private', ownerId: other.id, visibility: 'private', dueDate: '2026-01-02' }));
    await r.tasks.create(task(brand.id, { title: 'theirs, shared', ownerId: other.id, dueDate: '2026-01-03' }));
    expect(await ids({ scope: 'mine' })).toEqual(['given to me', 'made by me']);
    expect(await ids({ scope: 'assigned' })).toEqual(['given to me']);
    expect(await ids({ scope: 'created' })).toEqual(['made by me']);
    expect(await ids({ includeOthersPrivate: false })).toEqual(['given to me', 'theirs, shared', 'made by me']);
    expect(await ids({})).toEqual(['given to me', 'theirs, private', 'theirs, shared', 'made by me']);
    expect(await ids({ assigneeId: me.id, status: 'todo' })).toEqual(['given to me']);
  });

  it('when filtered by due and priority, then overdue means before the day and not done, week the day and six on, none undated', async () => {
    const { r, brand, ids } = await setup();
    await r.tasks.create(task(brand.id, { title: 'late', dueDate: '2026-11-24', priority: 'high' }));
    await r.tasks.create(task(brand.id, { title: 'late, done', dueDate: '2026-11-01', status: 'done' }));
    await r.tasks.create(task(brand.id, { title: 'today', dueDate: '2026-11-25' }));
    await r.tasks.create(task(brand.id, { title: 'in six days', dueDate: '2026-12-01', priority: 'high' }));
    await r.tasks.create(task(brand.id, { title: 'in seven days', dueDate: '2026-12-02' }));
    await r.tasks.create(task(brand.id, { title: 'undated' }));
    const today = '2026-11-25';
    expect(await ids({ due: { when: 'overdue', today } })).toEqual(['late']);
    expect(await ids({ due: { when: 'week', today } })).toEqual(['today', 'in six days']);
    expect(await ids({ due: { when: 'none', today } })).toEqual(['undated']);
    expect(await ids({ priority: 'high' })).toEqual(['late', 'in six days']);
  });

  it('when sorted, then by priority (urgent first, then due), newest first, or by title whatever its case', async () => {
    const { r, brand, ids } = await setup();
    await r.tasks.create(task(brand.id, { title: 'Charlie', priority: 'low', dueDate: '2026-12-01', createdAt: at(1) }));
    await r.tasks.create(task(brand.id, { title: 'alpha', priority: 'urgent', createdAt: at(2) }));
    await r.tasks.create(task(brand.id, { title: 'Bravo', priority: 'medium', dueDate: '2026-12-05', createdAt: at(3) }));
    await r.tasks.create(task(brand.id, { title: 'delta', priority: 'medium', dueDate: '2026-12-02', createdAt: at(3) }));
    expect(await ids({ sort: 'priority' })).toEqual(['alpha', 'delta', 'Bravo', 'Charlie']);
    expect(await ids({ sort: 'newest' })).toEqual(['delta', 'Bravo', 'alpha', 'Charlie']);
    expect(await ids({ sort: 'title' })).toEqual(['alpha', 'Bravo', 'Charlie', 'delta']);
  });

  it('when a status, priority or visibility is not one the schema knows, then the database refuses it', async () => {
    const { r, brand } = await setup();
    await expect(r.tasks.create(task(brand.id, { status: 'someday' as never }))).rejects.toThrow();
    await expect(r.tasks.create(task(brand.id, { priority: 'whenever' as never }))).rejects.toThrow();
    await expect(r.tasks.create(task(brand.id, { visibility: 'public' as never }))).rejects.toThrow();
  });

  it('when a task is written, then its day and moments read back as written, and a member who leaves leaves it unassigned', async () => {
    const { r, brand, me, other } = await setup();
    const created = await r.tasks.create(task(brand.id, { dueDate: '2026-02-28', assigneeId: other.id, ownerId: me.id, createdAt: '2026-10-25T00:30:00.000Z' }));
    expect(created).toMatchObject({ dueDate: '2026-02-28', assigneeId: other.id, createdAt: '2026-10-25T00:30:00.000Z' });
    const updated = await r.tasks.update(created.id, { status: 'done', dueDate: null, updatedAt: at(2) });
    expect(updated).toMatchObject({ status: 'done', dueDate: null, updatedAt: at(2) });
    expect(await r.users.delete(other.id)).toBe('deleted');
    expect((await r.tasks.get(created.id))?.assigneeId).toBeNull();
    expect(await r.tasks.update(999_999, { title: 'x', updatedAt: NOW })).toBeUndefined();
    expect(await r.tasks.delete(created.id)).toBe(true);
    expect(await r.tasks.delete(created.id)).toBe(false);
  });
});
