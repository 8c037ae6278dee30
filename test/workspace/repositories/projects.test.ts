import { expect, it } from 'vitest';
import { describeEngines } from '../../support/records';
import type { NewProject } from '../../../src/workspace/projects/repository';
import { at, NOW, repositories } from './fixtures';

const project = (brandId: number, more: Partial<NewProject> = {}): NewProject => ({
  brandId,
  name: 'Project',
  description: null,
  status: 'planned',
  startDate: null,
  endDate: null,
  ownerId: null,
  createdAt: NOW,
  ...more,
});

describeEngines('SqlProjectRepository', (kind) => {
  it('when projects are listed, then newest first, id breaking ties, within the brands and status asked for', async () => {
    const r = await repositories(kind);
    const [brand, other] = [await r.brand(), await r.brand()];
    const old = await r.projects.create(project(brand.id, { createdAt: at(-10) }));
    const a = await r.projects.create(project(brand.id));
    const b = await r.projects.create(project(brand.id, { status: 'active' }));
    const theirs = await r.projects.create(project(other.id, { createdAt: at(10) }));
    expect((await r.projects.list({ brandIds: undefined })).map((p) => p.id)).toEqual([theirs.id, b.id, a.id, old.id]);
    expect((await r.projects.list({ brandIds: [brand.id], status: 'active' })).map((p) => p.id)).toEqual([b.id]);
    expect(await r.projects.list({ brandIds: [] })).toEqual([]);
  });

  it('when a project is written, then its days and moments read back as written, and a missing one is not found', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const created = await r.projects.create(project(brand.id, { startDate: '2026-02-28', endDate: '2026-12-31', createdAt: '2026-03-29T01:59:00.000Z' }));
    expect(created).toMatchObject({ startDate: '2026-02-28', endDate: '2026-12-31', createdAt: '2026-03-29T01:59:00.000Z', updatedAt: '2026-03-29T01:59:00.000Z' });
    const updated = await r.projects.update(created.id, { status: 'paused', description: 'Why', updatedAt: at(1) });
    expect(updated).toMatchObject({ status: 'paused', description: 'Why', startDate: '2026-02-28', updatedAt: at(1) });
    expect(await r.projects.get(created.id)).toEqual(updated);
    expect(await r.projects.update(999_999, { name: 'x', updatedAt: NOW })).toBeUndefined();
    await expect(r.projects.create(project(999_999))).rejects.toThrow();
  });

  it('when a project is deleted, then its tasks stay without a project', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const p = await r.projects.create(project(brand.id));
    const task = await r.tasks.create({ brandId: brand.id, title: 'T', description: null, status: 'todo', priority: 'low', dueDate: null, visibility: 'brand', assigneeId: null, projectId: p.id, campaignId: null, postId: null, ownerId: null, createdAt: NOW });
    expect(await r.projects.delete(p.id)).toBe(true);
    expect(await r.projects.delete(p.id)).toBe(false);
    expect((await r.tasks.get(task.id))?.projectId).toBeNull();
  });
});
