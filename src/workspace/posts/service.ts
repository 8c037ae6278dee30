import type { Clock } from '../../platform/clock';
import { BadRequest, Conflict, Forbidden, NotFound } from '../../platform/errors';
import { canSeeBrand, isManagerOrAbove, listedBrands, visibleOrNotFound, type Actor } from '../access';
import type { BrandSight, Change, ChangeFeed, Sight } from '../events/changes';
import type { UserRepository } from '../members/repository';
import type { Happening, Notifier } from '../notifications/service';
import type { BrandsService } from '../brands/service';
import type { Campaign } from '../campaigns/repository';
import { type CampaignsService } from '../campaigns/service';
import { APPROVED_POST_STATUSES, AUTHOR_MOVABLE_POST_STATUSES, AUTHOR_POST_STATUSES, POST_FIELDS, POST_STATUSES, REVIEWED_POST_STATUSES, SENT_BACK_POST_STATUSES, type Platform, type PostEventKind, type PostField, type PostStatus } from '../domain';
import type { NewPostEvent, Post, PostEvent, PostRepository, PostWrite } from './repository';
import { isoTime, pick } from '../shared/values';

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

/**
 * What the reader may do with a post, decided by the same rules that refuse what they may
 * not: pages offer exactly this.
 */
export interface PostPermissions {
  /** Change its fields (and the same for its media). */
  edit: boolean;
  delete: boolean;
  comment: boolean;
  /**
   * The statuses it may be moved to. Publishing still needs a link and scheduling a moment,
   * which a page asks for when the post has none.
   */
  moves: PostStatus[];
  /** Those of `moves` that send it back to its author, which need a comment saying why. */
  reasonFor: PostStatus[];
  /** Change its moment while it stays where it is (a published post keeps the moment it went out). */
  reschedule: boolean;
  /** Whether an edit of what a reviewer approved, sent with the status it has, takes it back to review. */
  editReopens: boolean;
  /** It waits for review, and the reader may approve it. */
  approve: boolean;
  /** It waits for review, and the reader may send it back to its author (to the last of `reasonFor`). */
  sendBack: boolean;
}

