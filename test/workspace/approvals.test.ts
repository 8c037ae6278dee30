import { describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { buildTeam, snapshot } from '../support/workspace';
import type { TestUser } from '../support/workspace';

type Team = Awaited<ReturnType<typeof buildTeam>>;

async function postBy(t: Team, who: TestUser, body: object = {}) {
  const res = await t.ws.as(who).post('/api/posts').send({ title: 'Opening night', brandId: t.brand.id, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.post as { id: number; status: string };
}

const kinds = async (t: Team, who: TestUser) => ((await t.ws.as(who).get('/api/notifications')).body.notifications as { kind: string }[]).map((n) => n.kind);

describe('PATCH /api/posts/:id (the approval rule)', () => {
  it.each(['approved', 'scheduled', 'published'] as const)('when a contributor moves their post to %s, then 403 APPROVAL_REQUIRED and it stays', async (status) => {
    const t = await buildTeam();
    const post = await postBy(t, t.contributor, { status: 'review' });
    const before = await snapshot(t.ws);
    const res = await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ status, publicationUrl: 'https://museum.example/p/1' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('APPROVAL_REQUIRED');
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when a contributor creates a post as approved, then 403 APPROVAL_REQUIRED and nothing is stored', async () => {
    const t = await buildTeam();
    const before = await snapshot(t.ws);
    const res = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.brand.id, status: 'approved' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('APPROVAL_REQUIRED');
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when a contributor moves their post among idea, draft and review, or withdraws an approval, then 200', async () => {
    const t = await buildTeam();
    const post = await postBy(t, t.contributor);
    for (const status of ['draft', 'review', 'idea', 'review']) {
      expect((await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ status })).body.post.status).toBe(status);
    }
    await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'approved' });
    expect((await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ status: 'draft' })).body.post.status).toBe('draft');
  });

  it('when a post is scheduled, then its contributor cannot take it back (403); a manager can', async () => {
    const t = await buildTeam();
    const post = await postBy(t, t.contributor);
    await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'scheduled' });
    expect((await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ status: 'draft' })).body.code).toBe('APPROVAL_REQUIRED');
    // Editing its content is allowed, and takes it back to review.
    expect((await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ title: 'Changed', status: 'scheduled' })).body.post.status).toBe('review');
    await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'scheduled' });
    expect((await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'draft' })).status).toBe(400);
    expect((await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'draft', comment: 'Not this week' })).body.post.status).toBe('draft');
  });

  it('when a contributor sends a post to review, then the brand’s managers are told, and nobody of another brand', async () => {
    const t = await buildTeam();
    const outsider = await t.ws.user('manager', { brandIds: [t.other.id] });
    const post = await postBy(t, t.contributor);
    await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ status: 'review' });
    const told = (await t.ws.as(t.manager).get('/api/notifications')).body;
    expect(told.unread).toBe(1);
    expect(told.notifications[0]).toMatchObject({ kind: 'review_requested', postId: post.id, actorId: t.contributor.id, readAt: null, title: 'Opening night' });
    expect(await kinds(t, outsider)).toEqual([]);
    expect(await kinds(t, t.colleague)).toEqual([]);
    expect(await kinds(t, t.contributor)).toEqual([]);
  });

  it('when a brand has no manager, then review goes to the superadmins', async () => {
    const t = await buildTeam();
    const lonely = await t.ws.user('contributor', { brandIds: [t.other.id] });
    const post = (await t.ws.as(lonely).post('/api/posts').send({ title: 'Alone', brandId: t.other.id, status: 'review' })).body.post;
    expect((await t.ws.as(t.admin).get('/api/notifications')).body.notifications).toMatchObject([{ kind: 'review_requested', postId: post.id }]);
  });

  it('when a manager approves, then the author is told; when sending back without a comment, then 400 COMMENT_REQUIRED, and with one the author is told and the comment is in the thread', async () => {
    const t = await buildTeam();
    const post = await postBy(t, t.contributor, { status: 'review' });
    await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'approved' });
    expect(await kinds(t, t.contributor)).toEqual(['approved']);

    await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ status: 'review' });
    const before = await snapshot(t.ws);
    const bare = await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'draft' });
    expect(bare.status).toBe(400);
    expect(bare.body.code).toBe('COMMENT_REQUIRED');
    expect((await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'draft', comment: '   ' })).status).toBe(400);
    expect(await snapshot(t.ws)).toBe(before);

    const back = await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'draft', comment: 'The date is wrong' });
    expect(back.status).toBe(200);
    expect(await kinds(t, t.contributor)).toEqual(['sent_back', 'approved']);
    const thread = (await t.ws.as(t.contributor).get(`/api/posts/${post.id}/comments`)).body.comments;
    expect(thread).toMatchObject([{ body: 'The date is wrong', authorId: t.manager.id }]);
  });

  it('when an approved post’s content is edited, then it goes back to review, the managers are told, and a change of date alone keeps it approved', async () => {
    const t = await buildTeam();
    const post = await postBy(t, t.contributor, { status: 'review' });
    await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'approved' });
    const dated = await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ scheduledAt: '2026-12-01T10:00:00Z' });
    expect(dated.body.post.status).toBe('approved');
    const same = await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ title: 'Opening night' });
    expect(same.body.post.status).toBe('approved');
    const edited = await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ caption: 'Now with music' });
    expect(edited.body.post.status).toBe('review');
    expect(await kinds(t, t.manager)).toEqual(['review_requested', 'review_requested']);
    const approvedAgain = await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ caption: 'Music at 8', status: 'approved' });
    expect(approvedAgain.body.post.status).toBe('approved');
    // The author's form sends the status it shows: that keeps no approval.
    const fromForm = await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ caption: 'Music at 9', status: 'approved' });
    expect(fromForm.body.post.status).toBe('review');
  });
});

describe('GET /api/posts/:id/activity', () => {
  it('when a post is created, moved, edited, approved, sent back and published, then its history says who did what and when, oldest first', async () => {
    const t = await buildTeam();
    const post = await postBy(t, t.contributor);
    await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ status: 'review' });
    await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'draft', comment: 'Shorter' });
    await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ caption: 'Short', status: 'review' });
    await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'approved' });
    await t.ws.as(t.admin).patch(`/api/posts/${post.id}`).send({ status: 'published', publicationUrl: 'https://museum.example/p/1' });
    const res = await t.ws.as(t.colleague).get(`/api/posts/${post.id}/activity`);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { kind: string; actorId: number; from: string | null; to: string | null }) => [e.kind, e.actorId, e.from, e.to])).toEqual([
      ['created', t.contributor.id, null, 'idea'],
      ['moved', t.contributor.id, 'idea', 'review'],
      ['sent_back', t.manager.id, 'review', 'draft'],
      ['edited', t.contributor.id, null, null],
      ['moved', t.contributor.id, 'draft', 'review'],
      ['approved', t.manager.id, 'review', 'approved'],
      ['published', t.admin.id, 'approved', 'published'],
    ]);
    expect(res.body.events[0]).toMatchObject({ actorName: expect.any(String), createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('when the post is of another brand or does not exist, then 404; without signing in, 401', async () => {
    const t = await buildTeam();
    const post = await postBy(t, t.contributor);
    const outsider = await t.ws.user('manager', { brandIds: [t.other.id] });
    expect((await t.ws.as(outsider).get(`/api/posts/${post.id}/activity`)).status).toBe(404);
    expect((await t.ws.as(t.manager).get('/api/posts/999999/activity')).status).toBe(404);
    expect((await request(t.ws.app).get(`/api/posts/${post.id}/activity`)).status).toBe(401);
  });
});
