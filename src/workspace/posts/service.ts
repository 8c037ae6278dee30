import type { Clock } from '../../platform/clock';
import { BadRequest, Forbidden, NotFound } from '../../platform/errors';
import { isManagerOrAbove, isoTime, listedBrands, visibleOrNotFound, type Actor } from '../access';
import type { UserRepository } from '../members/repository';
import type { Notifier } from '../notifications/service';
import type { BrandsService } from '../brands/service';
import type { Campaign } from '../campaigns/repository';
import { pick, type CampaignsService } from '../campaigns/service';
import { AUTHOR_MOVABLE_POST_STATUSES, AUTHOR_POST_STATUSES, type Platform, type PostEventKind, type PostStatus } from '../domain';
import type { NewPostEvent, Post, PostEvent, PostRepository, PostWrite } from './repository';

/**
 * What posts need to know about assets: which attachment ids are usable in a brand, and
 * the thumbnails that cards show. The assets feature provides it.
 */
export interface AttachmentCatalog {
  /** The ids among `assetIds` that are not assets of `brandId`. */
  unknown(assetIds: number[], brandId: number): Promise<number[]>;
  /** The thumbnail URLs of those among `assetIds` that have one (images). */
  thumbnails(assetIds: number[]): Promise<Map<number, string>>;
}

export interface PostBody extends Post {
  thumbnailUrl: string | null;
}

export interface PostInput {
  title: string;
  caption?: string | null;
  platform?: Platform | null;
  status?: PostStatus;
  scheduledAt?: string | null;
  publicationUrl?: string | null;
  campaignId?: number | null;
  brandId?: number;
  attachments?: number[];
}

export type PostChange = Partial<PostInput> & {
  /** Why the post moves: stored as a comment by the mover; required when sending a post back to its author. */
  comment?: string;
};

/** What one request may change on many posts at once: where they stand, or their campaign. */
export type BulkPostChange = Pick<PostChange, 'status' | 'campaignId' | 'comment'>;

/** A change to one post, checked and ready to write. */
interface PostPlan extends PostWrite {
  from: PostStatus;
  sentBack: boolean;
}

export interface PostQuery {
  brandId?: number;
  campaignId?: number;
  status?: PostStatus;
  limit: number;
  offset: number;
}

