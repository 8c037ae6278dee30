import { request, type HttpResponse } from '../support/http';
import { describe, expect, it } from 'vitest';
import { buildTeam, snapshot, type TestUser, type TestWorkspace } from '../support/workspace';
import { itOnSqlite, rowCount } from '../support/records';

async function campaignIn(ws: TestWorkspace, by: TestUser, brandId: number, extra: object = {}) {
  const res = await ws.as(by).post('/api/campaigns').send({ name: 'Summer nights', brandId, ...extra });
  expect(res.status).toBe(201);
  return res.body.campaign as { id: number; brandId: number; name: string };
}

describe('POST /api/campaigns', () => {
  it.each(['admin', 'manager'] as const)('when a %s creates a campaign, then 201 {campaign} with the owner and defaults', async (who) => {
    const t = await buildTeam();
    const res = await t.ws.as(t[who]).post('/api/campaigns').send({
      name: 'Ramadan evenings',
      brandId: t.brand.id,
      description: 'Late openings',
      startDate: '2026-02-18',
      endDate: '2026-03-19',
    });
    expect(res.status).toBe(201);
    expect(res.body.campaign).toEqual({
      id: expect.any(Number),
      brandId: t.brand.id,
      name: 'Ramadan evenings',
      description: 'Late openings',
      startDate: '2026-02-18',
      endDate: '2026-03-19',
      status: 'planned',
      ownerId: t[who].id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      can: { edit: true, delete: true, tracks: true },
    });
  });

  it('when a contributor creates a campaign, then 403 and nothing is stored', async () => {
    const t = await buildTeam();
    const before = await snapshot(t.ws);
    const res = await t.ws.as(t.contributor).post('/api/campaigns').send({ name: 'X', brandId: t.brand.id });
    expect(res.status).toBe(403);
    expect(await snapshot(t.ws)).toBe(before);
  });

  it("when a manager creates a campaign in another brand, then 404", async () => {
    const t = await buildTeam();
    expect((await t.ws.as(t.manager).post('/api/campaigns').send({ name: 'X', brandId: t.other.id })).status).toBe(404);
  });

  it.each([
    ['no brandId', { name: 'X' }],
    ['no name', { brandId: 1 }],
    ['a name of 201 characters', { name: 'n'.repeat(201), brandId: 1 }],
    ['a description of 10,001 characters', { name: 'X', brandId: 1, description: 'd'.repeat(10_001) }],
    ['an impossible date', { name: 'X', brandId: 1, startDate: '2026-02-30' }],
    ['an unknown status', { name: 'X', brandId: 1, status: 'live' }],
    ['an unknown field', { name: 'X', brandId: 1, budget: 100 }],
  ])('when the body has %s, then 400', async (_label, body) => {
    const t = await buildTeam();
    const res = await t.ws.as(t.admin).post('/api/campaigns').send(body);
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it('when the end date is before the start date, then 400 INVALID_DATE_RANGE', async () => {
    const t = await buildTeam();
    const res = await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'X', brandId: t.brand.id, startDate: '2026-05-02', endDate: '2026-05-01' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_DATE_RANGE');
  });
});

describe('GET /api/campaigns', () => {
  it('when anyone lists, then only their brands appear, newest first, filterable by status and brand', async () => {
    const t = await buildTeam();
    const first = await campaignIn(t.ws, t.admin, t.brand.id);
    t.ws.clock.advance(1000);
    const second = await campaignIn(t.ws, t.admin, t.brand.id, { status: 'active' });
    const theirs = await campaignIn(t.ws, t.admin, t.other.id);
    const ids = (res: HttpResponse) => res.body.campaigns.map((c: { id: number }) => c.id);

    expect(ids(await t.ws.as(t.contributor).get('/api/campaigns'))).toEqual([second.id, first.id]);
    expect(ids(await t.ws.as(t.manager).get('/api/campaigns?status=active'))).toEqual([second.id]);
    expect(ids(await t.ws.as(t.manager).get(`/api/campaigns?brandId=${t.other.id}`))).toEqual([]);
    expect(ids(await t.ws.as(t.admin).get('/api/campaigns'))).toEqual([theirs.id, second.id, first.id]);
    expect(ids(await t.ws.as(t.admin).get(`/api/campaigns?brandId=${t.other.id}`))).toEqual([theirs.id]);
  });

  it('when the query has an unknown status or field, then 400', async () => {
    const t = await buildTeam();
    expect((await t.ws.as(t.admin).get('/api/campaigns?status=live')).status).toBe(400);
    expect((await t.ws.as(t.admin).get('/api/campaigns?owner=1')).status).toBe(400);
  });
});

describe('GET /api/campaigns/:id', () => {
  it("when a contributor reads a campaign of their brand, then 200; of another brand, then 404", async () => {
    const t = await buildTeam();
    const mine = await campaignIn(t.ws, t.admin, t.brand.id);
    const theirs = await campaignIn(t.ws, t.admin, t.other.id);
    expect((await t.ws.as(t.contributor).get(`/api/campaigns/${mine.id}`)).body.campaign.id).toBe(mine.id);
    expect((await t.ws.as(t.contributor).get(`/api/campaigns/${theirs.id}`)).status).toBe(404);
    expect((await t.ws.as(t.contributor).get('/api/campaigns/0')).status).toBe(400);
  });
});

describe('PATCH /api/campaigns/:id', () => {
  it('when a manager changes a campaign of their brand, then 200 {campaign}', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id, { startDate: '2026-06-01' });
    t.ws.clock.advance(5000);
    const res = await t.ws.as(t.manager).patch(`/api/campaigns/${c.id}`).send({ name: 'Renamed', status: 'active', description: null, endDate: '2026-06-30' });
    expect(res.status).toBe(200);
    expect(res.body.campaign).toMatchObject({ id: c.id, name: 'Renamed', status: 'active', description: null, startDate: '2026-06-01', endDate: '2026-06-30' });
    expect(res.body.campaign.updatedAt > res.body.campaign.createdAt).toBe(true);
  });

  it('when the change puts the end before the stored start, then 400 INVALID_DATE_RANGE', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id, { startDate: '2026-06-10' });
    const res = await t.ws.as(t.admin).patch(`/api/campaigns/${c.id}`).send({ endDate: '2026-06-01' });
    expect(res.body.code).toBe('INVALID_DATE_RANGE');
  });

  it('when a contributor changes a campaign, then 403; a manager of another brand, then 404', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    const outsider = await t.ws.user('manager', { brandIds: [t.other.id] });
    expect((await t.ws.as(t.contributor).patch(`/api/campaigns/${c.id}`).send({ name: 'X' })).status).toBe(403);
    expect((await t.ws.as(outsider).patch(`/api/campaigns/${c.id}`).send({ name: 'X' })).status).toBe(404);
  });

  it('when the body is empty or tries to move the brand, then 400', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    expect((await t.ws.as(t.admin).patch(`/api/campaigns/${c.id}`).send({})).status).toBe(400);
    expect((await t.ws.as(t.admin).patch(`/api/campaigns/${c.id}`).send({ brandId: t.other.id })).status).toBe(400);
  });
});

