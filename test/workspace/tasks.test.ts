import { request, type HttpResponse } from '../support/http';
import { describe, expect, it } from 'vitest';
import { buildTeam, snapshot, type TestUser, type TestWorkspace } from '../support/workspace';

type Team = Awaited<ReturnType<typeof buildTeam>>;

async function taskBy(ws: TestWorkspace, by: TestUser, body: object) {
  const res = await ws.as(by).post('/api/tasks').send({ title: 'Task', ...body });
  expect(res.status).toBe(201);
  return res.body.task as { id: number; [key: string]: unknown };
}

const ids = (res: HttpResponse) => res.body.tasks.map((t: { id: number }) => t.id).sort((a: number, b: number) => a - b);

/**
 * Seven tasks that tell the visibility rules apart:
 * T1 contributor's, brand-wide; T2 contributor's, private, for the colleague; T3 the
 * colleague's, private; T4 the manager's, brand-wide, for the contributor; T5 the
 * manager's, private, for the contributor; T6 a superadmin's in the other brand; T7 a
 * superadmin's, private, in the first brand.
 */
async function sevenTasks(t: Team) {
  const b = t.brand.id;
  return {
    T1: (await taskBy(t.ws, t.contributor, { brandId: b })).id,
    T2: (await taskBy(t.ws, t.contributor, { brandId: b, visibility: 'private', assigneeId: t.colleague.id })).id,
    T3: (await taskBy(t.ws, t.colleague, { brandId: b, visibility: 'private' })).id,
    T4: (await taskBy(t.ws, t.manager, { brandId: b, assigneeId: t.contributor.id })).id,
    T5: (await taskBy(t.ws, t.manager, { brandId: b, visibility: 'private', assigneeId: t.contributor.id })).id,
    T6: (await taskBy(t.ws, t.admin, { brandId: t.other.id })).id,
    T7: (await taskBy(t.ws, t.admin, { brandId: b, visibility: 'private' })).id,
  };
}

type Who = 'contributor' | 'colleague' | 'manager' | 'admin';
type Name = 'T1' | 'T2' | 'T3' | 'T4' | 'T5' | 'T6' | 'T7';

const VISIBLE: [Who, 'all' | 'mine' | 'assigned' | 'created', Name[]][] = [
  ['contributor', 'all', ['T1', 'T2', 'T4', 'T5']],
  ['contributor', 'mine', ['T1', 'T2', 'T4', 'T5']],
  ['contributor', 'assigned', ['T4', 'T5']],
  ['contributor', 'created', ['T1', 'T2']],
  ['colleague', 'all', ['T1', 'T2', 'T3', 'T4']],
  ['colleague', 'mine', ['T2', 'T3']],
  ['colleague', 'assigned', ['T2']],
  ['colleague', 'created', ['T3']],
  ['manager', 'all', ['T1', 'T4', 'T5']],
  ['manager', 'mine', ['T4', 'T5']],
  ['manager', 'assigned', []],
  ['manager', 'created', ['T4', 'T5']],
  ['admin', 'all', ['T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7']],
  ['admin', 'mine', ['T6', 'T7']],
  ['admin', 'assigned', []],
  ['admin', 'created', ['T6', 'T7']],
];

