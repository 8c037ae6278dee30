import type { HttpResponse } from '../support/http';
import { describe, expect, it } from 'vitest';
import { buildTeam, buildWorkspace, snapshot } from '../support/workspace';
import { itOnSqlite } from '../support/records';

/** The shared team, with a campaign "Spring" in the first brand. */
async function team() {
  const t = await buildTeam();
  const campaign = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Spring', brandId: t.brand.id })).body.campaign;
  return { ...t, campaign };
}

const ids = (res: HttpResponse) => res.body.posts.map((p: { id: number }) => p.id);

describe('POST /api/posts', () => {
  it.each(['admin', 'manager', 'contributor'] as const)('when a %s creates a post in a campaign, then 201 with the campaign, brand, owner and no thumbnail', async (who) => {
    const t = await team();
    const res = await t.ws.as(t[who]).post('/api/posts').send({
      title: 'Opening night',
      caption: 'Doors open at 7',
      platform: 'instagram',
      scheduledAt: '2026-02-01T19:00:00+04:00',
      campaignId: t.campaign.id,
    });
    expect(res.status).toBe(201);
    expect(res.body.post).toEqual({
      id: expect.any(Number),
      brandId: t.brand.id,
      campaignId: t.campaign.id,
      campaign: { id: t.campaign.id, name: 'Spring' },
      title: 'Opening night',
      caption: 'Doors open at 7',
      platform: 'instagram',
      status: 'idea',
      scheduledAt: '2026-02-01T15:00:00.000Z',
      publicationUrl: null,
      ownerId: t[who].id,
      attachments: [],
      thumbnailUrl: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      can: {
        edit: true,
        delete: true,
        comment: true,
        moves: who === 'contributor' ? ['draft', 'review'] : ['draft', 'review', 'approved', 'scheduled', 'published'],
        reasonFor: [],
        reschedule: true,
        editReopens: false,
        approve: false,
        sendBack: false,
      },
    });
  });

  it('when there is no campaign, then brandId is required (400 BRAND_REQUIRED) and used when given', async () => {
    const t = await team();
    const missing = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'Loose' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('BRAND_REQUIRED');
    const ok = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'Loose', brandId: t.brand.id });
    expect(ok.status).toBe(201);
    expect(ok.body.post).toMatchObject({ brandId: t.brand.id, campaignId: null, campaign: null });
  });

  it("when brandId differs from the campaign's brand, then 400 BRAND_MISMATCH", async () => {
    const t = await team();
    const res = await t.ws.as(t.admin).post('/api/posts').send({ title: 'X', campaignId: t.campaign.id, brandId: t.other.id });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BRAND_MISMATCH');
  });

  it("when a contributor posts into another brand or its campaign, then 404 and nothing is stored", async () => {
    const t = await team();
    const theirs = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Theirs', brandId: t.other.id })).body.campaign;
    const before = await snapshot(t.ws);
    expect((await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.other.id })).status).toBe(404);
    expect((await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', campaignId: theirs.id })).status).toBe(404);
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when publishing without a link, then 400 PUBLICATION_LINK_REQUIRED', async () => {
    const t = await team();
    const res = await t.ws.as(t.manager).post('/api/posts').send({ title: 'X', brandId: t.brand.id, status: 'published' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PUBLICATION_LINK_REQUIRED');
  });

  it.each(['ftp://example.com/p', 'javascript:alert(1)', '/relative/path', 'https://', 'example.com/post', 'http:example.com', 'https://exa mple.com'])(
    'when the publication link is %s, then 400 INVALID_PUBLICATION_LINK',
    async (url) => {
      const t = await team();
      const res = await t.ws.as(t.manager).post('/api/posts').send({ title: 'X', brandId: t.brand.id, status: 'published', publicationUrl: url });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_PUBLICATION_LINK');
    },
  );

  it('when publishing with an absolute https link, then 201', async () => {
    const t = await team();
    const res = await t.ws.as(t.manager).post('/api/posts').send({ title: 'X', brandId: t.brand.id, status: 'published', publicationUrl: 'https://instagram.com/p/abc' });
    expect(res.status).toBe(201);
    expect(res.body.post).toMatchObject({ status: 'published', publicationUrl: 'https://instagram.com/p/abc' });
  });

  it('when attachments name assets that do not exist, then 400 UNKNOWN_ATTACHMENT', async () => {
    const t = await team();
    const res = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.brand.id, attachments: [7] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNKNOWN_ATTACHMENT');
  });

  it.each([
    ['no title', { brandId: 1 }],
    ['a title of 201 characters', { title: 't'.repeat(201), brandId: 1 }],
    ['a caption of 10,001 characters', { title: 'X', brandId: 1, caption: 'c'.repeat(10_001) }],
    ['an unknown status', { title: 'X', brandId: 1, status: 'live' }],
    ['an unknown platform', { title: 'X', brandId: 1, platform: 'myspace' }],
    ['a scheduled time without offset', { title: 'X', brandId: 1, scheduledAt: '2026-02-01 19:00' }],
    ['an owner', { title: 'X', brandId: 1, ownerId: 3 }],
    ['attachments that are not ids', { title: 'X', brandId: 1, attachments: ['a'] }],
  ])('when the body has %s, then 400', async (_label, body) => {
    const t = await team();
    const res = await t.ws.as(t.admin).post('/api/posts').send(body);
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });
});

