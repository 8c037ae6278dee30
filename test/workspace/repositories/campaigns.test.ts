import { expect, it } from 'vitest';
import { describeEngines, rowCount } from '../../support/records';
import { at, NOW, repositories } from './fixtures';

describeEngines('SqlCampaignRepository', (kind) => {
  it('when campaigns are listed, then newest first (id breaking ties), within the brands and status asked for', async () => {
    const r = await repositories(kind);
    const [brand, other] = [await r.brand(), await r.brand()];
    const old = await r.campaign(brand.id, { createdAt: at(-60) });
    const tieA = await r.campaign(brand.id, { createdAt: at(0) });
    const tieB = await r.campaign(brand.id, { createdAt: at(0) });
    const theirs = await r.campaign(other.id, { createdAt: at(10) });
    expect((await r.campaigns.list({ brandIds: undefined })).map((c) => c.id)).toEqual([theirs.id, tieB.id, tieA.id, old.id]);
    expect((await r.campaigns.list({ brandIds: [brand.id] })).map((c) => c.id)).toEqual([tieB.id, tieA.id, old.id]);
    expect(await r.campaigns.list({ brandIds: [] })).toEqual([]);
    await r.campaigns.update(old.id, { status: 'active', updatedAt: at(1) });
    expect((await r.campaigns.list({ brandIds: undefined, status: 'active' })).map((c) => c.id)).toEqual([old.id]);
  });

  it('when a campaign is written, then days stay days and moments the same ISO instants', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const created = await r.campaigns.create({ brandId: brand.id, name: 'Spring', description: 'd', startDate: '2026-02-28', endDate: '2026-03-29', status: 'planned', ownerId: null, createdAt: '2026-03-29T00:59:59.999Z' });
    expect(created).toMatchObject({ startDate: '2026-02-28', endDate: '2026-03-29', createdAt: '2026-03-29T00:59:59.999Z', updatedAt: '2026-03-29T00:59:59.999Z' });
    const updated = await r.campaigns.update(created.id, { name: 'Summer', endDate: null, updatedAt: '2026-10-25T01:00:00.000Z' });
    expect(updated).toMatchObject({ name: 'Summer', description: 'd', endDate: null, updatedAt: '2026-10-25T01:00:00.000Z' });
    expect(await r.campaigns.get(created.id)).toEqual(updated);
    expect(await r.campaigns.update(999_999, { name: 'x', updatedAt: NOW })).toBeUndefined();
  });

  it('when a campaign is made for a brand that does not exist, then the write fails', async () => {
    const r = await repositories(kind);
    await expect(r.campaign(999_999)).rejects.toThrow();
  });

  it('when a campaign is deleted with its content, then its posts and tracks go, counted and the posts named, and its budget with it; others stay', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const [c, other] = [await r.campaign(brand.id), await r.campaign(brand.id)];
    const gone: number[] = [];
    for (let i = 0; i < 3; i += 1) gone.push((await r.post(brand.id, { campaignId: c.id })).id);
    const kept = await r.post(brand.id, { campaignId: other.id });
    await r.campaigns.createTrack({ campaignId: c.id, name: 'T', channel: null, startDate: null, endDate: null, goal: null, createdAt: NOW });
    await r.budget.create({ brandId: brand.id, campaignId: c.id, kind: 'planned', category: 'Ads', description: null, amount: 100, currency: 'SAR', date: '2026-01-01', createdBy: null, createdAt: NOW });
    const deleted = await r.campaigns.deleteWithContent(c.id);
    expect(deleted).toEqual({ posts: 3, tracks: 1, postIds: expect.any(Array) });
    expect([...deleted!.postIds].sort((x, y) => x - y)).toEqual(gone);
    expect(await r.campaigns.get(c.id)).toBeUndefined();
    expect(await r.posts.get(kept.id)).toBeDefined();
    expect(await rowCount(r.records, 'tracks')).toBe(0);
    expect(await rowCount(r.records, 'budget_entries')).toBe(0);
    expect(await r.campaigns.deleteWithContent(c.id)).toBeUndefined();
  });

  it('when tracks are listed, then by start day with undated ones last, then by id, each with its campaign\'s brand', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const c = await r.campaign(brand.id);
    const track = (name: string, startDate: string | null) =>
      r.campaigns.createTrack({ campaignId: c.id, name, channel: null, startDate, endDate: null, goal: null, createdAt: NOW });
    const undated = await track('Undated', null);
    const late = await track('Late', '2026-05-01');
    const early = await track('Early', '2026-01-10');
    expect((await r.campaigns.listTracks(c.id)).map((t) => t.name)).toEqual(['Early', 'Late', 'Undated']);
    expect(early).toMatchObject({ brandId: brand.id, campaignId: c.id, startDate: '2026-01-10' });
    expect(await r.campaigns.updateTrack(late.id, { goal: 'Reach', updatedAt: at(5) })).toMatchObject({ goal: 'Reach', updatedAt: at(5) });
    expect(await r.campaigns.deleteTrack(undated.id)).toBe(true);
    expect(await r.campaigns.deleteTrack(undated.id)).toBe(false);
    await expect(r.campaigns.createTrack({ campaignId: 999_999, name: 'X', channel: null, startDate: null, endDate: null, goal: null, createdAt: NOW })).rejects.toThrow();
  });

  it('when the same campaign is deleted twice at once, then its content is counted once', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const c = await r.campaign(brand.id);
    await r.post(brand.id, { campaignId: c.id });
    const results = await Promise.all([r.campaigns.deleteWithContent(c.id), r.campaigns.deleteWithContent(c.id)]);
    expect(results.filter((x) => x !== undefined)).toHaveLength(1);
    expect(await rowCount(r.records, 'posts')).toBe(0);
  });
});