describe('GET /api/tasks', () => {
  it.each(VISIBLE)('when the %s lists with scope=%s, then exactly %j come back', async (who, scope, expected) => {
    const t = await buildTeam();
    const tasks = await sevenTasks(t);
    const res = await t.ws.as(t[who]).get(`/api/tasks?scope=${scope}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual(expected.map((n) => tasks[n]).sort((a, b) => a - b));
  });

  it('when no scope is given, then it is all', async () => {
    const t = await buildTeam();
    const tasks = await sevenTasks(t);
    expect(ids(await t.ws.as(t.manager).get('/api/tasks'))).toEqual([tasks.T1, tasks.T4, tasks.T5]);
  });

  it('when filtered by status, assignee or brand, then only matching tasks the caller may see come back, by due date', async () => {
    const t = await buildTeam();
    const late = await taskBy(t.ws, t.manager, { brandId: t.brand.id, dueDate: '2026-03-01', assigneeId: t.colleague.id });
    const soon = await taskBy(t.ws, t.manager, { brandId: t.brand.id, dueDate: '2026-02-01', assigneeId: t.colleague.id, status: 'doing' });
    const undated = await taskBy(t.ws, t.manager, { brandId: t.brand.id, assigneeId: t.colleague.id });
    const listed = (res: HttpResponse) => res.body.tasks.map((x: { id: number }) => x.id);
    expect(listed(await t.ws.as(t.contributor).get(`/api/tasks?assigneeId=${t.colleague.id}`))).toEqual([soon.id, late.id, undated.id]);
    expect(listed(await t.ws.as(t.contributor).get('/api/tasks?status=doing'))).toEqual([soon.id]);
    expect(listed(await t.ws.as(t.contributor).get(`/api/tasks?brandId=${t.other.id}`))).toEqual([]);
    expect(listed(await t.ws.as(t.contributor).get('/api/tasks?limit=1&offset=1'))).toEqual([late.id]);
  });

  it.each(['scope=everyone', 'status=blocked', 'limit=0', 'limit=501', 'assigneeId=me', 'owner=1'])('when the query is %s, then 400', async (query) => {
    const t = await buildTeam();
    expect((await t.ws.as(t.contributor).get(`/api/tasks?${query}`)).status).toBe(400);
  });

  it('when nobody is signed in, then 401', async () => {
    const t = await buildTeam();
    expect((await request(t.ws.app).get('/api/tasks')).status).toBe(401);
  });
});

describe('GET /api/tasks: filters and sort', () => {
  // The test clock stands at 2026-01-15 (UTC): "this week" runs to 2026-01-21.
  const titles = (res: HttpResponse) => res.body.tasks.map((x: { title: string }) => x.title);

  it('when filtered by priority, then only tasks of that priority come back', async () => {
    const t = await buildTeam();
    await taskBy(t.ws, t.manager, { title: 'Urgent one', brandId: t.brand.id, priority: 'urgent' });
    await taskBy(t.ws, t.manager, { title: 'Low one', brandId: t.brand.id, priority: 'low' });
    expect(titles(await t.ws.as(t.contributor).get('/api/tasks?priority=urgent'))).toEqual(['Urgent one']);
    expect(titles(await t.ws.as(t.contributor).get('/api/tasks?priority=high'))).toEqual([]);
  });

  it('when filtered by project or campaign, then only the tasks placed there come back', async () => {
    const t = await buildTeam();
    const project = (await t.ws.as(t.manager).post('/api/projects').send({ name: 'Website', brandId: t.brand.id })).body.project;
    const campaign = (await t.ws.as(t.manager).post('/api/campaigns').send({ name: 'Spring', brandId: t.brand.id })).body.campaign;
    await taskBy(t.ws, t.manager, { title: 'In project', projectId: project.id });
    await taskBy(t.ws, t.manager, { title: 'In campaign', campaignId: campaign.id });
    await taskBy(t.ws, t.manager, { title: 'Loose', brandId: t.brand.id });
    expect(titles(await t.ws.as(t.contributor).get(`/api/tasks?projectId=${project.id}`))).toEqual(['In project']);
    expect(titles(await t.ws.as(t.contributor).get(`/api/tasks?campaignId=${campaign.id}`))).toEqual(['In campaign']);
  });

  it('when filtered by assignee, then only that member\'s tasks come back', async () => {
    const t = await buildTeam();
    await taskBy(t.ws, t.manager, { title: 'For colleague', brandId: t.brand.id, assigneeId: t.colleague.id });
    await taskBy(t.ws, t.manager, { title: 'For contributor', brandId: t.brand.id, assigneeId: t.contributor.id });
    expect(titles(await t.ws.as(t.manager).get(`/api/tasks?assigneeId=${t.colleague.id}`))).toEqual(['For colleague']);
  });

  it('when filtered by due=overdue, week or none, then late open tasks, tasks due in the next seven days, or undated ones come back', async () => {
    const t = await buildTeam();
    const b = t.brand.id;
    await taskBy(t.ws, t.manager, { title: 'Late', brandId: b, dueDate: '2026-01-14' });
    await taskBy(t.ws, t.manager, { title: 'Late but done', brandId: b, dueDate: '2026-01-10', status: 'done' });
    await taskBy(t.ws, t.manager, { title: 'Today', brandId: b, dueDate: '2026-01-15' });
    await taskBy(t.ws, t.manager, { title: 'Sixth day on', brandId: b, dueDate: '2026-01-21' });
    await taskBy(t.ws, t.manager, { title: 'Next week', brandId: b, dueDate: '2026-01-22' });
    await taskBy(t.ws, t.manager, { title: 'Undated', brandId: b });
    const as = t.ws.as(t.contributor);
    expect(titles(await as.get('/api/tasks?due=overdue'))).toEqual(['Late']);
    expect(titles(await as.get('/api/tasks?due=week'))).toEqual(['Today', 'Sixth day on']);
    expect(titles(await as.get('/api/tasks?due=none'))).toEqual(['Undated']);
  });

  it('when sorted by priority, newest or title, then in that order; by default, by due date with undated last', async () => {
    const t = await buildTeam();
    const b = t.brand.id;
    await taskBy(t.ws, t.manager, { title: 'Charlie', brandId: b, priority: 'low', dueDate: '2026-01-20' });
    t.ws.clock.advance(60_000);
    await taskBy(t.ws, t.manager, { title: 'alpha', brandId: b, priority: 'urgent' });
    t.ws.clock.advance(60_000);
    await taskBy(t.ws, t.manager, { title: 'Bravo', brandId: b, priority: 'high', dueDate: '2026-01-18' });
    t.ws.clock.advance(60_000);
    await taskBy(t.ws, t.manager, { title: 'Delta', brandId: b, priority: 'high', dueDate: '2026-01-16' });
    const as = t.ws.as(t.contributor);
    expect(titles(await as.get('/api/tasks'))).toEqual(['Delta', 'Bravo', 'Charlie', 'alpha']);
    expect(titles(await as.get('/api/tasks?sort=due'))).toEqual(['Delta', 'Bravo', 'Charlie', 'alpha']);
    // Urgent first; within a priority, by due date.
    expect(titles(await as.get('/api/tasks?sort=priority'))).toEqual(['alpha', 'Delta', 'Bravo', 'Charlie']);
    expect(titles(await as.get('/api/tasks?sort=newest'))).toEqual(['Delta', 'Bravo', 'alpha', 'Charlie']);
    // Whatever the case of the first letter.
    expect(titles(await as.get('/api/tasks?sort=title'))).toEqual(['alpha', 'Bravo', 'Charlie', 'Delta']);
  });

  it('when filters are combined, then every one applies, within the brands and private tasks the caller may see', async () => {
    const t = await buildTeam();
    await taskBy(t.ws, t.manager, { title: 'Mine, urgent, late', brandId: t.brand.id, priority: 'urgent', dueDate: '2026-01-01' });
    await taskBy(t.ws, t.manager, { title: 'Mine, urgent, later', brandId: t.brand.id, priority: 'urgent', dueDate: '2026-03-01' });
    await taskBy(t.ws, t.admin, { title: 'Theirs, urgent, late', brandId: t.other.id, priority: 'urgent', dueDate: '2026-01-01' });
    await taskBy(t.ws, t.colleague, { title: 'Private, urgent, late', brandId: t.brand.id, priority: 'urgent', dueDate: '2026-01-01', visibility: 'private' });
    expect(titles(await t.ws.as(t.contributor).get('/api/tasks?priority=urgent&due=overdue&sort=title'))).toEqual(['Mine, urgent, late']);
    expect(titles(await t.ws.as(t.contributor).get(`/api/tasks?priority=urgent&brandId=${t.other.id}`))).toEqual([]);
    expect(titles(await t.ws.as(t.colleague).get('/api/tasks?priority=urgent&due=overdue&sort=title'))).toEqual(['Mine, urgent, late', 'Private, urgent, late']);
    expect(titles(await t.ws.as(t.admin).get('/api/tasks?priority=urgent&due=overdue&sort=title'))).toEqual([
      'Mine, urgent, late',
      'Private, urgent, late',
      'Theirs, urgent, late',
    ]);
  });

  it.each(['priority=asap', 'priority=', 'due=soon', 'due=', 'sort=oldest', 'sort=', 'projectId=abc', 'projectId=0', 'campaignId=-1', 'assigneeId=1.5', 'due=overdue&due=week'])(
    'when the query is %s, then 400',
    async (query) => {
      const t = await buildTeam();
      const res = await t.ws.as(t.contributor).get(`/api/tasks?${query}`);
      expect(res.status).toBe(400);
    },
  );
});

describe('GET /api/tasks/:id', () => {
  it("when someone else's private task is asked for, then 404 like a missing one; its assignee and a superadmin see it", async () => {
    const t = await buildTeam();
    const tasks = await sevenTasks(t);
    const hidden = await t.ws.as(t.manager).get(`/api/tasks/${tasks.T2}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual((await t.ws.as(t.manager).get('/api/tasks/999')).body);
    expect((await t.ws.as(t.colleague).get(`/api/tasks/${tasks.T2}`)).status).toBe(200);
    expect((await t.ws.as(t.admin).get(`/api/tasks/${tasks.T2}`)).status).toBe(200);
    expect((await t.ws.as(t.contributor).get(`/api/tasks/${tasks.T6}`)).status).toBe(404);
  });
});

describe('POST /api/tasks', () => {
  it('when a contributor creates a task, then 201 {task} with the defaults and the contributor as owner', async () => {
    const t = await buildTeam();
    const res = await t.ws.as(t.contributor).post('/api/tasks').send({ title: 'Write captions', brandId: t.brand.id });
    expect(res.status).toBe(201);
    expect(res.body.task).toEqual({
      id: expect.any(Number),
      brandId: t.brand.id,
      title: 'Write captions',
      description: null,
      status: 'todo',
      priority: 'medium',
      dueDate: null,
      visibility: 'brand',
      assigneeId: null,
      projectId: null,
      campaignId: null,
      postId: null,
      ownerId: t.contributor.id,
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
      can: { edit: true, changeVisibility: true, delete: true, comment: true },
    });
  });

  it('when the task names a project, or a post, then it takes their brand (and the post its campaign)', async () => {
    const t = await buildTeam();
    const project = (await t.ws.as(t.manager).post('/api/projects').send({ name: 'Website', brandId: t.brand.id })).body.project;
    const campaign = (await t.ws.as(t.manager).post('/api/campaigns').send({ name: 'Spring', brandId: t.brand.id })).body.campaign;
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'P', campaignId: campaign.id })).body.post;
    const inProject = await taskBy(t.ws, t.contributor, { projectId: project.id });
    expect(inProject).toMatchObject({ brandId: t.brand.id, projectId: project.id });
    const onPost = await taskBy(t.ws, t.contributor, { postId: post.id, projectId: project.id });
    expect(onPost).toMatchObject({ brandId: t.brand.id, postId: post.id, campaignId: campaign.id, projectId: project.id });
  });

  it('when the assignee is a member of the brand or a superadmin, then 201; anyone else, then 400 ASSIGNEE_NOT_MEMBER', async () => {
    const t = await buildTeam();
    const outsider = await t.ws.user('contributor', { brandIds: [t.other.id] });
    expect((await t.ws.as(t.contributor).post('/api/tasks').send({ title: 'X', brandId: t.brand.id, assigneeId: t.manager.id })).status).toBe(201);
    expect((await t.ws.as(t.contributor).post('/api/tasks').send({ title: 'X', brandId: t.brand.id, assigneeId: t.admin.id })).status).toBe(201);
    const before = await snapshot(t.ws);
    for (const assigneeId of [outsider.id, 9999]) {
      const res = await t.ws.as(t.contributor).post('/api/tasks').send({ title: 'X', brandId: t.brand.id, assigneeId });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('ASSIGNEE_NOT_MEMBER');
    }
    expect(await snapshot(t.ws)).toBe(before);
  });

  it("when the brand, project or campaign is another brand's, then 404; when they disagree, then 400 BRAND_MISMATCH; with none, 400 BRAND_REQUIRED", async () => {
    const t = await buildTeam();
    const theirProject = (await t.ws.as(t.admin).post('/api/projects').send({ name: 'Theirs', brandId: t.other.id })).body.project;
    const theirCampaign = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Theirs', brandId: t.other.id })).body.campaign;
    const myProject = (await t.ws.as(t.admin).post('/api/projects').send({ name: 'Mine', brandId: t.brand.id })).body.project;
    const send = (by: TestUser, body: object) => t.ws.as(by).post('/api/tasks').send({ title: 'X', ...body });
    expect((await send(t.contributor, { brandId: t.other.id })).status).toBe(404);
    expect((await send(t.contributor, { projectId: theirProject.id })).status).toBe(404);
    expect((await send(t.contributor, { campaignId: theirCampaign.id })).status).toBe(404);
    expect((await send(t.admin, { projectId: myProject.id, campaignId: theirCampaign.id })).body.code).toBe('BRAND_MISMATCH');
    expect((await send(t.admin, { projectId: myProject.id, brandId: t.other.id })).body.code).toBe('BRAND_MISMATCH');
    expect((await send(t.admin, {})).body.code).toBe('BRAND_REQUIRED');
  });

  it.each([
    ['no title', { brandId: 1 }],
    ['a title of 201 characters', { title: 't'.repeat(201), brandId: 1 }],
    ['an unknown status', { title: 'X', brandId: 1, status: 'blocked' }],
    ['an unknown priority', { title: 'X', brandId: 1, priority: 'asap' }],
    ['an unknown visibility', { title: 'X', brandId: 1, visibility: 'public' }],
    ['an impossible due date', { title: 'X', brandId: 1, dueDate: '2026-02-30' }],
    ['an owner', { title: 'X', brandId: 1, ownerId: 1 }],
    ['an assignee that is not an id', { title: 'X', brandId: 1, assigneeId: 'me' }],
  ])('when the body has %s, then 400', async (_label, body) => {
    const t = await buildTeam();
    expect((await t.ws.as(t.admin).post('/api/tasks').send(body)).status).toBe(400);
  });
});