describe('GET /api/posts', () => {
  it('when posts exist in several brands, then each role sees only its brands, newest first', async () => {
    const t = await team();
    const a = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'A', brandId: t.brand.id });
    t.ws.clock.advance(1000);
    const b = await t.ws.as(t.manager).post('/api/posts').send({ title: 'B', campaignId: t.campaign.id });
    const c = await t.ws.as(t.admin).post('/api/posts').send({ title: 'C', brandId: t.other.id });
    expect(ids(await t.ws.as(t.contributor).get('/api/posts'))).toEqual([b.body.post.id, a.body.post.id]);
    expect(ids(await t.ws.as(t.manager).get('/api/posts'))).toEqual([b.body.post.id, a.body.post.id]);
    expect(ids(await t.ws.as(t.admin).get('/api/posts'))).toEqual([c.body.post.id, b.body.post.id, a.body.post.id]);
  });

  it('when filtered by campaign, status or brand, then only matching posts come back, each with its campaign name', async () => {
    const t = await team();
    const inCampaign = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'In', campaignId: t.campaign.id, status: 'draft' });
    const loose = await t.ws.as(t.contributor).post('/api/posts').send({ title: 'Loose', brandId: t.brand.id, status: 'review' });
    await t.ws.as(t.admin).post('/api/posts').send({ title: 'Other', brandId: t.other.id, status: 'draft' });

    const byCampaign = await t.ws.as(t.contributor).get(`/api/posts?campaignId=${t.campaign.id}`);
    expect(ids(byCampaign)).toEqual([inCampaign.body.post.id]);
    expect(byCampaign.body.posts[0].campaign).toEqual({ id: t.campaign.id, name: 'Spring' });
    expect(ids(await t.ws.as(t.contributor).get('/api/posts?status=review'))).toEqual([loose.body.post.id]);
    expect(ids(await t.ws.as(t.contributor).get(`/api/posts?brandId=${t.other.id}`))).toEqual([]);
    expect((await t.ws.as(t.admin).get(`/api/posts?brandId=${t.other.id}&status=draft`)).body.posts).toHaveLength(1);
  });

  it('when paginated with limit and offset, then pages follow each other without overlap', async () => {
    const t = await team();
    const created: number[] = [];
    for (let i = 0; i < 5; i++) {
      created.unshift((await t.ws.as(t.admin).post('/api/posts').send({ title: `P${i}`, brandId: t.brand.id })).body.post.id);
      t.ws.clock.advance(1000);
    }
    expect(ids(await t.ws.as(t.admin).get('/api/posts?limit=2'))).toEqual(created.slice(0, 2));
    expect(ids(await t.ws.as(t.admin).get('/api/posts?limit=2&offset=2'))).toEqual(created.slice(2, 4));
    expect(ids(await t.ws.as(t.admin).get('/api/posts?limit=2&offset=4'))).toEqual(created.slice(4));
    expect(ids(await t.ws.as(t.admin).get('/api/posts?limit=200'))).toEqual(created);
  });

  it.each(['limit=201', 'limit=0', 'limit=-1', 'limit=abc', 'offset=-3', 'status=live', 'campaignId=x', 'sort=title', 'limit=1&limit=2'])(
    'when the query is %s, then 400',
    async (query) => {
      const t = await team();
      const res = await t.ws.as(t.admin).get(`/api/posts?${query}`);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    },
  );
});

