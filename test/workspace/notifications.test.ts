import { describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { buildTeam } from '../support/workspace';

describe('GET /api/notifications', () => {
  it('when a task is handed to a member, then they are told (assigned) with who did it, and not when they take it themselves', async () => {
    const t = await buildTeam();
    const task = (await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Brief', brandId: t.brand.id, assigneeId: t.contributor.id })).body.task;
    await t.ws.as(t.colleague).post('/api/tasks').send({ title: 'Mine', brandId: t.brand.id, assigneeId: t.colleague.id });
    const res = await t.ws.as(t.contributor).get('/api/notifications');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      unread: 1,
      notifications: [
        { id: expect.any(Number), kind: 'assigned', postId: null, taskId: task.id, actorId: t.manager.id, actorName: expect.any(String), title: 'Brief', count: 1, createdAt: expect.any(String), readAt: null },
      ],
    });
    expect((await t.ws.as(t.colleague).get('/api/notifications')).body).toEqual({ unread: 0, notifications: [] });
  });

  it('when the member later loses the brand or the task turns private, then its notifications are no longer shown or counted', async () => {
    const t = await buildTeam();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'Opening', brandId: t.brand.id })).body.post;
    await t.ws.as(t.colleague).post(`/api/posts/${post.id}/comments`).send({ body: 'Nice' });
    const task = (await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Brief', brandId: t.brand.id, assigneeId: t.colleague.id })).body.task;
    await t.ws.as(t.colleague).post(`/api/tasks/${task.id}/comments`).send({ body: 'On it' });
    expect((await t.ws.as(t.manager).get('/api/notifications')).body.unread).toBe(1);
    await t.ws.as(t.manager).patch(`/api/tasks/${task.id}`).send({ assigneeId: null, visibility: 'private' });
    await t.ws.as(t.admin).patch(`/api/members/${t.contributor.id}`).send({ brandIds: [t.other.id] });
    expect((await t.ws.as(t.contributor).get('/api/notifications')).body).toEqual({ unread: 0, notifications: [] });
    const colleague = (await t.ws.as(t.colleague).get('/api/notifications')).body;
    expect(colleague).toEqual({ unread: 0, notifications: [] });
  });

  it('when not signed in, then 401', async () => {
    const t = await buildTeam();
    expect((await request(t.ws.app).get('/api/notifications')).status).toBe(401);
    expect((await request(t.ws.app).post('/api/notifications/read').send({ all: true })).status).toBe(401);
  });
});

describe('POST /api/notifications/read', () => {
  it('when some or all are marked read, then they count no more, with readAt set; ids of another member change nothing of theirs', async () => {
    const t = await buildTeam();
    for (const title of ['One', 'Two', 'Three']) await t.ws.as(t.manager).post('/api/tasks').send({ title, brandId: t.brand.id, assigneeId: t.contributor.id });
    await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Theirs', brandId: t.brand.id, assigneeId: t.colleague.id });
    const mine = (await t.ws.as(t.contributor).get('/api/notifications')).body.notifications as { id: number }[];
    const theirs = (await t.ws.as(t.colleague).get('/api/notifications')).body.notifications as { id: number }[];
    const some = await t.ws.as(t.contributor).post('/api/notifications/read').send({ ids: [mine[0].id, theirs[0].id] });
    expect(some.status).toBe(200);
    expect(some.body).toMatchObject({ ok: true, marked: 1, unread: 2 });
    expect(some.body.notifications[0].readAt).toEqual(expect.any(String));
    expect((await t.ws.as(t.colleague).get('/api/notifications')).body.unread).toBe(1);
    const all = await t.ws.as(t.contributor).post('/api/notifications/read').send({ all: true });
    expect(all.body).toMatchObject({ marked: 2, unread: 0 });
  });

  it.each([[{}], [{ ids: [] }], [{ ids: ['1'] }], [{ all: false }], [{ ids: [1], all: true }], [{ ids: Array.from({ length: 501 }, (_, i) => i + 1) }]])(
    'when the body is %j, then 400',
    async (body) => {
      const t = await buildTeam();
      expect((await t.ws.as(t.contributor).post('/api/notifications/read').send(body)).status).toBe(400);
    },
  );
});
