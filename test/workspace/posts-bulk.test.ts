import { describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { buildTeam, snapshot, type TestUser } from '../support/workspace';

type Team = Awaited<ReturnType<typeof buildTeam>>;

async function posts(t: Team, who: TestUser, n: number, body: object = {}) {
  const made: { id: number }[] = [];
  for (let i = 0; i < n; i += 1) {
    const res = await t.ws.as(who).post('/api/posts').send({ title: `Post ${i + 1}`, brandId: t.brand.id, ...body });
    expect(res.status, res.text).toBe(201);
    made.push(res.body.post);
  }
  return made.map((p) => p.id);
}

const statuses = async (t: Team, ids: number[]) =>
  Promise.all(ids.map(async (id) => (await t.ws.as(t.admin).get(`/api/posts/${id}`)).body.post?.status as string | undefined));

describe('PATCH /api/posts', () => {
  it('when a manager moves several posts at once, then 200 {posts} in the order asked, each moved and its history saying so', async () => {
    const t = await buildTeam();
    const ids = await posts(t, t.contributor, 3);
    const res = await t.ws.as(t.manager).patch('/api/posts').send({ ids: [ids[2], ids[0], ids[1]], status: 'approved' });
    expect(res.status).toBe(200);
    expect(res.body.posts.map((p: { id: number; status: string }) => [p.id, p.status])).toEqual([
      [ids[2], 'approved'],
      [ids[0], 'approved'],
      [ids[1], 'approved'],
    ]);
    expect((await t.ws.as(t.manager).get(`/api/posts/${ids[0]}/activity`)).body.events.map((e: { kind: string }) => e.kind)).toEqual(['created', 'approved']);
    // Told once, of the three.
    expect((await t.ws.as(t.contributor).get('/api/notifications')).body.notifications).toMatchObject([{ kind: 'approved', actorId: t.manager.id, count: 3 }]);
  });

  it('when posts are assigned to a campaign of their brand at once, then each takes the campaign; null takes them out', async () => {
    const t = await buildTeam();
    const ids = await posts(t, t.admin, 2);
    const campaign = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Spring', brandId: t.brand.id })).body.campaign;
    const joined = await t.ws.as(t.admin).patch('/api/posts').send({ ids, campaignId: campaign.id });
    expect(joined.status).toBe(200);
    expect(joined.body.posts).toMatchObject([
      { campaignId: campaign.id, brandId: t.brand.id, campaign: { id: campaign.id, name: 'Spring' } },
      { campaignId: campaign.id, brandId: t.brand.id },
    ]);
    const left = await t.ws.as(t.admin).patch('/api/posts').send({ ids, campaignId: null });
    expect(left.body.posts).toMatchObject([{ campaignId: null, brandId: t.brand.id }, { campaignId: null }]);
  });

  it("when the campaign is another brand's, even for one post of the selection, then 400 BRAND_MISMATCH and no post changes, brand or campaign", async () => {
    const t = await buildTeam();
    const mine = await posts(t, t.admin, 2);
    const [theirs] = await posts(t, t.admin, 1, { brandId: t.other.id });
    const campaign = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Elsewhere', brandId: t.other.id })).body.campaign;
    const before = await snapshot(t.ws);
    for (const ids of [mine, [theirs, ...mine]]) {
      const res = await t.ws.as(t.admin).patch('/api/posts').send({ ids, campaignId: campaign.id });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('BRAND_MISMATCH');
    }
    expect(await snapshot(t.ws)).toBe(before);
    // The manager's posts stay theirs to see: nothing moved them out of the brand.
    expect((await t.ws.as(t.manager).get('/api/posts')).body.posts).toHaveLength(2);
  });

  it('when one post of the selection may not be moved (a contributor approving, or someone else’s post), then 403 and none is changed', async () => {
    const t = await buildTeam();
    const mine = await posts(t, t.contributor, 2);
    const theirs = await posts(t, t.colleague, 1);
    const before = await snapshot(t.ws);
    const approving = await t.ws.as(t.contributor).patch('/api/posts').send({ ids: mine, status: 'approved' });
    expect(approving.status).toBe(403);
    expect(approving.body.code).toBe('APPROVAL_REQUIRED');
    const mixed = await t.ws.as(t.contributor).patch('/api/posts').send({ ids: [...mine, ...theirs], status: 'draft' });
    expect(mixed.status).toBe(403);
    expect(mixed.body.code).toBe('NOT_POST_OWNER');
    expect(await snapshot(t.ws)).toBe(before);
    expect((await t.ws.as(t.contributor).patch('/api/posts').send({ ids: mine, status: 'review' })).status).toBe(200);
  });

  it("when the selection holds another brand's post or a missing one, then 404 and none is changed", async () => {
    const t = await buildTeam();
    const mine = await posts(t, t.manager, 2);
    const theirs = (await t.ws.as(t.admin).post('/api/posts').send({ title: 'Theirs', brandId: t.other.id })).body.post.id;
    const before = await snapshot(t.ws);
    for (const ids of [[...mine, theirs], [...mine, 999_999]]) {
      const res = await t.ws.as(t.manager).patch('/api/posts').send({ ids, status: 'draft' });
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('Theirs');
    }
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when one post cannot take the move (published without a link, sent back without a reason), then 400 and none is changed', async () => {
    const t = await buildTeam();
    const ids = await posts(t, t.contributor, 2, { status: 'review' });
    const before = await snapshot(t.ws);
    const publish = await t.ws.as(t.manager).patch('/api/posts').send({ ids, status: 'published' });
    expect(publish.status).toBe(400);
    expect(publish.body.code).toBe('PUBLICATION_LINK_REQUIRED');
    const back = await t.ws.as(t.manager).patch('/api/posts').send({ ids, status: 'draft' });
    expect(back.body.code).toBe('COMMENT_REQUIRED');
    expect(await snapshot(t.ws)).toBe(before);
    const withReason = await t.ws.as(t.manager).patch('/api/posts').send({ ids, status: 'draft', comment: 'Not this month' });
    expect(withReason.status).toBe(200);
    expect(await statuses(t, ids)).toEqual(['draft', 'draft']);
    expect((await t.ws.as(t.contributor).get(`/api/posts/${ids[1]}/comments`)).body.comments).toMatchObject([{ body: 'Not this month' }]);
  });

  it.each([
    ['no ids', { status: 'draft' }],
    ['an empty list', { ids: [], status: 'draft' }],
    ['201 ids', { ids: Array.from({ length: 201 }, (_, i) => i + 1), status: 'draft' }],
    ['ids that are not ids', { ids: ['1'], status: 'draft' }],
    ['no change', { ids: [1] }],
    ['both a status and a campaign', { ids: [1], status: 'draft', campaignId: 1 }],
    ['another field', { ids: [1], title: 'All the same' }],
    ['an unknown status', { ids: [1], status: 'live' }],
  ])('when the body has %s, then 400', async (_label, body) => {
    const t = await buildTeam();
    const res = await t.ws.as(t.manager).patch('/api/posts').send(body);
    expect(res.status).toBe(400);
  });

  it('when nobody is signed in, then 401', async () => {
    const t = await buildTeam();
    expect((await request(t.ws.app).patch('/api/posts').send({ ids: [1], status: 'draft' })).status).toBe(401);
    expect((await request(t.ws.app).delete('/api/posts').send({ ids: [1] })).status).toBe(401);
  });
});

describe('DELETE /api/posts', () => {
  it('when the owner deletes several posts, then {ok:true, deleted:N} and they are gone with their comments', async () => {
    const t = await buildTeam();
    const ids = await posts(t, t.contributor, 3);
    await t.ws.as(t.colleague).post(`/api/posts/${ids[0]}/comments`).send({ body: 'Gone too' });
    const res = await t.ws.as(t.contributor).delete('/api/posts').send({ ids: [...ids, ids[0]] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, deleted: 3 });
    expect(await statuses(t, ids)).toEqual([undefined, undefined, undefined]);
  });

  it("when the selection holds a colleague's post, then 403; another brand's, 404; and nothing is deleted", async () => {
    const t = await buildTeam();
    const mine = await posts(t, t.contributor, 2);
    const colleague = await posts(t, t.colleague, 1);
    const theirs = (await t.ws.as(t.admin).post('/api/posts').send({ title: 'Theirs', brandId: t.other.id })).body.post.id;
    const before = await snapshot(t.ws);
    expect((await t.ws.as(t.contributor).delete('/api/posts').send({ ids: [...mine, ...colleague] })).status).toBe(403);
    expect((await t.ws.as(t.manager).delete('/api/posts').send({ ids: [...mine, theirs] })).status).toBe(404);
    expect(await snapshot(t.ws)).toBe(before);
  });

  it.each([[{}], [{ ids: [] }], [{ ids: [0] }], [{ ids: Array.from({ length: 201 }, (_, i) => i + 1) }], [{ ids: [1], all: true }]])('when the body is %j, then 400', async (body) => {
    const t = await buildTeam();
    expect((await t.ws.as(t.manager).delete('/api/posts').send(body)).status).toBe(400);
  });
});