export interface PostBody extends Post {
  thumbnailUrl: string | null;
  can: PostPermissions;
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

/**
 * Who changes or deletes a post: its owner, managers and superadmins; once it is published,
 * only managers and superadmins (what went out is no longer its author's alone).
 */
export function mayEditPost(actor: Actor, post: Post): boolean {
  return isManagerOrAbove(actor) || (post.ownerId === actor.id && post.status !== 'published');
}

/** The statuses `actor` may move `post` to: those of the approval rule, on a post they may change. */
export function movesOf(actor: Actor, post: Post): PostStatus[] {
  if (!mayEditPost(actor, post)) return [];
  return POST_STATUSES.filter((to) => to !== post.status && mayMovePost(actor, post.status, to));
}

/** The statuses `actor` may create a post in: those the approval rule lets them move a new post to. */
export function newPostStatuses(actor: Actor): PostStatus[] {
  return POST_STATUSES.filter((to) => mayMovePost(actor, null, to));
}

/**
 * What went out stays when it went out: a published post's moment changes only on its way out
 * of published, not while it stays there.
 */
export function mayReschedulePost(actor: Actor, post: Post): boolean {
  return mayEditPost(actor, post) && post.status !== 'published';
}

/**
 * Whether a change that names the status `asked` keeps a post's approval: an author's form
 * names the status it shows, so only a move, or an approver naming it, keeps it.
 */
function keepsApproval(actor: Actor, from: PostStatus, asked: PostStatus | undefined): boolean {
  return asked !== undefined && (asked !== from || isManagerOrAbove(actor));
}

export function permissionsOf(actor: Actor, post: Post): PostPermissions {
  const edit = mayEditPost(actor, post);
  const moves = movesOf(actor, post);
  const reasonFor = moves.filter((to) => isSendingBack(actor, post, to));
  const inReview = post.status === 'review';
  return {
    edit,
    delete: edit,
    comment: true,
    moves,
    reasonFor,
    approve: inReview && moves.includes('approved'),
    sendBack: inReview && reasonFor.length > 0,
    reschedule: mayReschedulePost(actor, post),
    editReopens: edit && among(APPROVED_POST_STATUSES, post.status) && !keepsApproval(actor, post.status, post.status),
  };
}

/** Sent back: a manager returns someone else's post from review or later to idea or draft. */
function isSendingBack(actor: Actor, post: Post, to: PostStatus): boolean {
  return isManagerOrAbove(actor) && post.ownerId !== actor.id && among(REVIEWED_POST_STATUSES, post.status) && among(SENT_BACK_POST_STATUSES, to);
}

/** What the audience sees of a post. */
const CONTENT: readonly PostField[] = ['title', 'caption', 'platform', 'attachments'];

/**
 * What an edit of an approved or scheduled post takes back to review: by its author, anything
 * a reviewer approved (what, where, when and the link); by a manager who does not name the
 * status, its content.
 */
const reviewedFields = (actor: Actor): readonly PostField[] => (isManagerOrAbove(actor) ? CONTENT : POST_FIELDS);

/** The fields of `next` that differ from `post`'s. */
function changedFields(post: Pick<Post, PostField>, next: Pick<Post, PostField>): PostField[] {
  return POST_FIELDS.filter((key) => JSON.stringify(next[key]) !== JSON.stringify(post[key]));
}

/** A moment is what `scheduled` means: a post without one cannot be in it. */
function assertSchedulable(status: PostStatus, scheduledAt: string | null): void {
  if (status === 'scheduled' && scheduledAt === null) {
    throw new BadRequest('A scheduled post needs its moment (scheduledAt)', 'SCHEDULE_REQUIRED');
  }
}

function moveKind(to: PostStatus, sentBack: boolean): PostEventKind {
  if (sentBack) return 'sent_back';
  return to === 'approved' ? 'approved' : to === 'published' ? 'published' : 'moved';
}

/**
 * What a change adds to a post's history: the fields it edited, then its move; or, when the
 * edit took it back to review, one event that says so and names the fields that did.
 */
function historyOf(actor: Actor, from: PostStatus, to: PostStatus, edited: PostField[], how: { reopened: boolean; sentBack: boolean }): NewPostEvent[] {
  // Publishing takes its link along: the move says it.
  const fields = to === 'published' && from !== 'published' ? edited.filter((f) => f !== 'publicationUrl') : edited;
  if (how.reopened) return [{ kind: 'reopened', actorId: actor.id, from, to, fields }];
  const events: NewPostEvent[] = [];
  if (fields.length > 0) events.push({ kind: 'edited', actorId: actor.id, from: null, to: null, fields });
  if (to !== from) events.push({ kind: moveKind(to, how.sentBack), actorId: actor.id, from, to });
  return events;
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
      live: ChangeFeed;
      clock: Clock;
    },
  ) {}

  async list(actor: Actor, query: PostQuery): Promise<PostBody[]> {
    const brandIds = listedBrands(actor, query.brandId);
    return this.bodies(actor, await this.deps.posts.list({ ...query, brandIds }));
  }

  async get(actor: Actor, id: number): Promise<PostBody> {
    return this.body(actor, await this.visible(actor, id));
  }

  /**
   * What each of `readers` is told of a change to post `id`: the body `get` answers them, or
   * `gone` where `get` would answer 404 though they could see it before (`was`).
   */
  async sights(readers: readonly Actor[], id: number, was?: BrandSight): Promise<Sight<PostBody>[]> {
    const post = await this.deps.posts.get(id);
    const thumbnails = post ? await this.deps.attachments.thumbnails(post.attachments) : new Map<number, string>();
    return readers.map((reader) => {
      if (post && canSeeBrand(reader, post.brandId)) return { body: this.shown(reader, post, thumbnails) };
      return was && canSeeBrand(reader, was.brandId) ? 'gone' : undefined;
    });
  }

  /** Whether each of `readers` sees post `id` now, as `get` decides it. */
  async seenBy(readers: readonly Actor[], id: number): Promise<boolean[]> {
    const post = await this.deps.posts.get(id);
    return readers.map((reader) => post !== undefined && canSeeBrand(reader, post.brandId));
  }

  /** Anyone creates posts in their brands; the brand is the campaign's when one is given. */
  async create(actor: Actor, input: PostInput): Promise<PostBody> {
    const campaign = input.campaignId ? await this.deps.campaigns.get(actor, input.campaignId) : null;
    const brandId = await this.deps.brands.brandFor(actor, input.brandId, [campaign]);
    const status = input.status ?? 'idea';
    this.assertMayMove(actor, null, status);
    const publicationUrl = input.publicationUrl ?? null;
    assertSchedulable(status, input.scheduledAt ?? null);
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
    await this.deps.live.publish({ type: 'post', id: post.id, action: 'created', by: actor.id });
    if (status === 'review') await this.deps.notifier.notifyAll([await this.reviewRequest(actor, post, new Map())]);
    return this.body(actor, post);
  }

  /**
   * The owner, managers and superadmins edit a post, within the approval rule (a published
   * post, managers and superadmins only). An author's change to what a reviewer approved of
   * an approved or scheduled post takes it back to review, and so does a manager's change to
   * its content unless they name its status (an approver approving their own edit).
   */
  async update(actor: Actor, id: number, change: PostChange): Promise<PostBody> {
    const current = await this.editable(actor, id);
    const plan = await this.plan(actor, current, change);
    const { posts, commentIds } = await this.deps.posts.updateMany([plan]);
    // None when the post was deleted meanwhile.
    const updated = posts.at(0);
    if (!updated) throw new NotFound('No such post');
    await this.deps.live.publish(changed(actor, current, updated), ...reasons(actor, [updated], commentIds));
    await this.tellOfMoves(actor, [plan], [updated]);
    return this.body(actor, updated);
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
    const { posts: updated, commentIds } = await this.deps.posts.updateMany(plans);
    if (updated.length !== plans.length) throw new NotFound('No such post');
    await this.deps.live.publish(...updated.map((post, i) => changed(actor, posts[i], post)), ...reasons(actor, updated, commentIds));
    await this.tellOfMoves(actor, plans, updated);
    return this.bodies(actor, updated);
  }

  /** Deletes many posts, all or nothing, by the rules of deleting one. */
  async removeMany(actor: Actor, ids: number[]): Promise<number> {
    const posts = await this.allEditable(actor, ids);
    const deleted = await this.deps.posts.deleteMany(posts.map((p) => p.id));
    if (deleted !== posts.length) throw new NotFound('No such post');
    await this.deps.live.publish(...posts.map((post) => deletion(actor, post)));
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
    let campaign: Pick<Campaign, 'id' | 'brandId'> | null = current.campaignId === null ? null : { id: current.campaignId, brandId: current.brandId };
    if (change.campaignId !== undefined) campaign = change.campaignId === null ? null : await this.deps.campaigns.get(actor, change.campaignId);
    // A post changes brand only when told to: a campaign of another brand is refused, never followed.
    const brandId = await this.deps.brands.brandFor(actor, change.brandId ?? current.brandId, [campaign]);
    const next: Pick<Post, PostField> = {
      title: change.title ?? current.title,
      caption: pick(change.caption, current.caption),
      platform: pick(change.platform, current.platform),
      attachments: change.attachments === undefined ? current.attachments : [...new Set(change.attachments)],
      campaignId: campaign?.id ?? null,
      brandId,
      scheduledAt: pick(change.scheduledAt, current.scheduledAt),
      publicationUrl: pick(change.publicationUrl, current.publicationUrl),
    };
    const edited = changedFields(current, next);
    const asked = change.status ?? current.status;
    if (edited.includes('scheduledAt') && asked === current.status && !mayReschedulePost(actor, current)) {
      throw new Conflict('A published post keeps the moment it went out', 'PUBLISHED_POST_MOMENT');
    }
    const reopened = !keepsApproval(actor, current.status, change.status) && among(APPROVED_POST_STATUSES, current.status) && edited.some((f) => reviewedFields(actor).includes(f));
    const status = reopened ? 'review' : asked;
    // The way back to review is the rule's own doing, whoever edits; any other move is checked.
    if (!reopened) this.assertMayMove(actor, current.status, status);
    // Checked on what was asked: a scheduled post keeps its moment, even on its way back to review.
    assertSchedulable(asked, next.scheduledAt);
    const sentBack = status !== current.status && isSendingBack(actor, current, status);
    if (sentBack && !change.comment) {
      throw new BadRequest('Say why the post goes back to its author: a comment is required', 'COMMENT_REQUIRED');
    }
    assertPublishable(status, next.publicationUrl);
    if (change.attachments !== undefined || brandId !== current.brandId) await this.assertAttachable(next.attachments, brandId);
    const { comment, ...fields } = change;
    return {
      id: current.id,
      from: current.status,
      sentBack,
      patch: { ...fields, status, brandId, campaignId: next.campaignId, updatedAt: isoTime(this.deps.clock.now()) },
      events: historyOf(actor, current.status, status, edited, { reopened, sentBack }),
      comment: comment ? { authorId: actor.id, body: comment } : undefined,
    };
  }

  /**
   * Media joining or leaving posts outside their form (an upload to a post, a deleted asset)
   * is an edit of each of them by the same rules: refused on a published post unless by a
   * manager, and taking an approved or scheduled post back to review. Called before the
   * media change, so that a refusal leaves everything as it was.
   */
  private async changingMedia(actor: Actor, posts: Post[]): Promise<void> {
    if (!isManagerOrAbove(actor) && posts.some((post) => post.status === 'published')) {
      throw new Forbidden('Only managers and superadmins change the media of a published post', 'APPROVAL_REQUIRED');
    }
    const updatedAt = isoTime(this.deps.clock.now());
    const plans: PostPlan[] = posts
      .filter((post) => among(APPROVED_POST_STATUSES, post.status))
      .map((post) => ({
        id: post.id,
        from: post.status,
        sentBack: false,
        patch: { status: 'review', updatedAt },
        events: historyOf(actor, post.status, 'review', ['attachments'], { reopened: true, sentBack: false }),
      }));
    if (plans.length === 0) return;
    const { posts: updated } = await this.deps.posts.updateMany(plans);
    if (updated.length !== plans.length) throw new NotFound('No such post');
    await this.deps.live.publish(...updated.map((post) => ({ type: 'post' as const, id: post.id, action: 'moved' as const, was: { brandId: post.brandId }, by: actor.id })));
    await this.tellOfMoves(actor, plans, updated);
  }

  /** Files are about to be uploaded into the post's media (the upload has checked it may). */
  async uploadingTo(actor: Actor, postId: number): Promise<void> {
    await this.changingMedia(actor, [await this.editable(actor, postId)]);
  }

  /** Assets are about to be deleted, and so to leave the media of the posts that have them: answers those posts' ids. */
  async deletingAssets(actor: Actor, assetIds: number[]): Promise<number[]> {
    const attached = await this.deps.posts.attachedTo(assetIds);
    await this.changingMedia(actor, attached);
    return attached.map((post) => post.id);
  }

  /** Tells, once per member and request, of the posts that moved: to review, approved or sent back. */
  private async tellOfMoves(actor: Actor, plans: PostPlan[], updated: Post[]): Promise<void> {
    const reviewers = new Map<number, number[]>();
    const happenings: Happening[] = [];
    for (const [i, plan] of plans.entries()) {
      const post = updated[i];
      if (post.status === plan.from) continue;
      if (post.status === 'review') {
        happenings.push(await this.reviewRequest(actor, post, reviewers));
        continue;
      }
      const kind = plan.sentBack ? 'sent_back' : post.status === 'approved' ? 'approved' : undefined;
      if (kind && post.ownerId !== null) happenings.push({ kind, recipients: [post.ownerId], actorId: actor.id, subject: { postId: post.id, brandId: post.brandId } });
    }
    await this.deps.notifier.notifyAll(happenings);
  }

  /** Who did what to the post, and when, oldest first. */
  async history(actor: Actor, id: number): Promise<PostEvent[]> {
    await this.visible(actor, id);
    return this.deps.posts.history(id);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const post = await this.editable(actor, id);
    if ((await this.deps.posts.deleteMany([id])) === 0) throw new NotFound('No such post');
    await this.deps.live.publish(deletion(actor, post));
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

  /**
   * Review asks the brand's managers; when it has none, its superadmins; only those who have
   * joined (a manager still invited may never come to review). `reviewers` keeps them by brand
   * for the rest of the request.
   */
  private async reviewRequest(actor: Actor, post: Post, reviewers: Map<number, number[]>): Promise<Happening> {
    let ids = reviewers.get(post.brandId);
    if (!ids) {
      const members = (await this.deps.users.list(undefined)).filter((u) => u.invitedAt === null && (u.role === 'superadmin' || u.brandIds.includes(post.brandId)));
      const managers = members.filter((u) => u.role === 'manager');
      ids = (managers.length > 0 ? managers : members.filter((u) => u.role === 'superadmin')).map((u) => u.id);
      reviewers.set(post.brandId, ids);
    }
    return { kind: 'review_requested', recipients: ids, actorId: actor.id, subject: { postId: post.id, brandId: post.brandId } };
  }

  private assertMayEdit(actor: Actor, post: Post): void {
    if (mayEditPost(actor, post)) return;
    if (post.ownerId !== actor.id) throw new Forbidden('Only its owner, managers and superadmins change a post', 'NOT_POST_OWNER');
    throw new Forbidden('Only managers and superadmins change or delete a published post', 'APPROVAL_REQUIRED');
  }

  private async assertAttachable(assetIds: number[], brandId: number): Promise<void> {
    if (assetIds.length === 0) return;
    const unknown = await this.deps.attachments.unknown(assetIds, brandId);
    if (unknown.length > 0) throw new BadRequest('Unknown asset in attachments', 'UNKNOWN_ATTACHMENT', { assetIds: unknown });
  }

  private async body(actor: Actor, post: Post): Promise<PostBody> {
    return (await this.bodies(actor, [post]))[0];
  }

  /** One look-up of thumbnails for a whole page of posts, each with what the reader may do with it. */
  private async bodies(actor: Actor, posts: Post[]): Promise<PostBody[]> {
    const thumbnails = await this.deps.attachments.thumbnails(posts.flatMap((p) => p.attachments));
    return posts.map((post) => this.shown(actor, post, thumbnails));
  }

  private shown(actor: Actor, post: Post, thumbnails: Map<number, string>): PostBody {
    const thumbnailUrl = post.attachments.map((id) => thumbnails.get(id)).find((url) => url !== undefined) ?? null;
    return { ...post, thumbnailUrl, can: permissionsOf(actor, post) };
  }
}

/** A change to a post as the live pages hear of it: a move when its status changed. */
function changed(actor: Actor, before: Post, after: Post): Change {
  return { type: 'post', id: after.id, action: after.status === before.status ? 'updated' : 'moved', was: { brandId: before.brandId }, by: actor.id };
}

/** The comments that said why posts moved (sent back), as the threads hear of them. */
function reasons(actor: Actor, posts: Post[], commentIds: (number | undefined)[]): Change[] {
  return posts.flatMap((post, i): Change[] => {
    const id = commentIds[i];
    return id === undefined ? [] : [{ type: 'comment', id, action: 'created', on: { postId: post.id }, by: actor.id }];
  });
}

function deletion(actor: Actor, post: Post): Change {
  return { type: 'post', id: post.id, action: 'deleted', was: { brandId: post.brandId }, by: actor.id };
}