describe('GET /api/posts/:id', () => {
  it("when a post of another brand is asked for, then 404 exactly like a missing one", async () => {
    const t = await team();
    const theirs = await t.ws.as(t.admin).post('/api/posts').send({ title: 'Theirs', brandId: t.other.id });
    const hidden = await t.ws.as(t.contributor).get(`/api/posts/${theirs.body.post.id}`);
    const missing = await t.ws.as(t.contributor).get('/api/posts/999');
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
  });
});

describe('PATCH /api/posts/:id', () => {
  it('when the owner takes the post to review and a manager moves it on and publishes with a link, then 200 each time', async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.brand.id })).body.post;
    for (const status of ['draft', 'review']) {
      expect((await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ status })).body.post.status).toBe(status);
    }
    expect((await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'approved' })).body.post.status).toBe('approved');
    expect((await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'scheduled', scheduledAt: '2026-03-01T09:00:00Z' })).body.post.status).toBe('scheduled');
    const noLink = await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'published' });
    expect(noLink.status).toBe(400);
    expect(noLink.body.code).toBe('PUBLICATION_LINK_REQUIRED');
    const badLink = await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'published', publicationUrl: 'not a link' });
    expect(badLink.body.code).toBe('INVALID_PUBLICATION_LINK');
    const published = await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'published', publicationUrl: 'http://museum.example/news/1' });
    expect(published.status).toBe(200);
    expect(published.body.post).toMatchObject({ status: 'published', publicationUrl: 'http://museum.example/news/1' });
  });

  it('when the link of a published post is removed, then 400 PUBLICATION_LINK_REQUIRED and it stays', async () => {
    const t = await team();
    const post = (await t.ws.as(t.manager).post('/api/posts').send({ title: 'X', brandId: t.brand.id, status: 'published', publicationUrl: 'https://x.example/1' })).body.post;
    const res = await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ publicationUrl: '' });
    expect(res.body.code).toBe('PUBLICATION_LINK_REQUIRED');
    expect((await t.ws.as(t.manager).get(`/api/posts/${post.id}`)).body.post.publicationUrl).toBe('https://x.example/1');
  });

  it("when a contributor edits a colleague's post, then 403 NOT_POST_OWNER; a manager and a superadmin may", async () => {
    const t = await team();
    const post = (await t.ws.as(t.colleague).post('/api/posts').send({ title: 'Theirs', brandId: t.brand.id })).body.post;
    const refused = await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ title: 'Mine now' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NOT_POST_OWNER');
    expect((await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ title: 'By manager' })).body.post.title).toBe('By manager');
    expect((await t.ws.as(t.admin).patch(`/api/posts/${post.id}`).send({ title: 'By admin' })).body.post.title).toBe('By admin');
  });

  it("when a manager of another brand edits the post, then 404", async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.brand.id })).body.post;
    const outsider = await t.ws.user('manager', { brandIds: [t.other.id] });
    expect((await t.ws.as(outsider).patch(`/api/posts/${post.id}`).send({ title: 'Y' })).status).toBe(404);
  });

  it("when the post joins a campaign of another brand, then 400 BRAND_MISMATCH and nothing changes: a campaign never moves a post to its brand", async () => {
    const t = await team();
    const post = (await t.ws.as(t.admin).post('/api/posts').send({ title: 'X', brandId: t.other.id })).body.post;
    const before = await snapshot(t.ws);
    const refused = await t.ws.as(t.admin).patch(`/api/posts/${post.id}`).send({ campaignId: t.campaign.id });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('BRAND_MISMATCH');
    expect(await snapshot(t.ws)).toBe(before);
    // Its author still finds it where it was.
    expect((await t.ws.as(t.admin).get(`/api/posts/${post.id}`)).body.post).toMatchObject({ brandId: t.other.id, campaignId: null });
  });

  it("when the post is moved to another brand and that brand's campaign in one change, then it goes; leaving the campaign keeps the brand", async () => {
    const t = await team();
    const post = (await t.ws.as(t.admin).post('/api/posts').send({ title: 'X', brandId: t.other.id })).body.post;
    const joined = await t.ws.as(t.admin).patch(`/api/posts/${post.id}`).send({ campaignId: t.campaign.id, brandId: t.brand.id });
    expect(joined.body.post).toMatchObject({ campaignId: t.campaign.id, brandId: t.brand.id, campaign: { id: t.campaign.id, name: 'Spring' } });
    const left = await t.ws.as(t.admin).patch(`/api/posts/${post.id}`).send({ campaignId: null });
    expect(left.body.post).toMatchObject({ campaignId: null, campaign: null, brandId: t.brand.id });
    const mismatch = await t.ws.as(t.admin).patch(`/api/posts/${post.id}`).send({ campaignId: t.campaign.id, brandId: t.other.id });
    expect(mismatch.body.code).toBe('BRAND_MISMATCH');
  });

  it("when a post in a campaign is moved to another brand alone, then 400 BRAND_MISMATCH", async () => {
    const t = await team();
    const post = (await t.ws.as(t.admin).post('/api/posts').send({ title: 'X', campaignId: t.campaign.id })).body.post;
    const res = await t.ws.as(t.admin).patch(`/api/posts/${post.id}`).send({ brandId: t.other.id });
    expect(res.body.code).toBe('BRAND_MISMATCH');
  });

  it('when a contributor moves their post to a brand that is not theirs, then 404', async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.brand.id })).body.post;
    expect((await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ brandId: t.other.id })).status).toBe(404);
  });

  it('when the body is empty or has an unknown field, then 400', async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.brand.id })).body.post;
    expect((await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({})).status).toBe(400);
    expect((await t.ws.as(t.contributor).patch(`/api/posts/${post.id}`).send({ ownerId: t.contributor.id })).status).toBe(400);
  });
});

