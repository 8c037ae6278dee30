import type { Clock } from '../../platform/clock';
import { NotFound } from '../../platform/errors';
import { isManagerOrAbove, listedBrands, recordPermissions, requireRole, visibleOrNotFound, type Actor, type RecordPermissions } from '../access';
import type { BrandsService } from '../brands/service';
import type { CampaignStatus } from '../domain';
import type { Campaign, CampaignRepository, Track } from './repository';
import type { ChangeFeed } from '../events/changes';
import { assertDaysInOrder, isoTime, pick } from '../shared/values';

export interface NewCampaignInput {
  brandId: number;
  name: string;
  description?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  status?: CampaignStatus;
}

export type CampaignChange = Partial<Omit<NewCampaignInput, 'brandId'>>;

export interface TrackInput {
  name: string;
  channel?: string | null;
  startDate?: string | null;
  endDate?: string | null;
  goal?: string | null;
}

export type TrackChange = Partial<TrackInput>;

const MANAGERS_ONLY = 'Only managers and superadmins change campaigns and tracks';

/** Everyone in a brand reads its campaigns; managers and superadmins create, change and delete them and their tracks. */
export function mayRunCampaigns(actor: Actor): boolean {
  return isManagerOrAbove(actor);
}

/** What the reader may do with a campaign, by `mayRunCampaigns`: change it, delete it, and (`tracks`) add, change and delete its tracks. */
export type CampaignPermissions = RecordPermissions & { tracks: boolean };

/** A campaign as the API answers it: with what the one asking may do to it. */
export type CampaignView = Campaign & { can: CampaignPermissions };

function campaignPermissions(actor: Actor): CampaignPermissions {
  const runs = mayRunCampaigns(actor);
  return { ...recordPermissions(runs), tracks: runs };
}

const shown = (actor: Actor, campaign: Campaign): CampaignView => ({ ...campaign, can: campaignPermissions(actor) });

export class CampaignsService {
  constructor(private readonly deps: { campaigns: CampaignRepository; brands: BrandsService; live: ChangeFeed; clock: Clock }) {}

  async list(actor: Actor, filter: { brandId?: number; status?: CampaignStatus }): Promise<CampaignView[]> {
    const brandIds = listedBrands(actor, filter.brandId);
    return (await this.deps.campaigns.list({ brandIds, status: filter.status })).map((campaign) => shown(actor, campaign));
  }

  async get(actor: Actor, id: number): Promise<CampaignView> {
    return shown(actor, visibleOrNotFound(actor, await this.deps.campaigns.get(id), 'campaign'));
  }

  async create(actor: Actor, input: NewCampaignInput): Promise<CampaignView> {
    requireRole(actor, mayRunCampaigns, MANAGERS_ONLY);
    await this.deps.brands.assertUsable(actor, input.brandId);
    const startDate = input.startDate ?? null;
    const endDate = input.endDate ?? null;
    assertDaysInOrder(startDate, endDate);
    const created = await this.deps.campaigns.create({
      brandId: input.brandId,
      name: input.name,
      description: input.description ?? null,
      startDate,
      endDate,
      status: input.status ?? 'planned',
      ownerId: actor.id,
      createdAt: this.now(),
    });
    return shown(actor, created);
  }

  async update(actor: Actor, id: number, change: CampaignChange): Promise<CampaignView> {
    requireRole(actor, mayRunCampaigns, MANAGERS_ONLY);
    const current = await this.get(actor, id);
    assertDaysInOrder(pick(change.startDate, current.startDate), pick(change.endDate, current.endDate));
    const updated = await this.deps.campaigns.update(id, { ...change, updatedAt: this.now() });
    if (!updated) throw new NotFound('No such campaign');
    // Every card shows its campaign's name: a rename changes each of its posts as the board sees them.
    if (updated.name !== current.name) {
      const postIds = await this.deps.campaigns.postIds(id);
      await this.deps.live.publish(...postIds.map((postId) => ({ type: 'post' as const, id: postId, action: 'updated' as const, by: actor.id })));
    }
    return shown(actor, updated);
  }

  /** Deletes the campaign with its posts and tracks, in one transaction. */
  async remove(actor: Actor, id: number): Promise<{ posts: number; tracks: number }> {
    requireRole(actor, mayRunCampaigns, MANAGERS_ONLY);
    const campaign = await this.get(actor, id);
    const deleted = await this.deps.campaigns.deleteWithContent(id);
    if (!deleted) throw new NotFound('No such campaign');
    const was = { brandId: campaign.brandId };
    await this.deps.live.publish(...deleted.postIds.map((postId) => ({ type: 'post' as const, id: postId, action: 'deleted' as const, was, by: actor.id })));
    return { posts: deleted.posts, tracks: deleted.tracks };
  }

  async listTracks(actor: Actor, campaignId: number): Promise<Track[]> {
    await this.get(actor, campaignId);
    return this.deps.campaigns.listTracks(campaignId);
  }

  async getTrack(actor: Actor, id: number): Promise<Track> {
    return visibleOrNotFound(actor, await this.deps.campaigns.getTrack(id), 'track');
  }

  async createTrack(actor: Actor, campaignId: number, input: TrackInput): Promise<Track> {
    requireRole(actor, mayRunCampaigns, MANAGERS_ONLY);
    await this.get(actor, campaignId);
    const startDate = input.startDate ?? null;
    const endDate = input.endDate ?? null;
    assertDaysInOrder(startDate, endDate);
    return this.deps.campaigns.createTrack({
      campaignId,
      name: input.name,
      channel: input.channel ?? null,
      startDate,
      endDate,
      goal: input.goal ?? null,
      createdAt: this.now(),
    });
  }

  async updateTrack(actor: Actor, id: number, change: TrackChange): Promise<Track> {
    requireRole(actor, mayRunCampaigns, MANAGERS_ONLY);
    const current = await this.getTrack(actor, id);
    assertDaysInOrder(pick(change.startDate, current.startDate), pick(change.endDate, current.endDate));
    const updated = await this.deps.campaigns.updateTrack(id, { ...change, updatedAt: this.now() });
    if (!updated) throw new NotFound('No such track');
    return updated;
  }

  async removeTrack(actor: Actor, id: number): Promise<void> {
    requireRole(actor, mayRunCampaigns, MANAGERS_ONLY);
    await this.getTrack(actor, id);
    if (!(await this.deps.campaigns.deleteTrack(id))) throw new NotFound('No such track');
  }

  private now(): string {
    return isoTime(this.deps.clock.now());
  }
}
