import { expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock';
import type { EngineKind } from '../../src/platform/db/engine';
import { LocalNotices } from '../../src/platform/notices';
import { SqlAssetRepository, type NewAsset } from '../../src/workspace/assets/repository';
import { SqlSessionStore } from '../../src/workspace/auth/repository';
import { SqlBrandRepository } from '../../src/workspace/brands/repository';
import { SqlBudgetRepository } from '../../src/workspace/budget/repository';
import { SqlCampaignRepository } from '../../src/workspace/campaigns/repository';
import { MemberCache } from '../../src/workspace/members/cache';
import { SqlUserRepository } from '../../src/workspace/members/repository';
import { SqlPostRepository } from '../../src/workspace/posts/repository';
import { SqlProjectRepository } from '../../src/workspace/projects/repository';
import { SqlTaskRepository, type NewTask } from '../../src/workspace/tasks/repository';
import { describeEngines, rowCount, testRecords } from '../support/records';

/** A moment that is a different calendar day in UTC and in most time zones east of it. */
const LATE = '2026-03-28T23:30:00.000Z';

async function repositories(kind: EngineKind) {
  const records = (await testRecords(kind)).workspace;
  const notices = new LocalNotices();
  const repos = {
    records,
    brands: new SqlBrandRepository(records, notices),
    users: new SqlUserRepository(records, new MemberCache(notices), notices),
    campaigns: new SqlCampaignRepository(records),
    posts: new SqlPostRepository(records),
    assets: new SqlAssetRepository(records),
    tasks: new SqlTaskRepository(records),
    projects: new SqlProjectRepository(records),
    budget: new SqlBudgetRepository(records),
  };
  const brand = await repos.brands.create('Brand', LATE);
  const campaign = await repos.campaigns.create({ brandId: brand.id, name: 'Spring', description: null, startDate: '2026-03-01', endDate: null, status: 'active', ownerId: null, createdAt: LATE });
  return { ...repos, brand, campaign };
}

const post = (brandId: number, campaignId: number | null, title: string, createdAt = LATE) => ({
  brandId,
  campaignId,
  title,
  caption: null,
  platform: null,
  status: 'idea' as const,
  scheduledAt: null,
  publicationUrl: null,
  ownerId: null,
  attachments: [],
  createdAt,
});

const asset = (brandId: number, key: string, postId: number | null = null): NewAsset => ({
  brandId,
  campaignId: null,
  postId,
  uploadedBy: null,
  name: `${key}.pdf`,
  mimeType: 'application/pdf',
  size: 10,
  fileKey: `${key}.pdf`,
  thumbnailKey: null,
  createdAt: LATE,
});

const task = (brandId: number, title: string, dueDate: string | null): NewTask => ({
  brandId,
  title,
  description: null,
  status: 'todo',
  priority: 'medium',
  dueDate,
  visibility: 'brand',
  assigneeId: null,
  projectId: null,
  campaignId: null,
  postId: null,
  ownerId: null,
  createdAt: LATE,
});

describeEngines('workspace repositories, one contract', (kind) => {
  it('when moments and days are stored, then they read back as the same ISO text whatever the time zone', async () => {
    const r = await repositories(kind);
    expect(r.brand.createdAt).toBe(LATE);
    expect(r.campaign).toMatchObject({ startDate: '2026-03-01', createdAt: LATE, updatedAt: LATE });
    const made = await r.posts.create({ ...post(r.brand.id, r.campaign.id, 'Late'), scheduledAt: '2026-03-29T00:15:00.000Z' });
    expect(await r.posts.get(made.id)).toMatchObject({ createdAt: LATE, scheduledAt: '2026-03-29T00:15:00.000Z', campaign: { id: r.campaign.id, name: 'Spring' } });
  });

  it('when brands are listed, then by name; a brand that still holds content is kept as in use; an empty one goes with its memberships', async () => {
    const r = await repositories(kind);
    const zed = await r.brands.create('Zed', LATE);
    const alpha = await r.brands.create('Alpha', LATE);
    expect((await r.brands.list(undefined)).map((b) => b.name)).toEqual(['Alpha', 'Brand', 'Zed']);
    expect(await r.brands.list([])).toEqual([]);
    expect(await r.brands.delete(r.brand.id)).toBe('in-use');
    const member = await r.users.create({ name: 'M', email: 'm@x.test', passwordHash: 'h', role: 'manager', mustChangePassword: false, brandIds: [zed.id, alpha.id], createdAt: LATE });
    expect(await r.brands.delete(zed.id)).toBe('deleted');
    expect((await r.users.get((member as { id: number }).id))?.brandIds).toEqual([alpha.id]);
    expect(await r.brands.delete(zed.id)).toBeUndefined();
  });

  it('when a write inside a transaction fails, then the whole transaction is rolled back', async () => {
    const r = await repositories(kind);
    const before = await rowCount(r.records, 'users');
    // The membership of a brand that does not exist fails after the user row went in.
    await expect(r.users.create({ name: 'N', email: 'n@x.test', passwordHash: 'h', role: 'manager', mustChangePassword: false, brandIds: [999_999], createdAt: LATE })).rejects.toThrow();
    expect(await rowCount(r.records, 'users')).toBe(before);
  });

  it('when a campaign is deleted with its content, then its posts and tracks go in one transaction and the counts are told', async () => {
    const r = await repositories(kind);
    const one = await r.posts.create(post(r.brand.id, r.campaign.id, 'One'));
    const two = await r.posts.create(post(r.brand.id, r.campaign.id, 'Two'));
    const loose = await r.posts.create(post(r.brand.id, null, 'Loose'));
    await r.campaigns.createTrack({ campaignId: r.campaign.id, name: 'T', channel: null, startDate: null, endDate: null, goal: null, createdAt: LATE });
    const deleted = await r.campaigns.deleteWithContent(r.campaign.id);
    expect(deleted).toMatchObject({ posts: 2, tracks: 1 });
    expect(new Set(deleted!.postIds)).toEqual(new Set([one.id, two.id]));
    expect((await r.posts.list({ brandIds: undefined, limit: 50, offset: 0 })).map((p) => p.id)).toEqual([loose.id]);
    expect(await r.campaigns.deleteWithContent(r.campaign.id)).toBeUndefined();
  });

  it('when posts are listed, then newest first with their attachments in order, and an uploaded asset is appended to its post', async () => {
    const r = await repositories(kind);
    const [a, b] = await r.assets.createMany([asset(r.brand.id, 'a'), asset(r.brand.id, 'b')]);
    const older = await r.posts.create({ ...post(r.brand.id, null, 'Older', '2026-01-01T00:00:00.000Z'), attachments: [b.id, a.id] });
    const newer = await r.posts.create(post(r.brand.id, null, 'Newer', '2026-02-01T00:00:00.000Z'));
    expect((await r.posts.list({ brandIds: [r.brand.id], limit: 50, offset: 0 })).map((p) => p.id)).toEqual([newer.id, older.id]);
    const [c] = await r.assets.createMany([asset(r.brand.id, 'c', older.id)]);
    expect((await r.posts.get(older.id))?.attachments).toEqual([b.id, a.id, c.id]);
    expect(await r.assets.storedKeys(['a.pdf', 'zzz.pdf'])).toEqual(new Set(['a.pdf']));
    expect(await r.assets.delete(a.id)).toBe(true);
    expect((await r.posts.get(older.id))?.attachments).toEqual([b.id, c.id]);
  });

  it('when tasks are listed, then those with a due date first, soonest first, and those without last', async () => {
    const r = await repositories(kind);
    await r.tasks.create(task(r.brand.id, 'None', null));
    await r.tasks.create(task(r.brand.id, 'Late', '2026-05-01'));
    await r.tasks.create(task(r.brand.id, 'Soon', '2026-04-01'));
    const listed = await r.tasks.list({ brandIds: [r.brand.id], viewerId: 0, includeOthersPrivate: true, scope: 'all', limit: 50, offset: 0 });
    expect(listed.map((t) => t.title)).toEqual(['Soon', 'Late', 'None']);
  });

  it('when two entries of one campaign in different currencies are written at once, then exactly one is taken', async () => {
    const r = await repositories(kind);
    const entry = (currency: string) =>
      r.budget.create({ brandId: r.brand.id, campaignId: r.campaign.id, kind: 'planned', category: 'Ads', description: null, amount: 1000, currency, date: '2026-03-01', createdBy: null, createdAt: LATE });
    const results = await Promise.all([entry('QAR'), entry('USD')]);
    expect(results.filter((x) => x === 'currency-mismatch')).toHaveLength(1);
    expect(await r.budget.summary(r.campaign.id)).toMatchObject({ planned: 1000, spent: 0, remaining: 1000 });
  });

  it('when projects are made and changed, then the change is kept and deletion answers whether there was one', async () => {
    const r = await repositories(kind);
    const made = await r.projects.create({ brandId: r.brand.id, name: 'P', description: null, status: 'planned', startDate: null, endDate: '2026-12-31', ownerId: null, createdAt: LATE });
    expect(await r.projects.update(made.id, { status: 'active', updatedAt: '2026-04-01T00:00:00.000Z' })).toMatchObject({ status: 'active', endDate: '2026-12-31', updatedAt: '2026-04-01T00:00:00.000Z' });
    expect(await r.projects.delete(made.id)).toBe(true);
    expect(await r.projects.delete(made.id)).toBe(false);
  });

  it('when cookie sessions are stored, then they read back until their end, and all of one user end together except the one kept', async () => {
    const r = await repositories(kind);
    const clock = new ManualClock();
    const store = new SqlSessionStore(r.records, clock, 60_000);
    const call = <T>(fn: (cb: (err: unknown, value?: T) => void) => void) =>
      new Promise<T | undefined>((resolve, reject) => fn((err, value) => (err ? reject(err instanceof Error ? err : new Error('the session store failed', { cause: err })) : resolve(value))));
    const member = async (email: string) =>
      (await r.users.create({ name: email, email, passwordHash: 'h', role: 'contributor', mustChangePassword: false, brandIds: [], createdAt: LATE })) as { id: number };
    const [first, second] = [await member('one@x.test'), await member('two@x.test')];
    const data = (userId: number) => ({ cookie: { originalMaxAge: 60_000 }, userId, userKey: 'k' }) as never;
    for (const sid of ['s1', 's2', 's3']) await call((cb) => store.set(sid, data(sid === 's3' ? second.id : first.id), cb));
    expect(await call((cb) => store.get('s1', cb))).toMatchObject({ userId: first.id });
    await store.endUserSessions(first.id, 's2');
    expect(await call((cb) => store.get('s1', cb))).toBeNull();
    expect(await call((cb) => store.get('s2', cb))).toMatchObject({ userId: first.id });
    clock.advance(60_001);
    expect(await call((cb) => store.get('s3', cb))).toBeNull();
    expect(await store.prune()).toBe(2);
  });
});
