import { describe, expect, it } from 'vitest';
import { buildTeam } from '../support/workspace';

/** Past what a 32-bit integer holds, within what a path id may be. */
const FAR = 99_999_999_999;

describe('ids past 32 bits', () => {
  it('when a path names an id no record can have yet, then 404 as for any unknown id', async () => {
    const t = await buildTeam();
    for (const path of ['posts', 'campaigns', 'projects', 'tasks', 'members', 'brands', 'assets', 'budget-entries']) {
      expect((await t.ws.as(t.admin).get(`/api/${path}/${FAR}`)).status, path).toBe(404);
    }
  });

  it('when a write or a filter names such an id, then the answer is the same as for any unknown one', async () => {
    const t = await buildTeam();
    expect((await t.ws.as(t.admin).post('/api/posts').send({ title: 'x', brandId: FAR })).status).toBe(404);
    expect((await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'x', brandId: FAR })).status).toBe(404);
    expect((await t.ws.as(t.admin).post('/api/tasks').send({ title: 'x', brandId: FAR })).status).toBe(404);
    const member = await t.ws.as(t.admin).post('/api/members').send({ name: 'x', email: 'far@example.test', password: 'Long-enough-1', role: 'contributor', brandIds: [FAR] });
    expect(member.status).toBe(404);
    expect((await t.ws.as(t.admin).get(`/api/posts?campaignId=${FAR}`)).body.posts).toEqual([]);
    expect((await t.ws.as(t.admin).get(`/api/tasks?projectId=${FAR}`)).body.tasks).toEqual([]);
  });
});
