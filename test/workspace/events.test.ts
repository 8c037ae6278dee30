import { describe, expect, it } from 'vitest';
import { openStream, serve, type OpenStream } from '../support/events';
import { pdf } from '../support/files';
import { request } from '../support/http';
import { buildTeam, PASSWORD, type TestUser } from '../support/workspace';

type Team = Awaited<ReturnType<typeof buildTeam>>;

/** The team's app served on a port, and streams opened on it by token or by cookie. */
async function live() {
  const t = await buildTeam();
  const url = await serve(t.ws.app);
  const byToken = (user: TestUser | string, query = '', headers: Record<string, string> = {}) =>
    openStream(`${url}/api/events${query}`, { Authorization: `Bearer ${typeof user === 'string' ? user : user.token}`, ...headers });
  const byCookie = (cookie: string, query = '', headers: Record<string, string> = {}) => openStream(`${url}/api/events${query}`, { Cookie: cookie, ...headers });
  return { ...t, url, byToken, byCookie };
}

async function createPost(t: Team, user: TestUser, brandId: number, title = 'Post') {
  const res = await t.ws.as(user).post('/api/posts').send({ title, brandId });
  expect(res.status).toBe(201);
  return res.body.post as { id: number; status: string };
}

/** The stream's next event, whatever it is: proves that nothing came before it. */
const nextOf = (stream: OpenStream) => stream.next();

