import { request, type HttpResponse } from '../support/http';
import { describe, expect, it } from 'vitest';
import { buildTeam, snapshot } from '../support/workspace';

const ids = (res: HttpResponse) => res.body.projects.map((p: { id: number }) => p.id);

describe('POST /api/projects', () => {
  it.each(['admin', 'manager'] as const)('when a %s creates a project, then 201 {project} with the owner and defaults', async (who) => {
    const t = await buildTeam();
    const res = await t.ws.as(t[who]).post('/api/projects').send({ name: 'New website', brandId: t.brand.id, startDate: '2026-02-01', endDate: '2026-06-30' });
    expect(res.status).toBe(201);
    expect(res.body.project).toEqual({
      id: expect.any(Number),
      brandId: t.brand.id,
      name: 'New website',
      description: null,
      status: 'planned',
      startDate: '2026-02-01',
      endDate: '2026-06-30',
      ownerId: t[who].id,
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
      can: { edit: true, delete: true },
    });
  });

  it('when a contributor creates a project, then 403 and nothing is stored; a manager in another brand gets 404', async () => {
    const t = await buildTeam();
    const before = await snapshot(t.ws);
    expect((await t.ws.as(t.contributor).post('/api/projects').send({ name: 'X', brandId: t.brand.id })).status).toBe(403);
    expect((await t.ws.as(t.manager).post('/api/projects').send({ name: 'X', brandId: t.other.id })).status).toBe(404);
    expect(await snapshot(t.ws)).toBe(before);
  });

  it.each([
    ['no brandId', { name: 'X' }],
    ['no name', { brandId: 1 }],
    ['an unknown status', { name: 'X', brandId: 1, status: 'done' }],
    ['an impossible date', { name: 'X', brandId: 1, endDate: '2026-13-01' }],
    ['an owner', { name: 'X', brandId: 1, ownerId: 1 }],
  ])('when the body has %s, then 400', async (_label, body) => {
    const t = await buildTeam();
    expect((await t.ws.as(t.admin).post('/api/projects').send(body)).status).toBe(400);
  });

  it('when the end is before the start, then 400 INVALID_DATE_RANGE', async () => {
    const t = await buildTeam();
    const res = await t.ws.as(t.admin).post('/api/projects').send({ name: 'X', brandId: t.brand.id, startDate: '2026-05-02', endDate: '2026-05-01' });
    expect(res.body.code).toBe('INVALID_DATE_RANGE');
  });
});

describe('GET /api/projects', () => {
  it('when projects exist in two brands, then each reads only theirs, newest first, filterable by status; another brand’s one is 404', async () => {
    const t = await buildTeam();
    const a = (await t.ws.as(t.manager).post('/api/projects').send({ name: 'A', brandId: t.brand.id })).body.project;
    t.ws.clock.advance(1000);
    const b = (await t.ws.as(t.manager).post('/api/projects').send({ name: 'B', brandId: t.brand.id, status: 'active' })).body.project;
    const theirs = (await t.ws.as(t.admin).post('/api/projects').send({ name: 'C', brandId: t.other.id })).body.project;
    expect(ids(await t.ws.as(t.contributor).get('/api/projects'))).toEqual([b.id, a.id]);
    expect(ids(await t.ws.as(t.contributor).get('/api/projects?status=active'))).toEqual([b.id]);
    expect(ids(await t.ws.as(t.admin).get(`/api/projects?brandId=${t.other.id}`))).toEqual([theirs.id]);
    expect((await t.ws.as(t.contributor).get(`/api/projects/${theirs.id}`)).status).toBe(404);
    expect((await t.ws.as(t.contributor).get(`/api/projects/${a.id}`)).body.project.name).toBe('A');
    expect((await request(t.ws.app).get('/api/projects')).status).toBe(401);
  });
});

describe('PATCH and DELETE /api/projects/:id', () => {
  it('when a manager renames and deletes a project, then its tasks stay without a project; a contributor gets 403', async () => {
    const t = await buildTeam();
    const project = (await t.ws.as(t.manager).post('/api/projects').send({ name: 'A', brandId: t.brand.id })).body.project;
    const task = (await t.ws.as(t.contributor).post('/api/tasks').send({ title: 'T', projectId: project.id })).body.task;
    expect((await t.ws.as(t.contributor).patch(`/api/projects/${project.id}`).send({ name: 'Mine' })).status).toBe(403);
    expect((await t.ws.as(t.contributor).delete(`/api/projects/${project.id}`)).status).toBe(403);
    expect((await t.ws.as(t.manager).patch(`/api/projects/${project.id}`).send({ name: 'Renamed', status: 'active' })).body.project).toMatchObject({
      name: 'Renamed',
      status: 'active',
    });
    expect((await t.ws.as(t.manager).patch(`/api/projects/${project.id}`).send({})).status).toBe(400);
    expect((await t.ws.as(t.manager).delete(`/api/projects/${project.id}`)).body).toEqual({ ok: true });
    expect((await t.ws.as(t.contributor).get(`/api/tasks/${task.id}`)).body.task.projectId).toBeNull();
    expect((await t.ws.as(t.manager).delete(`/api/projects/${project.id}`)).status).toBe(404);
  });

  it('when the owner is deleted as a member, then the project stays with no owner', async () => {
    const t = await buildTeam();
    const project = (await t.ws.as(t.manager).post('/api/projects').send({ name: 'A', brandId: t.brand.id })).body.project;
    expect((await t.ws.as(t.admin).delete(`/api/members/${t.manager.id}`)).status).toBe(200);
    expect((await t.ws.as(t.contributor).get(`/api/projects/${project.id}`)).body.project.ownerId).toBeNull();
  });
});