describe('DELETE /api/posts/:id', () => {
  it('when the owner deletes the post, then {ok:true} and it is gone', async () => {
    const t = await team();
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'X', brandId: t.brand.id })).body.post;
    expect((await t.ws.as(t.contributor).delete(`/api/posts/${post.id}`)).body).toEqual({ ok: true });
    expect((await t.ws.as(t.contributor).get(`/api/posts/${post.id}`)).status).toBe(404);
  });

  it("when a contributor deletes a colleague's post, then 403; a manager may", async () => {
    const t = await team();
    const post = (await t.ws.as(t.colleague).post('/api/posts').send({ title: 'X', brandId: t.brand.id })).body.post;
    expect((await t.ws.as(t.contributor).delete(`/api/posts/${post.id}`)).status).toBe(403);
    expect((await t.ws.as(t.manager).delete(`/api/posts/${post.id}`)).status).toBe(200);
  });

  it('when the post is of another brand or missing, then 404', async () => {
    const t = await team();
    const theirs = (await t.ws.as(t.admin).post('/api/posts').send({ title: 'X', brandId: t.other.id })).body.post;
    expect((await t.ws.as(t.manager).delete(`/api/posts/${theirs.id}`)).status).toBe(404);
    expect((await t.ws.as(t.manager).delete('/api/posts/999')).status).toBe(404);
  });
});

describe('posts schema', () => {
  itOnSqlite('when the schema is read, then posts.campaign_id and tracks.campaign_id are foreign keys to campaigns(id)', async () => {
    const ws = await buildWorkspace();
    for (const table of ['posts', 'tracks']) {
      const keys = ws.workspaceDb.prepare(`PRAGMA foreign_key_list(${table})`).all() as { table: string; from: string; to: string }[];
      expect(keys).toContainEqual(expect.objectContaining({ table: 'campaigns', from: 'campaign_id', to: 'id' }));
    }
    expect(ws.workspaceDb.pragma('foreign_keys', { simple: true })).toBe(1);
  });
});
