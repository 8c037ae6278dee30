import { expect, it } from 'vitest';
import { describeEngines, rowCount } from '../../support/records';
import { at, NOW, repositories } from './fixtures';

describeEngines('SqlPostRepository', (kind) => {
  it('when a post is made with attachments, then they keep their order, once each, and the campaign travels with it', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const c = await r.campaign(brand.id, { name: 'Spring' });
    const [a, b] = await r.assets.createMany([r.newAsset(brand.id), r.newAsset(brand.id)]);
    const post = await r.post(brand.id, { campaignId: c.id, attachments: [b.id, a.id, b.id] });
    expect(post).toMatchObject({ campaignId: c.id, campaign: { id: c.id, name: 'Spring' }, attachments: [b.id, a.id], createdAt: NOW, updatedAt: NOW });
    const updated = await r.posts.update(post.id, { attachments: [a.id], scheduledAt: '2026-03-29T02:30:00.000Z', updatedAt: at(1) }, []);
    expect(updated).toMatchObject({ attachments: [a.id], scheduledAt: '2026-03-29T02:30:00.000Z', updatedAt: at(1) });
    expect(await r.posts.get(post.id)).toEqual(updated);
  });

  it('when an attachment names no asset, then the write fails and nothing of it is kept (one transaction)', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    await expect(r.post(brand.id, { attachments: [999_999] })).rejects.toThrow();
    expect(await rowCount(r.records, 'posts')).toBe(0);
    const [asset] = await r.assets.createMany([r.newAsset(brand.id)]);
    const post = await r.post(brand.id, { attachments: [asset.id], title: 'Before' });
    await expect(r.posts.update(post.id, { title: 'After', attachments: [asset.id, 999_999], updatedAt: at(1) }, [])).rejects.toThrow();
    expect(await r.posts.get(post.id)).toMatchObject({ title: 'Before', attachments: [asset.id] });
  });

  it('when posts are listed, then newest first, id breaking ties, a page at a time, filtered as asked', async () => {
    const r = await repositories(kind);
    const [brand, other] = [await r.brand(), await r.brand()];
    const c = await r.campaign(brand.id);
    const p1 = await r.post(brand.id, { createdAt: at(-1) });
    const p2 = await r.post(brand.id, { createdAt: at(0), campaignId: c.id });
    const p3 = await r.post(brand.id, { createdAt: at(0) });
    const p4 = await r.post(other.id, { createdAt: at(5) });
    const ids = async (filter: Partial<Parameters<typeof r.posts.list>[0]>) =>
      (await r.posts.list({ brandIds: undefined, limit: 50, offset: 0, ...filter })).map((p) => p.id);
    expect(await ids({})).toEqual([p4.id, p3.id, p2.id, p1.id]);
    expect(await ids({ limit: 2, offset: 1 })).toEqual([p3.id, p2.id]);
    expect(await ids({ brandIds: [brand.id] })).toEqual([p3.id, p2.id, p1.id]);
    expect(await ids({ brandIds: [] })).toEqual([]);
    expect(await ids({ campaignId: c.id })).toEqual([p2.id]);
    await r.posts.update(p1.id, { status: 'draft', updatedAt: at(1) }, []);
    expect(await ids({ status: 'draft' })).toEqual([p1.id]);
  });

  it('when a post is deleted, then its attachments go, its assets stay without it, and its tasks keep going', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const post = await r.post(brand.id);
    const [asset] = await r.assets.createMany([r.newAsset(brand.id, { postId: post.id })]);
    const task = await r.tasks.create({ brandId: brand.id, title: 'T', description: null, status: 'todo', priority: 'low', dueDate: null, visibility: 'brand', assigneeId: null, projectId: null, campaignId: null, postId: post.id, ownerId: null, createdAt: NOW });
    expect(await r.posts.delete(post.id)).toBe(true);
    expect(await r.posts.delete(post.id)).toBe(false);
    expect(await rowCount(r.records, 'post_attachments')).toBe(0);
    expect((await r.assets.get(asset.id))?.postId).toBeNull();
    expect((await r.tasks.get(task.id))?.postId).toBeNull();
    expect(await r.posts.update(post.id, { title: 'x', updatedAt: NOW }, [])).toBeUndefined();
  });
});
