import { expect, it } from 'vitest';
import { describeEngines, rowCount } from '../../support/records';
import { at, NOW, repositories } from './fixtures';

const task = (brandId: number, more: { ownerId?: number | null; assigneeId?: number | null; visibility?: 'private' | 'brand' } = {}) => ({
  brandId,
  title: 'Brief',
  description: null,
  status: 'todo' as const,
  priority: 'low' as const,
  dueDate: null,
  visibility: more.visibility ?? ('brand' as const),
  assigneeId: more.assigneeId ?? null,
  projectId: null,
  campaignId: null,
  postId: null,
  ownerId: more.ownerId ?? null,
  createdAt: NOW,
});

describeEngines('SqlPostRepository: history and the reason of a move', (kind) => {
  it('when a post is made and moved with a reason, then its history and its thread hold both, in order, with the actor named', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const author = await r.member({ brandIds: [brand.id], name: 'Author' });
    const manager = await r.member({ role: 'manager', brandIds: [brand.id], name: 'Manager' });
    const post = await r.post(brand.id, { ownerId: author.id });
    await r.posts.update(post.id, { status: 'draft', updatedAt: at(1) }, [{ kind: 'sent_back', actorId: manager.id, from: 'review', to: 'draft' }], { authorId: manager.id, body: 'Shorter, please' });
    expect((await r.posts.history(post.id)).map((e) => [e.kind, e.actorName, e.from, e.to, e.createdAt])).toEqual([
      ['created', 'Author', null, 'idea', NOW],
      ['sent_back', 'Manager', 'review', 'draft', at(1)],
    ]);
    expect(await r.comments.list({ postId: post.id })).toMatchObject([{ postId: post.id, taskId: null, authorId: manager.id, authorName: 'Manager', body: 'Shorter, please', createdAt: at(1) }]);
  });

  it('when an edit names the fields it changed, then its history gives them back in the vocabulary\'s order; other events have none', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const post = await r.post(brand.id);
    await r.posts.update(post.id, { status: 'review', updatedAt: at(1) }, [{ kind: 'reopened', actorId: null, from: 'approved', to: 'review', fields: ['scheduledAt', 'caption'] }]);
    expect((await r.posts.history(post.id)).map((e) => [e.kind, e.fields])).toEqual([
      ['created', []],
      ['reopened', ['caption', 'scheduledAt']],
    ]);
  });

  it('when posts share an asset, then attachedTo finds each of them once, and none for an asset nobody uses', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [shared, alone] = await r.assets.createMany([r.newAsset(brand.id), r.newAsset(brand.id)]);
    const first = await r.post(brand.id, { attachments: [shared.id] });
    const second = await r.post(brand.id, { attachments: [alone.id, shared.id] });
    await r.post(brand.id);
    expect((await r.posts.attachedTo([shared.id, alone.id])).map((p) => [p.id, p.attachments])).toEqual([
      [first.id, [shared.id]],
      [second.id, [alone.id, shared.id]],
    ]);
    const [unused] = await r.assets.createMany([r.newAsset(brand.id)]);
    expect(await r.posts.attachedTo([unused.id])).toEqual([]);
    expect(await r.posts.attachedTo([])).toEqual([]);
  });

  it('when the change fails, then neither the history nor the thread keeps anything of it (one transaction)', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const post = await r.post(brand.id);
    await expect(
      r.posts.update(post.id, { attachments: [999_999], updatedAt: at(1) }, [{ kind: 'edited', actorId: null, from: null, to: null }], { authorId: 999_999, body: 'x' }),
    ).rejects.toThrow();
    expect((await r.posts.history(post.id)).map((e) => e.kind)).toEqual(['created']);
    expect(await rowCount(r.records, 'comments')).toBe(0);
  });

  it('when a post is deleted, then its history, comments and notifications go with it; when a member goes, their words stay unsigned', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const member = await r.member({ brandIds: [brand.id] });
    const reader = await r.member({ brandIds: [brand.id] });
    const post = await r.post(brand.id, { ownerId: member.id });
    const kept = await r.post(brand.id, { ownerId: member.id });
    await r.comments.add({ postId: post.id }, { authorId: member.id, body: 'Gone', createdAt: NOW });
    const stays = await r.comments.add({ postId: kept.id }, { authorId: member.id, body: 'Stays', createdAt: NOW });
    await r.notifications.add([{ userId: reader.id, kind: 'commented', postId: post.id, taskId: null, actorId: member.id, count: 1, createdAt: NOW }]);
    await r.posts.delete(post.id);
    expect(await rowCount(r.records, 'post_events')).toBe(1);
    expect(await rowCount(r.records, 'notifications')).toBe(0);
    expect(await r.comments.list({ postId: post.id })).toEqual([]);
    await r.users.delete(member.id);
    expect(await r.comments.get(stays.id)).toMatchObject({ authorId: null, authorName: null, body: 'Stays' });
    expect((await r.posts.history(kept.id))[0]).toMatchObject({ actorId: null, actorName: null });
  });
});