/** An absolute http(s) address with a host: the only kind of link a post may carry. */
export function isPublicationLink(value: string): boolean {
  if (!/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

function assertPublishable(status: PostStatus, publicationUrl: string | null): void {
  if (publicationUrl !== null && !isPublicationLink(publicationUrl)) {
    throw new BadRequest('publicationUrl must be an absolute http(s) link', 'INVALID_PUBLICATION_LINK');
  }
  if (status === 'published' && publicationUrl === null) {
    throw new BadRequest('A published post needs its publication link', 'PUBLICATION_LINK_REQUIRED');
  }
}

const among = (list: readonly PostStatus[], status: PostStatus) => list.includes(status);

/**
 * The approval rule: authors move their posts among idea, draft and review (and may withdraw
 * an approval); only managers and superadmins approve, schedule or publish.
 */
export function mayMovePost(actor: Actor, from: PostStatus | null, to: PostStatus): boolean {
  if (from === to || isManagerOrAbove(actor)) return true;
  return among(AUTHOR_POST_STATUSES, to) && (from === null || among(AUTHOR_MOVABLE_POST_STATUSES, from));
}

/** Sent back: a manager returns someone else's post from review or later to idea or draft. */
function isSendingBack(actor: Actor, post: Post, to: PostStatus): boolean {
  return isManagerOrAbove(actor) && post.ownerId !== actor.id && among(['review', 'approved', 'scheduled'], post.status) && among(['idea', 'draft'], to);
}

/** What a reviewer approved and what the audience sees: a change to it asks for a new review. */
const CONTENT: (keyof PostChange & keyof Post)[] = ['title', 'caption', 'platform', 'attachments'];

function changesContent(post: Post, change: PostChange): boolean {
  return CONTENT.some((key) => change[key] !== undefined && JSON.stringify(change[key]) !== JSON.stringify(post[key]));
}

function moveKind(to: PostStatus, sentBack: boolean): PostEventKind {
  if (sentBack) return 'sent_back';
  return to === 'approved' ? 'approved' : to === 'published' ? 'published' : 'moved';
}

export class PostsService {
  constructor(
    private readonly deps: {
      posts: PostRepository;
      campaigns: CampaignsService;
      brands: BrandsService;
      attachments: AttachmentCatalog;
      users: UserRepository;
      notifier: Notifier;
      clock: Clock;
    },
  ) {}

  async list(actor: Actor, query: PostQuery): Promise<PostBody[]> {
    const brandIds = listedBrands(actor, query.brandId);
    return this.bodies(await this.deps.posts.list({ ...query, brandIds }));
  }

  async get(actor: Actor, id: number): Promise<PostBody> {
    return this.body(await this.visible(actor, id));
  }

  /** Anyone creates posts in their brands; the brand is the campaign's when one is given. */
  async create(actor: Actor, input: PostInput): Promise<PostBody> {
    const campaign = input.campaignId ? await this.deps.campaigns.get(actor, input.campaignId) : null;
    const brandId = await this.deps.brands.brandFor(actor, input.brandId, [campaign]);
    const status = input.status ?? 'idea';
    this.assertMayMove(actor, null, status);
    const publicationUrl = input.publicationUrl ?? null;
    assertPublishable(status, publicationUrl);
    const attachments = input.attachments ?? [];
    await this.assertAttachable(attachments, brandId);
    const post = await this.deps.posts.create({
      brandId,
      campaignId: campaign?.id ?? null,
      title: input.title,
      caption: input.caption ?? null,
      platform: input.platform ?? null,
      status,
      scheduledAt: input.scheduledAt ?? null,
      publicationUrl,
      ownerId: actor.id,
      attachments,
      createdAt: isoTime(this.deps.clock.now()),
    });
    if (status === 'review') await this.askForReview(actor, post);
    return this.body(post);
  }

  /**
   * The owner, managers and superadmins edit a post, within the approval rule. A change to
   * the content of an approved or scheduled post sends it back to review, unless a manager's
   * change names its status (an approver approving their own edit).
   */
  async update(actor: Actor, id: number, change: PostChange): Promise<PostBody> {
    const plan = await this.plan(actor, await this.editable(actor, id), change);
    const [updated] = await this.deps.posts.updateMany([plan]);
    if (!updated) throw new NotFound('No such post');
    await this.tellOfMoves(actor, [plan], [updated]);
    return this.body(updated);
  }

  /**
   * One change to many posts, all or nothing: a post the actor cannot see answers 404 and
   * one they may not change 403 before anything is written; each post gets the same rules
   * as alone, and all are written in one transaction.
   */
  async updateMany(actor: Actor, ids: number[], change: BulkPostChange): Promise<PostBody[]> {
    const posts = await this.allEditable(actor, ids);
    const plans: PostPlan[] = [];
    for (const post of posts) plans.push(await this.plan(actor, post, change));
    const updated = await this.deps.posts.updateMany(plans);
    if (updated.length !== plans.length) throw new NotFound('No such post');
    await this.tellOfMoves(actor, plans, updated);
    return this.bodies(updated);
  }

  /** Deletes many posts, all or nothing, by the rules of deleting one. */
  async removeMany(actor: Actor, ids: number[]): Promise<number> {
    const posts = await this.allEditable(actor, ids);
    const deleted = await this.deps.posts.deleteMany(posts.map((p) => p.id));
    if (deleted !== posts.length) throw new NotFound('No such post');
    return deleted;
  }

  /** Every post of `ids`, each once: 404 when any is not visible, then 403 when any is not the actor's to change. */
  private async allEditable(actor: Actor, ids: number[]): Promise<Post[]> {
    const posts: Post[] = [];
    for (const id of new Set(ids)) posts.push(await this.visible(actor, id));
    for (const post of posts) this.assertMayEdit(actor, post);
    return posts;
  }

  /** What a change makes of a post, checked against every rule, without writing anything. */
  private async plan(actor: Actor, current: Post, change: PostChange): Promise<PostPlan> {
    const edited = changesContent(current, change);
    // An author's form names the status it shows; only an approver's naming it keeps the approval.
    const keepsApproval = change.status !== undefined && (change.status !== current.status || isManagerOrAbove(actor));
    const backToReview = edited && among(['approved', 'scheduled'], current.status) && !keepsApproval;
    const status = backToReview ? 'review' : (change.status ?? current.status);
    // The way back to review is the rule's own doing, whoever edits; any other move is checked.
    if (!backToReview) this.assertMayMove(actor, current.status, status);
    const sentBack = status !== current.status && isSendingBack(actor, current, status);
    if (sentBack && !change.comment) {
      throw new BadRequest('Say why the post goes back to its author: a comment is required', 'COMMENT_REQUIRED');
    }
    let campaign: Pick<Campaign, 'id' | 'brandId'> | null = current.campaignId === null ? null : { id: current.campaignId, brandId: current.brandId };
    if (change.campaignId !== undefined) campaign = change.campaignId === null ? null : await this.deps.campaigns.get(actor, change.campaignId);
    // A new campaign brings its brand; otherwise the post keeps its own unless told another.
    const brandId = await this.deps.brands.brandFor(actor, change.brandId ?? (change.campaignId ? undefined : current.brandId), [campaign]);
    assertPublishable(status, pick(change.publicationUrl, current.publicationUrl));
    const attachments = change.attachments ?? current.attachments;
    if (change.attachments !== undefined || brandId !== current.brandId) await this.assertAttachable(attachments, brandId);
    const events: NewPostEvent[] = [];
    if (edited) events.push({ kind: 'edited', actorId: actor.id, from: null, to: null });
    if (status !== current.status) events.push({ kind: moveKind(status, sentBack), actorId: actor.id, from: current.status, to: status });
    const { comment, ...fields } = change;
    return {
      id: current.id,
      from: current.status,
      sentBack,
      patch: { ...fields, status, brandId, campaignId: campaign?.id ?? null, updatedAt: isoTime(this.deps.clock.now()) },
      events,
      comment: comment ? { authorId: actor.id, body: comment } : undefined,
    };
  }

  private async tellOfMoves(actor: Actor, plans: PostPlan[], updated: Post[]): Promise<void> {
    for (const [i, plan] of plans.entries()) {
      if (updated[i].status !== plan.from) await this.tellOfMove(actor, updated[i], plan.sentBack);
    }
  }

  /** Who did what to the post, and when, oldest first. */
  async history(actor: Actor, id: number): Promise<PostEvent[]> {
    await this.visible(actor, id);
    return this.deps.posts.history(id);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    await this.editable(actor, id);
    if ((await this.deps.posts.deleteMany([id])) === 0) throw new NotFound('No such post');
  }

  /** A post the actor may change: 404 when not visible, 403 when not theirs to edit. */
  async editable(actor: Actor, id: number): Promise<Post> {
    const post = await this.visible(actor, id);
    this.assertMayEdit(actor, post);
    return post;
  }

  private async visible(actor: Actor, id: number): Promise<Post> {
    return visibleOrNotFound(actor, await this.deps.posts.get(id), 'post');
  }

  private assertMayMove(actor: Actor, from: PostStatus | null, to: PostStatus): void {
    if (!mayMovePost(actor, from, to)) {
      throw new Forbidden('Only managers and superadmins approve, schedule or publish a post', 'APPROVAL_REQUIRED');
    }
  }

  /** Review asks the brand's managers; when it has none, its superadmins. */
  private async askForReview(actor: Actor, post: Post): Promise<void> {
    const members = (await this.deps.users.list(undefined)).filter((u) => u.role === 'superadmin' || u.brandIds.includes(post.brandId));
    const managers = members.filter((u) => u.role === 'manager' && u.brandIds.includes(post.brandId));
    const reviewers = managers.length > 0 ? managers : members.filter((u) => u.role === 'superadmin');
    await this.deps.notifier.notify({ kind: 'review_requested', recipients: reviewers.map((u) => u.id), actorId: actor.id, subject: { postId: post.id, brandId: post.brandId } });
  }

  private async tellOfMove(actor: Actor, post: Post, sentBack: boolean): Promise<void> {
    if (post.status === 'review') return this.askForReview(actor, post);
    const kind = sentBack ? 'sent_back' : post.status === 'approved' ? 'approved' : undefined;
    if (kind && post.ownerId !== null) {
      await this.deps.notifier.notify({ kind, recipients: [post.ownerId], actorId: actor.id, subject: { postId: post.id, brandId: post.brandId } });
    }
  }

  private assertMayEdit(actor: Actor, post: Post): void {
    if (post.ownerId !== actor.id && !isManagerOrAbove(actor)) {
      throw new Forbidden('Only its owner, managers and superadmins change a post', 'NOT_POST_OWNER');
    }
  }

  private async assertAttachable(assetIds: number[], brandId: number): Promise<void> {
    if (assetIds.length === 0) return;
    const unknown = await this.deps.attachments.unknown(assetIds, brandId);
    if (unknown.length > 0) throw new BadRequest('Unknown asset in attachments', 'UNKNOWN_ATTACHMENT', { assetIds: unknown });
  }

  private async body(post: Post): Promise<PostBody> {
    return (await this.bodies([post]))[0];
  }

  /** One look-up of thumbnails for a whole page of posts. */
  private async bodies(posts: Post[]): Promise<PostBody[]> {
    const thumbnails = await this.deps.attachments.thumbnails(posts.flatMap((p) => p.attachments));
    return posts.map((post) => {
      const first = post.attachments.find((id) => thumbnails.has(id));
      return { ...post, thumbnailUrl: first === undefined ? null : thumbnails.get(first)! };
    });
  }
}