describe('POST and PATCH /api/tasks: a project of another brand', () => {
  it("when a task of one brand is created with a project of another, then 400 BRAND_MISMATCH and nothing is stored", async () => {
    const t = await buildTeam();
    const theirProject = (await t.ws.as(t.admin).post('/api/projects').send({ name: 'Theirs', brandId: t.other.id })).body.project;
    const before = await snapshot(t.ws);
    const res = await t.ws.as(t.admin).post('/api/tasks').send({ title: 'X', brandId: t.brand.id, projectId: theirProject.id });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BRAND_MISMATCH');
    expect(await snapshot(t.ws)).toBe(before);
  });

  it("when a task is moved to a project of another brand, then 400 BRAND_MISMATCH and it keeps its project", async () => {
    const t = await buildTeam();
    const mine = (await t.ws.as(t.admin).post('/api/projects').send({ name: 'Mine', brandId: t.brand.id })).body.project;
    const theirs = (await t.ws.as(t.admin).post('/api/projects').send({ name: 'Theirs', brandId: t.other.id })).body.project;
    const task = await taskBy(t.ws, t.admin, { projectId: mine.id });
    const res = await t.ws.as(t.admin).patch(`/api/tasks/${task.id}`).send({ projectId: theirs.id, status: 'doing' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BRAND_MISMATCH');
    expect((await t.ws.as(t.admin).get(`/api/tasks/${task.id}`)).body.task).toMatchObject({ projectId: mine.id, status: 'todo', brandId: t.brand.id });
  });
});

describe('PATCH /api/tasks/:id', () => {
  it('when the assignee moves the task along, then 200; a bystander contributor gets 403 NOT_TASK_EDITOR; a manager may edit', async () => {
    const t = await buildTeam();
    const task = await taskBy(t.ws, t.manager, { brandId: t.brand.id, assigneeId: t.contributor.id });
    t.ws.clock.advance(60_000);
    const moved = await t.ws.as(t.contributor).patch(`/api/tasks/${task.id}`).send({ status: 'doing' });
    expect(moved.status).toBe(200);
    expect(moved.body.task).toMatchObject({ status: 'doing', updatedAt: '2026-01-15T12:01:00.000Z', createdAt: '2026-01-15T12:00:00.000Z' });
    const refused = await t.ws.as(t.colleague).patch(`/api/tasks/${task.id}`).send({ status: 'done' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NOT_TASK_EDITOR');
    expect((await t.ws.as(t.manager).patch(`/api/tasks/${task.id}`).send({ assigneeId: t.colleague.id })).body.task.assigneeId).toBe(t.colleague.id);
  });

  it('when the assignee makes a task private or brand-wide, then 403 NOT_TASK_OWNER; its owner may', async () => {
    const t = await buildTeam();
    const task = await taskBy(t.ws, t.contributor, { brandId: t.brand.id, visibility: 'private', assigneeId: t.colleague.id });
    const refused = await t.ws.as(t.colleague).patch(`/api/tasks/${task.id}`).send({ visibility: 'brand' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NOT_TASK_OWNER');
    expect((await t.ws.as(t.contributor).patch(`/api/tasks/${task.id}`).send({ visibility: 'brand' })).body.task.visibility).toBe('brand');
  });

  it("when the task is moved to another brand's project or given an outside assignee, then 404 / 400 and it stays", async () => {
    const t = await buildTeam();
    const task = await taskBy(t.ws, t.contributor, { brandId: t.brand.id });
    const theirProject = (await t.ws.as(t.admin).post('/api/projects').send({ name: 'Theirs', brandId: t.other.id })).body.project;
    const outsider = await t.ws.user('contributor', { brandIds: [t.other.id] });
    const before = await snapshot(t.ws);
    expect((await t.ws.as(t.contributor).patch(`/api/tasks/${task.id}`).send({ projectId: theirProject.id })).status).toBe(404);
    expect((await t.ws.as(t.admin).patch(`/api/tasks/${task.id}`).send({ projectId: theirProject.id })).body.code).toBe('BRAND_MISMATCH');
    expect((await t.ws.as(t.contributor).patch(`/api/tasks/${task.id}`).send({ assigneeId: outsider.id })).body.code).toBe('ASSIGNEE_NOT_MEMBER');
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when a post is attached and later removed, then the campaign follows the post and stays after', async () => {
    const t = await buildTeam();
    const campaign = (await t.ws.as(t.manager).post('/api/campaigns').send({ name: 'Spring', brandId: t.brand.id })).body.campaign;
    const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'P', campaignId: campaign.id })).body.post;
    const task = await taskBy(t.ws, t.contributor, { brandId: t.brand.id });
    const withPost = await t.ws.as(t.contributor).patch(`/api/tasks/${task.id}`).send({ postId: post.id });
    expect(withPost.body.task).toMatchObject({ postId: post.id, campaignId: campaign.id });
    const without = await t.ws.as(t.contributor).patch(`/api/tasks/${task.id}`).send({ postId: null });
    expect(without.body.task).toMatchObject({ postId: null, campaignId: campaign.id });
  });

  it('when the body is empty or names the brand or owner, then 400', async () => {
    const t = await buildTeam();
    const task = await taskBy(t.ws, t.contributor, { brandId: t.brand.id });
    for (const body of [{}, { brandId: t.other.id }, { ownerId: t.colleague.id }]) {
      expect((await t.ws.as(t.contributor).patch(`/api/tasks/${task.id}`).send(body)).status).toBe(400);
    }
  });
});

describe('task.can: what the one asking may do, as the server enforces it', () => {
  type Can = { edit: boolean; changeVisibility: boolean; delete: boolean; comment: boolean };
  const ALL: Can = { edit: true, changeVisibility: true, delete: true, comment: true };
  const ASSIGNEE: Can = { edit: true, changeVisibility: false, delete: false, comment: true };
  const BYSTANDER: Can = { edit: false, changeVisibility: false, delete: false, comment: true };

  /** A brand-wide task of the contributor's, assigned to the colleague. */
  const EXPECTED: [Who | 'bystander', Can][] = [
    ['contributor', ALL],
    ['colleague', ASSIGNEE],
    ['bystander', BYSTANDER],
    ['manager', ALL],
    ['admin', ALL],
  ];

  it.each(EXPECTED)('when the %s reads, lists or changes the task, then can is %j, and every action it allows succeeds while the others are refused', async (who, can) => {
    const t = await buildTeam();
    const bystander = await t.ws.user('contributor', { brandIds: [t.brand.id] });
    const actor = who === 'bystander' ? bystander : t[who];
    const task = await taskBy(t.ws, t.contributor, { brandId: t.brand.id, assigneeId: t.colleague.id });
    const as = t.ws.as(actor);

    expect((await as.get(`/api/tasks/${task.id}`)).body.task.can).toEqual(can);
    const listed = (await as.get('/api/tasks')).body.tasks.find((x: { id: number }) => x.id === task.id);
    expect(listed.can).toEqual(can);

    const edited = await as.patch(`/api/tasks/${task.id}`).send({ status: 'doing' });
    expect(edited.status).toBe(can.edit ? 200 : 403);
    if (can.edit) expect(edited.body.task.can).toEqual(can);
    expect((await as.post(`/api/tasks/${task.id}/comments`).send({ body: 'On it' })).status).toBe(can.comment ? 201 : 404);
    expect((await as.delete(`/api/tasks/${task.id}`)).status).toBe(can.delete ? 200 : 403);
    // Made private, a task may leave the sight of whoever did it: a task of its own for that.
    const twin = await taskBy(t.ws, t.contributor, { brandId: t.brand.id, assigneeId: t.colleague.id });
    expect((await as.patch(`/api/tasks/${twin.id}`).send({ visibility: 'private' })).status).toBe(can.changeVisibility ? 200 : 403);
  });

  it('when a task is created, then its answer says its creator may do everything to it; a private one says nothing to those who cannot see it (404)', async () => {
    const t = await buildTeam();
    const created = await t.ws.as(t.colleague).post('/api/tasks').send({ title: 'Mine alone', brandId: t.brand.id, visibility: 'private' });
    expect(created.status).toBe(201);
    expect(created.body.task.can).toEqual(ALL);
    expect((await t.ws.as(t.contributor).get(`/api/tasks/${created.body.task.id}`)).status).toBe(404);
    expect((await t.ws.as(t.admin).get(`/api/tasks/${created.body.task.id}`)).body.task.can).toEqual(ALL);
  });

  it('when the assignee is handed the task later, then what they may do follows at once', async () => {
    const t = await buildTeam();
    const task = await taskBy(t.ws, t.contributor, { brandId: t.brand.id });
    expect((await t.ws.as(t.colleague).get(`/api/tasks/${task.id}`)).body.task.can).toEqual(BYSTANDER);
    const handed = await t.ws.as(t.contributor).patch(`/api/tasks/${task.id}`).send({ assigneeId: t.colleague.id });
    // The answer is the changer's; the colleague's own reading says what they may do now.
    expect(handed.body.task.can).toEqual(ALL);
    expect((await t.ws.as(t.colleague).get(`/api/tasks/${task.id}`)).body.task.can).toEqual(ASSIGNEE);
  });
});

describe('DELETE /api/tasks/:id', () => {
  it('when the owner deletes, then {ok:true}; the assignee gets 403, a manager may, another brand gets 404', async () => {
    const t = await buildTeam();
    const [a, b] = [
      await taskBy(t.ws, t.contributor, { brandId: t.brand.id, assigneeId: t.colleague.id }),
      await taskBy(t.ws, t.contributor, { brandId: t.brand.id, assigneeId: t.colleague.id }),
    ];
    const outsider = await t.ws.user('manager', { brandIds: [t.other.id] });
    const refused = await t.ws.as(t.colleague).delete(`/api/tasks/${a.id}`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NOT_TASK_OWNER');
    expect((await t.ws.as(outsider).delete(`/api/tasks/${a.id}`)).status).toBe(404);
    expect((await t.ws.as(t.contributor).delete(`/api/tasks/${a.id}`)).body).toEqual({ ok: true });
    expect((await t.ws.as(t.manager).delete(`/api/tasks/${b.id}`)).status).toBe(200);
    expect((await t.ws.as(t.admin).get('/api/tasks')).body.tasks).toEqual([]);
  });

  it('when the owner is deleted as a member, then the task stays without owner, still seen by its assignee', async () => {
    const t = await buildTeam();
    const task = await taskBy(t.ws, t.colleague, { brandId: t.brand.id, visibility: 'private', assigneeId: t.contributor.id });
    expect((await t.ws.as(t.admin).delete(`/api/members/${t.colleague.id}`)).status).toBe(200);
    const seen = await t.ws.as(t.contributor).get(`/api/tasks/${task.id}`);
    expect(seen.body.task).toMatchObject({ ownerId: null, assigneeId: t.contributor.id });
  });
});
