import { expect, it } from 'vitest';
import { describeEngines, rowCount } from '../../support/records';
import { at, repositories } from './fixtures';

describeEngines('SqlAssetRepository', (kind) => {
  it('when an upload names a post, then its assets are appended to the post in order', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [first] = await r.assets.createMany([r.newAsset(brand.id)]);
    const post = await r.post(brand.id, { attachments: [first.id] });
    const added = await r.assets.createMany([r.newAsset(brand.id, { postId: post.id }), r.newAsset(brand.id, { postId: post.id })]);
    expect((await r.posts.get(post.id))?.attachments).toEqual([first.id, ...added.map((a) => a.id)]);
  });

  it('when two uploads to one post arrive at once, then every asset gets a place of its own', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const post = await r.post(brand.id);
    const uploads = [0, 1, 2].map(() => r.assets.createMany([r.newAsset(brand.id, { postId: post.id }), r.newAsset(brand.id, { postId: post.id })]));
    await Promise.all(uploads);
    const places = await r.records.db.selectFrom('post_attachments').select('position').where('post_id', '=', post.id).execute();
    expect(new Set(places.map((p) => p.position)).size).toBe(6);
  });

  it('when one file of an upload reuses a stored key, then the write fails and no asset of that upload is kept', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const post = await r.post(brand.id);
    const [kept] = await r.assets.createMany([r.newAsset(brand.id)]);
    await expect(r.assets.createMany([r.newAsset(brand.id, { postId: post.id }), r.newAsset(brand.id, { fileKey: kept.fileKey })])).rejects.toThrow();
    expect(await rowCount(r.records, 'assets')).toBe(1);
    expect((await r.posts.get(post.id))?.attachments).toEqual([]);
  });

  it('when the same key is stored by two uploads at once, then only one keeps it', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const asset = r.newAsset(brand.id);
    const results = await Promise.allSettled([r.assets.createMany([asset]), r.assets.createMany([{ ...asset }])]);
    expect(results.map((x) => x.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(r.records.engine.isUniqueViolation((results.find((x) => x.status === 'rejected') as PromiseRejectedResult).reason)).toBe(true);
  });

  it('when assets are read, then sizes past 4 GB, keys and moments come back as written', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [big] = await r.assets.createMany([r.newAsset(brand.id, { size: 5 * 1024 ** 3, thumbnailKey: 'abc.thumb.webp', createdAt: '2026-03-29T01:00:00.000Z' })]);
    expect(await r.assets.get(big.id)).toEqual({ ...big, size: 5 * 1024 ** 3, createdAt: '2026-03-29T01:00:00.000Z' });
    expect((await r.assets.byFileKey(big.fileKey))?.id).toBe(big.id);
    expect((await r.assets.byFileKey('abc.thumb.webp'))?.id).toBe(big.id);
    expect(await r.assets.byFileKey('nothing')).toBeUndefined();
    expect(await r.assets.thumbnailKeys([big.id, 999])).toEqual(new Map([[big.id, 'abc.thumb.webp']]));
    expect(await r.assets.storedKeys([big.fileKey, 'abc.thumb.webp', 'gone.png'])).toEqual(new Set([big.fileKey, 'abc.thumb.webp']));
    expect(await r.assets.storedKeys([])).toEqual(new Set());
  });

  it('when a negative size is written, then the database refuses it', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    await expect(r.assets.createMany([r.newAsset(brand.id, { size: -1 })])).rejects.toThrow();
  });

  it('when assets are listed, then newest first, id breaking ties, paged, within the brands, campaign and post asked for', async () => {
    const r = await repositories(kind);
    const [brand, other] = [await r.brand(), await r.brand()];
    const c = await r.campaign(brand.id);
    const [a1] = await r.assets.createMany([r.newAsset(brand.id, { createdAt: at(-1) })]);
    const [a2, a3] = await r.assets.createMany([r.newAsset(brand.id, { campaignId: c.id }), r.newAsset(brand.id)]);
    const [a4] = await r.assets.createMany([r.newAsset(other.id, { createdAt: at(3) })]);
    const ids = async (filter: Partial<Parameters<typeof r.assets.list>[0]>) =>
      (await r.assets.list({ brandIds: undefined, limit: 50, offset: 0, ...filter })).map((a) => a.id);
    expect(await ids({})).toEqual([a4.id, a3.id, a2.id, a1.id]);
    expect(await ids({ brandIds: [brand.id], limit: 1, offset: 1 })).toEqual([a2.id]);
    expect(await ids({ brandIds: [] })).toEqual([]);
    expect(await ids({ campaignId: c.id })).toEqual([a2.id]);
    expect((await r.assets.idsInBrand([a1.id, a4.id, 999], brand.id)).sort()).toEqual([a1.id]);
  });

  it('when an attached asset is deleted, then it leaves the post first and the rest keep their order', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [a, b, c] = await r.assets.createMany([r.newAsset(brand.id), r.newAsset(brand.id), r.newAsset(brand.id)]);
    const post = await r.post(brand.id, { attachments: [c.id, a.id, b.id] });
    expect(await r.assets.delete(a.id)).toBe(true);
    expect(await r.assets.delete(a.id)).toBe(false);
    expect((await r.posts.get(post.id))?.attachments).toEqual([c.id, b.id]);
  });
  it('when assets are listed by part of their name, their types and their uploader, then only those match, wildcards and case included', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [one, two] = [await r.member({ brandIds: [brand.id] }), await r.member({ brandIds: [brand.id] })];
    const [poster, underscored, percent, pdf] = await r.assets.createMany([
      r.newAsset(brand.id, { name: 'Summer POSTER.png', uploadedBy: one.id }),
      r.newAsset(brand.id, { name: 'poster_v2.png', uploadedBy: two.id }),
      r.newAsset(brand.id, { name: '50% off.png', uploadedBy: one.id }),
      r.newAsset(brand.id, { name: 'Poster notes.pdf', mimeType: 'application/pdf', uploadedBy: one.id }),
    ]);
    const ids = async (filter: Partial<Parameters<typeof r.assets.list>[0]>) =>
      (await r.assets.list({ brandIds: [brand.id], limit: 50, offset: 0, ...filter })).map((a) => a.id).sort((a, b) => a - b);
    expect(await ids({ nameContains: 'poster' })).toEqual([poster.id, underscored.id, pdf.id]);
    expect(await ids({ nameContains: '_' })).toEqual([underscored.id]);
    expect(await ids({ nameContains: '%' })).toEqual([percent.id]);
    expect(await ids({ nameContains: 'p%r' })).toEqual([]);
    expect(await ids({ mimeTypes: ['application/pdf'] })).toEqual([pdf.id]);
    expect(await ids({ mimeTypes: [] })).toEqual([]);
    expect(await ids({ uploadedBy: one.id, nameContains: 'poster' })).toEqual([poster.id, pdf.id]);
  });

  it('when several assets are deleted at once, then they leave their posts and go together, and the count says how many there were', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [a, b, c] = await r.assets.createMany([r.newAsset(brand.id), r.newAsset(brand.id), r.newAsset(brand.id)]);
    const post = await r.post(brand.id, { attachments: [c.id, a.id, b.id] });
    expect((await r.assets.getMany([a.id, b.id, 999])).map((x) => x.id).sort((x, y) => x - y)).toEqual([a.id, b.id]);
    expect(await r.assets.deleteMany([a.id, b.id, 999])).toBe(2);
    expect(await r.assets.deleteMany([])).toBe(0);
    expect((await r.posts.get(post.id))?.attachments).toEqual([c.id]);
    expect(await rowCount(r.records, 'assets')).toBe(1);
  });
});