describe('GET /api/events', () => {
  it('when nobody is signed in, then 401 JSON, with a bad token too', async () => {
    const t = await live();
    const none = await openStream(`${t.url}/api/events`);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: expect.any(String) });
    const bad = await t.byToken('not-a-token');
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('when a member opens the stream by cookie, then it is an event stream that starts with the retry hint and keeps the security headers', async () => {
    const t = await live();
    const { cookie } = await t.ws.signIn(t.contributor.email);
    const stream = await t.byCookie(cookie);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    expect(stream.headers['content-security-policy']).toEqual(expect.any(String));
    expect(await stream.nextBlock(() => true)).toMatchObject({ retry: 3000 });
    // A position to resume from, before any event.
    expect((await stream.nextBlock(() => true)).id).toEqual(expect.any(String));
  });

  it('when an unknown query parameter is sent, then 400', async () => {
    const t = await live();
    expect((await t.byToken(t.contributor, '?since=1')).status).toBe(400);
  });

  describe('posts', () => {
    it('when a post is created, moved, edited and deleted, then members of its brand hear each with the body their GET gives them (with their own can) and who did it', async () => {
      const t = await live();
      const [author, manager] = [await t.byToken(t.contributor), await t.byToken(t.manager)];
      const post = await createPost(t, t.contributor, t.brand.id, 'Opening');
      const created = await author.next();
      expect(created).toMatchObject({ event: 'post', id: expect.any(String), data: { id: post.id, action: 'created', by: t.contributor.id } });
      expect(created.data.post).toEqual((await t.ws.as(t.contributor).get(`/api/posts/${post.id}`)).body.post);
      const managerSees = await manager.next();
      expect(managerSees.data.post).toEqual((await t.ws.as(t.manager).get(`/api/posts/${post.id}`)).body.post);
      expect(managerSees.data.post.can.moves).not.toEqual(created.data.post.can.moves);

      await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'approved' });
      expect(await author.next((e) => e.event === 'post')).toMatchObject({ event: 'post', data: { id: post.id, action: 'moved', post: { status: 'approved' }, by: t.manager.id } });
      await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ caption: 'Doors at nine', status: 'approved' });
      expect(await author.next((e) => e.event === 'post')).toMatchObject({ data: { action: 'updated', post: { caption: 'Doors at nine' } } });
      await t.ws.as(t.manager).delete(`/api/posts/${post.id}`);
      const deleted = await author.next((e) => e.event === 'post');
      expect(deleted.data).toEqual({ id: post.id, action: 'deleted', by: t.manager.id });
    });

    it('when posts are moved or deleted in bulk, then each post is told', async () => {
      const t = await live();
      const stream = await t.byToken(t.colleague);
      const posts = [await createPost(t, t.contributor, t.brand.id, 'A'), await createPost(t, t.contributor, t.brand.id, 'B')];
      for (const post of posts) expect((await stream.next()).data).toMatchObject({ id: post.id, action: 'created' });
      await t.ws.as(t.manager).patch('/api/posts').send({ ids: posts.map((p) => p.id), status: 'draft' });
      for (const post of posts) expect((await stream.next()).data).toMatchObject({ id: post.id, action: 'moved', post: { status: 'draft' } });
      await t.ws.as(t.manager).delete('/api/posts').send({ ids: posts.map((p) => p.id) });
      for (const post of posts) expect((await stream.next()).data).toEqual({ id: post.id, action: 'deleted', by: t.manager.id });
    });

    it("when a post is made in another brand, then members of only the first hear nothing of it, and a superadmin hears both", async () => {
      const t = await live();
      const [member, admin] = [await t.byToken(t.contributor), await t.byToken(t.admin)];
      const theirs = await createPost(t, t.admin, t.other.id, 'Theirs');
      const mine = await createPost(t, t.admin, t.brand.id, 'Mine');
      expect((await nextOf(member)).data).toMatchObject({ id: mine.id, action: 'created' });
      expect((await admin.next()).data).toMatchObject({ id: theirs.id });
      expect((await admin.next()).data).toMatchObject({ id: mine.id });
    });

    it("when a campaign is renamed, then each of its posts is told with the new name, and a change that keeps the name tells nothing", async () => {
      const t = await live();
      const campaign = (await t.ws.as(t.manager).post('/api/campaigns').send({ brandId: t.brand.id, name: 'Spring' })).body.campaign as { id: number };
      const posts: { id: number }[] = [];
      for (const title of ['A', 'B']) posts.push((await t.ws.as(t.contributor).post('/api/posts').send({ title, brandId: t.brand.id, campaignId: campaign.id })).body.post);
      const stream = await t.byToken(t.colleague);
      await t.ws.as(t.manager).patch(`/api/campaigns/${campaign.id}`).send({ description: 'Same name' });
      expect((await t.ws.as(t.manager).patch(`/api/campaigns/${campaign.id}`).send({ name: 'Spring nights' })).status).toBe(200);
      const told = [await nextOf(stream), await nextOf(stream)];
      expect(told.map((e) => e.data.id).sort()).toEqual(posts.map((p) => p.id).sort());
      for (const event of told) expect(event).toMatchObject({ event: 'post', data: { action: 'updated', post: { campaign: { id: campaign.id, name: 'Spring nights' } }, by: t.manager.id } });
    });

    it("when a post moves to a brand the reader does not see, then they are told it is deleted (nothing of it), and its members that it was created there", async () => {
      const t = await live();
      const otherMember = await t.ws.user('contributor', { brandIds: [t.other.id] });
      const post = await createPost(t, t.admin, t.brand.id, 'Moving');
      const [mine, theirs] = [await t.byToken(t.contributor), await t.byToken(otherMember)];
      await t.ws.as(t.admin).patch(`/api/posts/${post.id}`).send({ brandId: t.other.id });
      expect((await mine.next()).data).toEqual({ id: post.id, action: 'deleted', by: t.admin.id });
      expect((await theirs.next()).data).toMatchObject({ id: post.id, action: 'updated', post: { brandId: t.other.id, title: 'Moving' } });
    });
  });

  describe('tasks and comments', () => {
    it("when a private task is made, then only its owner, its assignee and superadmins hear of it; made brand-wide, the brand hears it; private again, the others are told it is gone", async () => {
      const t = await live();
      const [owner, assignee, colleague, admin] = [await t.byToken(t.manager), await t.byToken(t.contributor), await t.byToken(t.colleague), await t.byToken(t.admin)];
      const res = await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Secret', brandId: t.brand.id, visibility: 'private', assigneeId: t.contributor.id });
      const task = res.body.task as { id: number };
      for (const stream of [owner, assignee, admin]) expect((await stream.next((e) => e.event === 'task')).data).toMatchObject({ id: task.id, action: 'created', task: { title: 'Secret' } });
      const visible = await createPost(t, t.manager, t.brand.id, 'Sentinel');
      expect((await nextOf(colleague)).data).toMatchObject({ id: visible.id, action: 'created' });

      await t.ws.as(t.manager).patch(`/api/tasks/${task.id}`).send({ visibility: 'brand' });
      expect((await colleague.next()).data).toMatchObject({ id: task.id, action: 'updated', task: { visibility: 'brand', can: { edit: false } } });
      await t.ws.as(t.manager).patch(`/api/tasks/${task.id}`).send({ visibility: 'private' });
      expect((await colleague.next()).data).toEqual({ id: task.id, action: 'deleted', by: t.manager.id });
    });

    it('when a comment is written and deleted, then whoever reads the thread hears both, and a mention reaches the bell with the unread count', async () => {
      const t = await live();
      const post = await createPost(t, t.contributor, t.brand.id, 'Thread');
      const [reader, named] = [await t.byToken(t.manager), await t.byToken(t.colleague)];
      const name = t.colleague.record.name;
      const res = await t.ws.as(t.contributor).post(`/api/posts/${post.id}/comments`).send({ body: `Look @${name}` });
      const comment = res.body.comment as { id: number };
      const told = await reader.next((e) => e.event === 'comment');
      expect(told.data).toEqual({ action: 'created', postId: post.id, id: comment.id, comment: res.body.comment, by: t.contributor.id });
      const bell = await named.next((e) => e.event === 'notification');
      expect(bell.data).toEqual({ notification: (await t.ws.as(t.colleague).get('/api/notifications')).body.notifications[0], unread: 1, by: t.contributor.id });
      expect(bell.data.notification).toMatchObject({ kind: 'mentioned', postId: post.id });

      await t.ws.as(t.colleague).post('/api/notifications/read').send({ all: true });
      expect((await named.next((e) => e.event === 'notification')).data).toEqual({ notification: null, unread: 0, by: t.colleague.id });
      await t.ws.as(t.manager).delete(`/api/comments/${comment.id}`);
      expect((await reader.next((e) => e.event === 'comment')).data).toEqual({ action: 'deleted', postId: post.id, id: comment.id, by: t.manager.id });
    });

    it('when a manager sends a post back with a reason, then the thread hears the reason as a comment after the move', async () => {
      const t = await live();
      const post = (await t.ws.as(t.contributor).post('/api/posts').send({ title: 'For review', brandId: t.brand.id, status: 'review' })).body.post as { id: number };
      const author = await t.byToken(t.contributor);
      const res = await t.ws.as(t.manager).patch(`/api/posts/${post.id}`).send({ status: 'draft', comment: 'Shorter, please' });
      expect(res.status).toBe(200);
      expect((await author.next((e) => e.event === 'post')).data).toMatchObject({ id: post.id, action: 'moved', post: { status: 'draft' } });
      const reason = await author.next((e) => e.event === 'comment');
      expect(reason.data).toEqual({ action: 'created', postId: post.id, id: expect.any(Number), comment: (await t.ws.as(t.contributor).get(`/api/posts/${post.id}/comments`)).body.comments[0], by: t.manager.id });
      expect(reason.data.comment).toMatchObject({ body: 'Shorter, please', authorId: t.manager.id });
    });

    it("when a comment is written on a private task, then a colleague who cannot see the task hears nothing of it", async () => {
      const t = await live();
      const task = (await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Private', brandId: t.brand.id, visibility: 'private' })).body.task as { id: number };
      const colleague = await t.byToken(t.colleague);
      await t.ws.as(t.manager).post(`/api/tasks/${task.id}/comments`).send({ body: 'Only me' });
      const sentinel = await createPost(t, t.manager, t.brand.id, 'Sentinel');
      expect((await nextOf(colleague)).data).toMatchObject({ id: sentinel.id, action: 'created' });
    });
  });

  describe('assets', () => {
    it('when files are uploaded into a post and deleted, then its brand hears the assets and the post that changed', async () => {
      const t = await live();
      const post = await createPost(t, t.contributor, t.brand.id, 'With media');
      const stream = await t.byToken(t.manager);
      const up = await t.ws.as(t.contributor).post('/api/assets').field('postId', String(post.id)).attach('files', pdf(), 'brief.pdf');
      expect(up.status).toBe(201);
      const asset = up.body.assets[0] as { id: number };
      expect((await stream.next()).data).toEqual({ id: asset.id, action: 'created', asset: up.body.assets[0], by: t.contributor.id });
      expect((await stream.next()).data).toMatchObject({ id: post.id, action: 'updated', post: { attachments: [asset.id] } });
      await t.ws.as(t.manager).delete(`/api/assets/${asset.id}`);
      expect((await stream.next()).data).toEqual({ id: asset.id, action: 'deleted', by: t.manager.id });
      expect((await stream.next()).data).toMatchObject({ id: post.id, action: 'updated', post: { attachments: [] } });
    });
  });

  describe('access', () => {
    it('when a member is removed from a brand, then their stream is told (brands) and hears nothing more of that brand at once', async () => {
      const t = await live();
      const member = await t.ws.user('contributor', { brandIds: [t.brand.id, t.other.id] });
      const stream = await t.byToken(member);
      expect((await t.ws.as(t.admin).patch(`/api/members/${member.id}`).send({ brandIds: [t.other.id] })).status).toBe(200);
      expect((await stream.next()).data).toEqual({ reason: 'brands', by: t.admin.id });
      await createPost(t, t.admin, t.brand.id, 'No longer theirs');
      const sentinel = await createPost(t, t.admin, t.other.id, 'Still theirs');
      expect((await nextOf(stream)).data).toMatchObject({ id: sentinel.id, action: 'created' });
    });

    it("when a member's role changes, then their stream is told (role)", async () => {
      const t = await live();
      const stream = await t.byToken(t.contributor);
      await t.ws.as(t.admin).patch(`/api/members/${t.contributor.id}`).send({ role: 'manager' });
      expect(await stream.next()).toMatchObject({ event: 'access', data: { reason: 'role', by: t.admin.id } });
    });

    it("when a member is deleted, then each of their streams is told (deleted) and closed, and a new one is refused", async () => {
      const t = await live();
      const { cookie } = await t.ws.signIn(t.colleague.email);
      const [byToken, byCookie, other] = [await t.byToken(t.colleague), await t.byCookie(cookie), await t.byToken(t.contributor)];
      expect((await t.ws.as(t.admin).delete(`/api/members/${t.colleague.id}`)).status).toBe(200);
      for (const stream of [byToken, byCookie]) {
        expect(await stream.next()).toMatchObject({ event: 'access', data: { reason: 'deleted' } });
        await stream.ended;
      }
      expect((await t.byToken(t.colleague)).status).toBe(401);
      const sentinel = await createPost(t, t.manager, t.brand.id, 'Still here');
      expect((await nextOf(other)).data).toMatchObject({ id: sentinel.id });
    });

    it("when a member changes their password, then their other cookie sessions' streams and their token streams are told (password) and closed; the session that changed it keeps its stream", async () => {
      const t = await live();
      const [here, elsewhere] = [await t.ws.signIn(t.contributor.email), await t.ws.signIn(t.contributor.email)];
      const [keeps, ends, token] = [await t.byCookie(here.cookie), await t.byCookie(elsewhere.cookie), await t.byToken(t.contributor)];
      const res = await t.ws.withCookie(here.cookie).post('/api/auth/password').send({ currentPassword: PASSWORD, newPassword: 'Another-horse-10' });
      expect(res.status).toBe(200);
      for (const stream of [ends, token]) {
        expect(await stream.next()).toMatchObject({ event: 'access', data: { reason: 'password' } });
        await stream.ended;
      }
      const sentinel = await createPost(t, t.manager, t.brand.id, 'After');
      expect((await nextOf(keeps)).data).toMatchObject({ id: sentinel.id });
    });

    it('when a member signs out, then the streams of that session are told (password) and closed', async () => {
      const t = await live();
      const { cookie } = await t.ws.signIn(t.contributor.email);
      const stream = await t.byCookie(cookie);
      expect((await t.ws.withCookie(cookie).post('/api/auth/logout').send({})).status).toBe(200);
      expect(await stream.next()).toMatchObject({ event: 'access', data: { reason: 'password' } });
      await stream.ended;
    });
  });

  describe('resuming', () => {
    it('when a stream comes back with Last-Event-ID, then it is told what it missed, in order and as its member may see it, then what comes next', async () => {
      const t = await live();
      const first = await t.byToken(t.contributor);
      await createPost(t, t.manager, t.brand.id, 'Seen');
      const seen = await first.next();
      first.close();
      const missed = [await createPost(t, t.manager, t.brand.id, 'Missed 1'), await createPost(t, t.admin, t.other.id, 'Not theirs'), await createPost(t, t.manager, t.brand.id, 'Missed 2')];
      const again = await t.byToken(t.contributor, '', { 'Last-Event-ID': seen.id! });
      expect((await again.next()).data).toMatchObject({ id: missed[0].id, action: 'created' });
      expect((await again.next()).data).toMatchObject({ id: missed[2].id, action: 'created' });
      const after = await createPost(t, t.manager, t.brand.id, 'Live');
      expect((await again.next()).data).toMatchObject({ id: after.id });
    });

    it('when a stream that saw nothing yet comes back with the position it was given, then it misses nothing; `lastEventId` in the query does the same', async () => {
      const t = await live();
      const first = await t.byToken(t.contributor);
      const position = (await first.nextBlock((b) => b.id !== undefined)).id!;
      first.close();
      const post = await createPost(t, t.manager, t.brand.id, 'While away');
      const again = await t.byToken(t.contributor, `?lastEventId=${encodeURIComponent(position)}`);
      expect((await again.next()).data).toMatchObject({ id: post.id, action: 'created' });
    });

    it('when the id is unknown, or events after it are no longer kept (older than 5 minutes), then the stream says reset and goes on live', async () => {
      const t = await live();
      const unknown = await t.byToken(t.contributor, '', { 'Last-Event-ID': 'ffffffff.1-0' });
      expect(await unknown.next()).toMatchObject({ event: 'reset', data: {} });

      const first = await t.byToken(t.contributor);
      await createPost(t, t.manager, t.brand.id, 'Old');
      const old = await first.next();
      await createPost(t, t.manager, t.brand.id, 'Older than kept');
      first.close();
      t.ws.clock.advance(6 * 60 * 1000);
      await createPost(t, t.manager, t.brand.id, 'New');
      const late = await t.byToken(t.contributor, '', { 'Last-Event-ID': old.id! });
      const reset = await late.next();
      expect(reset).toMatchObject({ event: 'reset', data: {} });
      const now = await createPost(t, t.manager, t.brand.id, 'Live');
      expect((await late.next()).data).toMatchObject({ id: now.id });
    });

    it('when a stream comes back after its member lost a brand, then the missed access change is told and the brand’s posts are not', async () => {
      const t = await live();
      const member = await t.ws.user('contributor', { brandIds: [t.brand.id, t.other.id] });
      const first = await t.byToken(member);
      const position = (await first.nextBlock((b) => b.id !== undefined)).id!;
      first.close();
      await t.ws.as(t.admin).patch(`/api/members/${member.id}`).send({ brandIds: [t.other.id] });
      await createPost(t, t.admin, t.brand.id, 'Gone for them');
      const kept = await createPost(t, t.admin, t.other.id, 'Theirs');
      const again = await t.byToken(member, '', { 'Last-Event-ID': position });
      expect((await again.next()).data).toEqual({ reason: 'brands', by: t.admin.id });
      expect((await nextOf(again)).data).toMatchObject({ id: kept.id });
    });
  });

  it('when the request has no session at all, then nothing is held open', async () => {
    const t = await live();
    expect((await request(t.ws.app).get('/api/events')).status).toBe(401);
  });
});