describe('DELETE /api/campaigns/:id', () => {
  it.each(['admin', 'manager'] as const)('when a %s deletes a campaign, then its posts and tracks go with it and the counts are answered', async (who) => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    const other = await campaignIn(t.ws, t.admin, t.brand.id);
    for (const title of ['One', 'Two', 'Three']) await t.ws.as(t.contributor).post('/api/posts').send({ title, campaignId: c.id });
    const kept = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'Elsewhere', campaignId: other.id });
    for (const name of ['Instagram', 'Press']) await t.ws.as(t.manager).post(`/api/campaigns/${c.id}/tracks`).send({ name });

    const res = await t.ws.as(t[who]).delete(`/api/campaigns/${c.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, deleted: { posts: 3, tracks: 2 } });
    expect((await t.ws.as(t.admin).get(`/api/campaigns/${c.id}`)).status).toBe(404);
    expect((await t.ws.as(t.admin).get('/api/posts')).body.posts.map((p: { id: number }) => p.id)).toEqual([kept.body.post.id]);
    expect(await rowCount(t.ws.stores.records.workspace, 'tracks')).toBe(0);
  });

  itOnSqlite('when the delete fails halfway, then nothing is deleted (one transaction)', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    await t.ws.as(t.admin).post('/api/posts').send({ title: 'One', campaignId: c.id });
    await t.ws.as(t.admin).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'Track' });
    // A trigger makes the last statement of the delete fail after posts and tracks went.
    t.ws.workspaceDb.exec("CREATE TRIGGER refuse BEFORE DELETE ON campaigns BEGIN SELECT RAISE(ABORT, 'refused'); END");
    const before = await snapshot(t.ws);
    const res = await t.ws.as(t.admin).delete(`/api/campaigns/${c.id}`);
    expect(res.status).toBe(500);
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when a contributor deletes a campaign, then 403 and everything stays', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    const before = await snapshot(t.ws);
    expect((await t.ws.as(t.contributor).delete(`/api/campaigns/${c.id}`)).status).toBe(403);
    expect(await snapshot(t.ws)).toBe(before);
  });

  it("when a manager deletes another brand's campaign, then 404", async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.other.id);
    expect((await t.ws.as(t.manager).delete(`/api/campaigns/${c.id}`)).status).toBe(404);
  });

  it('when the campaign does not exist, then 404', async () => {
    const t = await buildTeam();
    expect((await t.ws.as(t.admin).delete('/api/campaigns/999')).status).toBe(404);
  });

  it('when not signed in, then 401', async () => {
    const t = await buildTeam();
    expect((await request(t.ws.app).delete('/api/campaigns/1')).status).toBe(401);
  });
});

describe('campaign tracks', () => {
  it('when a manager adds tracks, then 201 {track} and GET lists them', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    const res = await t.ws.as(t.manager).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'Instagram', channel: 'social', startDate: '2026-03-01', endDate: '2026-03-31', goal: '10k reach' });
    expect(res.status).toBe(201);
    expect(res.body.track).toMatchObject({ campaignId: c.id, name: 'Instagram', channel: 'social', startDate: '2026-03-01', endDate: '2026-03-31', goal: '10k reach' });
    const minimal = await t.ws.as(t.admin).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'Press' });
    expect(minimal.body.track).toMatchObject({ channel: null, startDate: null, endDate: null, goal: null });
    const list = await t.ws.as(t.contributor).get(`/api/campaigns/${c.id}/tracks`);
    expect(list.body.tracks.map((x: { name: string }) => x.name)).toEqual(['Instagram', 'Press']);
  });

  it('when a contributor adds, changes or deletes a track, then 403; reading is allowed', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    const track = (await t.ws.as(t.admin).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'T' })).body.track;
    expect((await t.ws.as(t.contributor).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'X' })).status).toBe(403);
    expect((await t.ws.as(t.contributor).patch(`/api/tracks/${track.id}`).send({ name: 'X' })).status).toBe(403);
    expect((await t.ws.as(t.contributor).delete(`/api/tracks/${track.id}`)).status).toBe(403);
    expect((await t.ws.as(t.contributor).get(`/api/tracks/${track.id}`)).body.track.name).toBe('T');
  });

  it("when someone of another brand touches a track, then 404", async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    const track = (await t.ws.as(t.admin).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'T' })).body.track;
    const outsider = await t.ws.user('manager', { brandIds: [t.other.id] });
    expect((await t.ws.as(outsider).get(`/api/tracks/${track.id}`)).status).toBe(404);
    expect((await t.ws.as(outsider).patch(`/api/tracks/${track.id}`).send({ name: 'X' })).status).toBe(404);
    expect((await t.ws.as(outsider).delete(`/api/tracks/${track.id}`)).status).toBe(404);
    expect((await t.ws.as(outsider).get(`/api/campaigns/${c.id}/tracks`)).status).toBe(404);
    expect((await t.ws.as(outsider).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'X' })).status).toBe(404);
  });

  it('when a manager changes and deletes a track, then 200', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    const track = (await t.ws.as(t.admin).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'T', startDate: '2026-01-10' })).body.track;
    const changed = await t.ws.as(t.manager).patch(`/api/tracks/${track.id}`).send({ goal: 'More visitors', channel: 'radio' });
    expect(changed.body.track).toMatchObject({ id: track.id, goal: 'More visitors', channel: 'radio' });
    expect((await t.ws.as(t.manager).patch(`/api/tracks/${track.id}`).send({ endDate: '2026-01-01' })).body.code).toBe('INVALID_DATE_RANGE');
    expect((await t.ws.as(t.manager).delete(`/api/tracks/${track.id}`)).body).toEqual({ ok: true });
    expect((await t.ws.as(t.manager).get(`/api/tracks/${track.id}`)).status).toBe(404);
  });

  it('when the track body is invalid, then 400', async () => {
    const t = await buildTeam();
    const c = await campaignIn(t.ws, t.admin, t.brand.id);
    expect((await t.ws.as(t.admin).post(`/api/campaigns/${c.id}/tracks`).send({})).status).toBe(400);
    expect((await t.ws.as(t.admin).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'T', campaignId: 3 })).status).toBe(400);
    expect((await t.ws.as(t.admin).post(`/api/campaigns/${c.id}/tracks`).send({ name: 'T', goal: 'g'.repeat(10_001) })).status).toBe(400);
  });

  it('when the campaign does not exist, then 404', async () => {
    const t = await buildTeam();
    expect((await t.ws.as(t.admin).post('/api/campaigns/999/tracks').send({ name: 'T' })).status).toBe(404);
    expect((await t.ws.as(t.admin).get('/api/campaigns/999/tracks')).status).toBe(404);
  });
});
