import { randomBytes } from 'node:crypto';
import type { EngineKind } from '../../../src/platform/db/engine';
import { LocalNotices } from '../../../src/platform/notices';
import type { Role } from '../../../src/workspace/domain';
import { SqlAssetRepository, type NewAsset } from '../../../src/workspace/assets/repository';
import { SqlBrandRepository } from '../../../src/workspace/brands/repository';
import { SqlBudgetRepository } from '../../../src/workspace/budget/repository';
import { SqlCampaignRepository } from '../../../src/workspace/campaigns/repository';
import { SqlCommentRepository } from '../../../src/workspace/comments/repository';
import { SqlNotificationRepository } from '../../../src/workspace/notifications/repository';
import { MemberCache } from '../../../src/workspace/members/cache';
import { SqlUserRepository } from '../../../src/workspace/members/repository';
import { SqlPostRepository } from '../../../src/workspace/posts/repository';
import { SqlProjectRepository } from '../../../src/workspace/projects/repository';
import { SqlTaskRepository } from '../../../src/workspace/tasks/repository';
import { testRecords } from '../../support/records';

export const NOW = '2026-11-25T10:00:00.000Z';

/** `minutes` after NOW, as the services write moments. */
export const at = (minutes: number) => new Date(Date.parse(NOW) + minutes * 60_000).toISOString();

/** Every workspace repository over one fresh database of `kind`. */
export async function repositories(kind: EngineKind) {
  const records = (await testRecords(kind)).workspace;
  const notices = new LocalNotices();
  const repos = {
    records,
    notices,
    users: new SqlUserRepository(records, new MemberCache(notices), notices),
    brands: new SqlBrandRepository(records, notices),
    campaigns: new SqlCampaignRepository(records),
    posts: new SqlPostRepository(records),
    assets: new SqlAssetRepository(records),
    projects: new SqlProjectRepository(records),
    tasks: new SqlTaskRepository(records),
    budget: new SqlBudgetRepository(records),
    comments: new SqlCommentRepository(records),
    notifications: new SqlNotificationRepository(records),
  };
  let serial = 0;
  const helpers = {
    brand: (name = `Brand ${++serial}`) => repos.brands.create(name, NOW),
    async member(opts: { role?: Role; brandIds?: number[]; email?: string; name?: string } = {}) {
      const created = await repos.users.create({
        name: opts.name ?? `Member ${++serial}`,
        email: opts.email ?? `member${++serial}@example.test`,
        passwordHash: 'hash',
        role: opts.role ?? 'contributor',
        mustChangePassword: false,
        brandIds: opts.brandIds ?? [],
        createdAt: NOW,
      });
      if (created === 'email-taken') throw new Error('test email reused');
      return created;
    },
    campaign: (brandId: number, opts: { name?: string; createdAt?: string; ownerId?: number | null } = {}) =>
      repos.campaigns.create({
        brandId,
        name: opts.name ?? `Campaign ${++serial}`,
        description: null,
        startDate: null,
        endDate: null,
        status: 'planned',
        ownerId: opts.ownerId ?? null,
        createdAt: opts.createdAt ?? NOW,
      }),
    post: (brandId: number, opts: { campaignId?: number | null; attachments?: number[]; createdAt?: string; title?: string; ownerId?: number | null } = {}) =>
      repos.posts.create({
        brandId,
        campaignId: opts.campaignId ?? null,
        title: opts.title ?? `Post ${++serial}`,
        caption: null,
        platform: null,
        status: 'idea',
        scheduledAt: null,
        publicationUrl: null,
        ownerId: opts.ownerId ?? null,
        attachments: opts.attachments ?? [],
        createdAt: opts.createdAt ?? NOW,
      }),
    newAsset: (brandId: number, more: Partial<NewAsset> = {}): NewAsset => ({
      brandId,
      campaignId: null,
      postId: null,
      uploadedBy: null,
      name: `file ${++serial}.png`,
      mimeType: 'image/png',
      size: 100,
      fileKey: `${randomBytes(16).toString('hex')}.png`,
      thumbnailKey: null,
      createdAt: NOW,
      ...more,
    }),
  };
  return { ...repos, ...helpers };
}
