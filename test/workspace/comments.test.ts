import { describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { buildTeam, snapshot, type TestUser } from '../support/workspace';

type Team = Awaited<ReturnType<typeof buildTeam>>;

/** A team whose members have names to mention, a post by the contributor and a task of the manager's. */
async function conversation() {
  const t = await buildTeam();
  const salma = await t.ws.user('contributor', { brandIds: [t.brand.id], name: 'Salma Haddad' });
  const rival = await t.ws.user('manager', { brandIds: [t.other.id], name: 'Omar Rival' });
  const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'Opening night', brandId: t.brand.id })).body.post as { id: number };
  const task = (await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Print the poster', brandId: t.brand.id })).body.task as { id: number };
  return { ...t, salma, rival, post, task };
}

const notified = async (t: Team, who: TestUser) =>
  ((await t.ws.as(who).get('/api/notifications')).body.notifications as { kind: string; postId: number | null; taskId: number | null }[]).map((n) => [n.kind, n.postId ?? n.taskId]);

describe('POST /api/posts/:id/comments', () => {
  it('when a member comments, then 201 {comment} with the author, and the thread lists it, oldest first, with line breaks kept', async () => {
    const t = await conversation();
    const first = await t.ws.as(t.colleague).post(`/api/posts/${t.post.id}/comments`).send({ body: '  Looks good\r\nOne thing: the date  ' });
    expect(first.status).toBe(201);
    expect(first.body.comment).toEqual({
      id: expect.any(Number),
      postId: t.post.id,
      taskId: null,
      authorId: t.colleague.id,
      authorName: expect.any(String),
      body: 'Looks good\nOne thing: the date',
      createdAt: expect.any(String),
      can: { delete: true },
    });
    await t.ws.as(t.manager).post(`/api/posts/${t.post.id}/comments`).send({ body: 'مرحبا، أوافق' });
    const thread = await t.ws.as(t.contributor).get(`/api/posts/${t.post.id}/comments`);
    expect(thread.status).toBe(200);
    expect(thread.body.comments.map((c: { body: string }) => c.body)).toEqual(['Looks good\nOne thing: the date', 'مرحبا، أوافق']);
  });

  it('when someone comments on a post, then its author is told (commented), but not of their own comments', async () => {
    const t = await conversation();
    await t.ws.as(t.contributor).post(`/api/posts/${t.post.id}/comments`).send({ body: 'A note to myself' });
    expect(await notified(t, t.contributor)).toEqual([]);
    await t.ws.as(t.colleague).post(`/api/posts/${t.post.id}/comments`).send({ body: 'Nice' });
    expect(await notified(t, t.contributor)).toEqual([['commented', t.post.id]]);
  });

  it('when a comment mentions members by @name, then those of the brand are told (mentioned), once, and a member of another brand is not', async () => {
    const t = await conversation();
    const res = await t.ws.as(t.colleague).post(`/api/posts/${t.post.id}/comments`).send({ body: '@salma haddad and @Omar Rival, please look. @Salma Haddad!' });
    expect(res.status).toBe(201);
    expect(await notified(t, t.salma)).toEqual([['mentioned', t.post.id]]);
    expect(await notified(t, t.rival)).toEqual([]);
    // "@Salma Haddadi" names nobody.
    await t.ws.as(t.colleague).post(`/api/posts/${t.post.id}/comments`).send({ body: '@Salma Haddadi' });
    expect(await notified(t, t.salma)).toHaveLength(1);
  });

  it('when the body is empty, blank, longer than 10,000 characters or not text, or has other fields, then 400 and nothing is stored', async () => {
    const t = await conversation();
    const before = await snapshot(t.ws);
    for (const body of [{}, { body: '' }, { body: '  \n ' }, { body: 'x'.repeat(10_001) }, { body: 5 }, { body: 'ok', authorId: 1 }, { body: 'bad \u0000 byte' }]) {
      const res = await t.ws.as(t.colleague).post(`/api/posts/${t.post.id}/comments`).send(body);
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    expect(await snapshot(t.ws)).toBe(before);
    expect((await t.ws.as(t.colleague).post(`/api/posts/${t.post.id}/comments`).send({ body: 'x'.repeat(10_000) })).status).toBe(201);
  });

  it("when the post is of another brand or missing, then 404 and nothing is stored; without signing in, 401", async () => {
    const t = await conversation();
    const before = await snapshot(t.ws);
    expect((await t.ws.as(t.rival).post(`/api/posts/${t.post.id}/comments`).send({ body: 'Hi' })).status).toBe(404);
    expect((await t.ws.as(t.rival).get(`/api/posts/${t.post.id}/comments`)).status).toBe(404);
    expect((await t.ws.as(t.manager).post('/api/posts/999999/comments').send({ body: 'Hi' })).status).toBe(404);
    expect((await request(t.ws.app).post(`/api/posts/${t.post.id}/comments`).send({ body: 'Hi' })).status).toBe(401);
    expect((await request(t.ws.app).get(`/api/posts/${t.post.id}/comments`)).status).toBe(401);
    expect(await snapshot(t.ws)).toBe(before);
  });
});

describe('POST /api/tasks/:id/comments', () => {
  it('when a member comments on a task, then its owner and assignee are told, and a mention of a member who cannot see a private task tells nobody', async () => {
    const t = await conversation();
    await t.ws.as(t.manager).patch(`/api/tasks/${t.task.id}`).send({ assigneeId: t.contributor.id });
    const res = await t.ws.as(t.colleague).post(`/api/tasks/${t.task.id}/comments`).send({ body: 'Which size?' });
    expect(res.status).toBe(201);
    expect(res.body.comment).toMatchObject({ taskId: t.task.id, postId: null });
    expect(await notified(t, t.manager)).toEqual([['commented', t.task.id]]);
    expect(await notified(t, t.contributor)).toEqual([['commented', t.task.id], ['assigned', t.task.id]]);

    const secret = (await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Private', brandId: t.brand.id, visibility: 'private' })).body.task;
    await t.ws.as(t.manager).post(`/api/tasks/${secret.id}/comments`).send({ body: '@Salma Haddad see this' });
    expect(await notified(t, t.salma)).toEqual([]);
    expect((await t.ws.as(t.salma).get(`/api/tasks/${secret.id}/comments`)).status).toBe(404);
    expect((await t.ws.as(t.salma).post(`/api/tasks/${secret.id}/comments`).send({ body: 'Let me in' })).status).toBe(404);
  });
});

describe('DELETE /api/comments/:id', () => {
  it('when its author, a manager or a superadmin deletes a comment, then {ok:true} and it is gone; another contributor gets 403 NOT_COMMENT_AUTHOR', async () => {
    const t = await conversation();
    const say = async (who: TestUser, body: string) => (await t.ws.as(who).post(`/api/posts/${t.post.id}/comments`).send({ body })).body.comment.id as number;
    const a = await say(t.colleague, 'One');
    const b = await say(t.colleague, 'Two');
    const c = await say(t.colleague, 'Three');
    const refused = await t.ws.as(t.contributor).delete(`/api/comments/${a}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NOT_COMMENT_AUTHOR');
    expect((await t.ws.as(t.colleague).delete(`/api/comments/${a}`)).body).toEqual({ ok: true });
    expect((await t.ws.as(t.manager).delete(`/api/comments/${b}`)).status).toBe(200);
    expect((await t.ws.as(t.admin).delete(`/api/comments/${c}`)).status).toBe(200);
    expect((await t.ws.as(t.colleague).get(`/api/posts/${t.post.id}/comments`)).body.comments).toEqual([]);
    expect((await t.ws.as(t.colleague).delete(`/api/comments/${a}`)).status).toBe(404);
  });

  it("when a manager of another brand deletes a comment, then 404 and it stays", async () => {
    const t = await conversation();
    const id = (await t.ws.as(t.colleague).post(`/api/posts/${t.post.id}/comments`).send({ body: 'Mine' })).body.comment.id;
    expect((await t.ws.as(t.rival).delete(`/api/comments/${id}`)).status).toBe(404);
    expect((await t.ws.as(t.colleague).get(`/api/posts/${t.post.id}/comments`)).body.comments).toHaveLength(1);
  });
});