describeEngines('SqlCommentRepository', (kind) => {
  it('when comments are written on a post and a task, then each thread lists its own, oldest first', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const member = await r.member({ brandIds: [brand.id] });
    const post = await r.post(brand.id);
    const t = await r.tasks.create(task(brand.id));
    const first = await r.comments.add({ postId: post.id }, { authorId: member.id, body: 'مرحبا\nline two', createdAt: NOW });
    const second = await r.comments.add({ postId: post.id }, { authorId: member.id, body: 'Second', createdAt: NOW });
    const onTask = await r.comments.add({ taskId: t.id }, { authorId: member.id, body: 'On the task', createdAt: NOW });
    expect((await r.comments.list({ postId: post.id })).map((c) => c.id)).toEqual([first.id, second.id]);
    expect(await r.comments.list({ taskId: t.id })).toEqual([onTask]);
    expect(first.body).toBe('مرحبا\nline two');
    expect(await r.comments.delete(first.id)).toBe(true);
    expect(await r.comments.delete(first.id)).toBe(false);
    await r.tasks.delete(t.id);
    expect(await r.comments.get(onTask.id)).toBeUndefined();
  });
});

describeEngines('SqlNotificationRepository', (kind) => {
  it("when notifications are listed and marked read, then each member sees and marks only their own, newest first, with what decides who may see them", async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [me, other] = [await r.member({ brandIds: [brand.id] }), await r.member({ brandIds: [brand.id], name: 'Actor' })];
    const post = await r.post(brand.id, { title: 'The post' });
    const t = await r.tasks.create(task(brand.id, { ownerId: other.id, assigneeId: me.id, visibility: 'private' }));
    await r.notifications.add([
      { userId: me.id, kind: 'review_requested', postId: post.id, taskId: null, actorId: other.id, count: 20, createdAt: NOW },
      { userId: me.id, kind: 'assigned', postId: null, taskId: t.id, actorId: other.id, count: 1, createdAt: at(1) },
      { userId: other.id, kind: 'commented', postId: post.id, taskId: null, actorId: me.id, count: 1, createdAt: at(2) },
    ]);
    const mine = await r.notifications.list(me.id, { limit: 10, unreadOnly: false });
    expect(mine.map((n) => [n.kind, n.title, n.actorName, n.count, n.readAt])).toEqual([
      ['assigned', 'Brief', 'Actor', 1, null],
      ['review_requested', 'The post', 'Actor', 20, null],
    ]);
    expect(mine[0].subject).toEqual({ brandId: brand.id, task: { visibility: 'private', ownerId: other.id, assigneeId: me.id } });
    expect(mine[1].subject).toEqual({ brandId: brand.id });
    expect(await r.notifications.markRead(me.id, [mine[1].id, (await r.notifications.list(other.id, { limit: 1, unreadOnly: false }))[0].id], at(3))).toBe(1);
    expect((await r.notifications.list(me.id, { limit: 10, unreadOnly: true })).map((n) => n.kind)).toEqual(['assigned']);
    expect(await r.notifications.markRead(me.id, 'all', at(4))).toBe(1);
    expect(await r.notifications.list(me.id, { limit: 10, unreadOnly: true })).toEqual([]);
    expect(await r.notifications.list(other.id, { limit: 10, unreadOnly: true })).toHaveLength(1);
  });
});
