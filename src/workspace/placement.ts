import { BadRequest } from '../platform/errors';
import type { Actor } from './access';
import type { BrandsService } from './brands/service';
import type { CampaignsService } from './campaigns/service';
import type { Post } from './posts/repository';
import type { PostsService } from './posts/service';

export interface PlacementInput {
  brandId?: number;
  campaignId?: number | null;
  postId?: number | null;
}

export interface Placed {
  brandId: number;
  campaignId: number | null;
  postId: number | null;
}

/**
 * Where an asset or a task goes: a brand, optionally a campaign and a post of it. A post
 * brings its campaign; a campaign given beside it must be that one.
 */
export class Placement {
  constructor(private readonly deps: { brands: BrandsService; campaigns: CampaignsService; posts: PostsService }) {}

  /**
   * `post: 'edit'` when the record changes the post (an upload attaches itself to it), so
   * the actor must be allowed to edit that post.
   */
  async resolve(actor: Actor, input: PlacementInput, opts: { post: 'read' | 'edit'; others?: { brandId: number }[] }): Promise<Placed> {
    const post: Post | null = input.postId
      ? opts.post === 'edit'
        ? await this.deps.posts.editable(actor, input.postId)
        : await this.deps.posts.get(actor, input.postId)
      : null;
    const campaign = input.campaignId ? await this.deps.campaigns.get(actor, input.campaignId) : null;
    if (post && campaign && post.campaignId !== campaign.id) {
      throw new BadRequest('The post is not in that campaign', 'CAMPAIGN_MISMATCH');
    }
    const brandId = await this.deps.brands.brandFor(actor, input.brandId, [campaign, post, ...(opts.others ?? [])]);
    return { brandId, campaignId: campaign?.id ?? post?.campaignId ?? null, postId: post?.id ?? null };
  }
}
