import type { Clock } from '../../platform/clock';
import { Forbidden, NotFound } from '../../platform/errors';
import { isManagerOrAbove, type Actor } from '../access';
import type { UserRepository } from '../members/repository';
import type { Notifier } from '../notifications/service';
import type { Comment, CommentRepository, CommentSubject } from './repository';
import type { ChangeFeed, Sight } from '../events/changes';
import type { TaskVisibility } from '../domain';
import { isoTime } from '../shared/values';
import type { UserRecord } from '../shared/member';

const WORD = /[\p{L}\p{N}_]/u;

/**
 * The members a comment names with `@` and their full name (any case), as the composer
 * writes it: "@Salma Haddad". A longer word after the name is another name, not a mention.
 */
export function mentionedIn(body: string, members: readonly Pick<UserRecord, 'id' | 'name'>[]): number[] {
  const text = body.toLocaleLowerCase();
  return members
    .filter((m) => {
      const name = `@${m.name.toLocaleLowerCase()}`;
      for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
        const before = at === 0 ? '' : text[at - 1];
        const after = text[at + name.length] ?? '';
        if (!WORD.test(before) && !WORD.test(after)) return true;
      }
      return false;
    })
    .map((m) => m.id);
}

/** What the reader may do with a comment, by the rule that refuses what they may not. */
export interface CommentPermissions {
  delete: boolean;
}

/** A comment as the API answers it: with what the one asking may do to it. */
export type CommentView = Comment & { can: CommentPermissions };

/** Its author, managers and superadmins delete a comment (of a thread they see). */
export function mayDeleteComment(actor: Actor, comment: Pick<Comment, 'authorId'>): boolean {
  return comment.authorId === actor.id || isManagerOrAbove(actor);
}

export function commentPermissions(actor: Actor, comment: Pick<Comment, 'authorId'>): CommentPermissions {
  return { delete: mayDeleteComment(actor, comment) };
}

const shown = (actor: Actor, comment: Comment): CommentView => ({ ...comment, can: commentPermissions(actor, comment) });

/** What a thread hangs on, once the actor is known to see it. */
interface Seen {
  subject: CommentSubject;
  brandId: number;
  /** Who hears of a new comment besides those it names: a post's owner; a task's owner and assignee. */
  followers: (number | null)[];
  task?: { visibility: TaskVisibility; ownerId: number | null; assigneeId: number | null };
}

/**
 * What a thread needs of the records it hangs on, as their own features read them: the
 * record for the actor (refused as their GET would be), and which of some readers see it.
 */
export interface ThreadSubjects<T> {
  get(actor: Actor, id: number): Promise<T>;
  seenBy(readers: readonly Actor[], id: number): Promise<boolean[]>;
}

/**
 * Comments on posts and tasks: whoever sees the post or task reads its thread and writes
 * in it; the author, managers and superadmins delete a comment.
 */
export class CommentsService {
  constructor(
    private readonly deps: {
      comments: CommentRepository;
      posts: ThreadSubjects<{ brandId: number; ownerId: number | null }>;
      tasks: ThreadSubjects<{ brandId: number; visibility: TaskVisibility; ownerId: number | null; assigneeId: number | null }>;
      users: UserRepository;
      notifier: Notifier;
      live: ChangeFeed;
      clock: Clock;
    },
  ) {}

  async list(actor: Actor, subject: CommentSubject): Promise<CommentView[]> {
    await this.seen(actor, subject);
    return (await this.deps.comments.list(subject)).map((comment) => shown(actor, comment));
  }

  /**
   * What each of `readers` is told of a change to comment `id` on `on`: the comment as its
   * thread lists it, or `gone` once it was deleted; nothing for who may not read the thread.
   */
  async sights(readers: readonly Actor[], id: number, on: CommentSubject): Promise<Sight<CommentView>[]> {
    const [comment, seers] = await Promise.all([
      this.deps.comments.get(id),
      'postId' in on ? this.deps.posts.seenBy(readers, on.postId) : this.deps.tasks.seenBy(readers, on.taskId),
    ]);
    return seers.map((sees, i) => (!sees ? undefined : comment ? { body: shown(readers[i], comment) } : 'gone'));
  }

  async add(actor: Actor, subject: CommentSubject, body: string): Promise<CommentView> {
    const seen = await this.seen(actor, subject);
    const comment = await this.deps.comments.add(subject, { authorId: actor.id, body, createdAt: isoTime(this.deps.clock.now()) });
    await this.deps.live.publish({ type: 'comment', id: comment.id, action: 'created', on: subject, by: actor.id });
    const members = (await this.deps.users.list(undefined)).filter((u) => u.role === 'superadmin' || u.brandIds.includes(seen.brandId));
    const mentioned = mentionedIn(body, members);
    const about = { ...('postId' in subject ? { postId: subject.postId } : { taskId: subject.taskId }), brandId: seen.brandId, task: seen.task };
    await this.deps.notifier.notify({ kind: 'mentioned', recipients: mentioned, actorId: actor.id, subject: about });
    const followers = seen.followers.filter((id): id is number => id !== null && !mentioned.includes(id));
    await this.deps.notifier.notify({ kind: 'commented', recipients: followers, actorId: actor.id, subject: about });
    return shown(actor, comment);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const comment = await this.deps.comments.get(id);
    if (!comment) throw new NotFound('No such comment');
    let on: CommentSubject;
    if (comment.postId !== null) on = { postId: comment.postId };
    else if (comment.taskId !== null) on = { taskId: comment.taskId };
    else throw new Error(`Comment ${id} is on neither a post nor a task, which comments_one_subject forbids`);
    // A comment on something the actor cannot see does not exist for them.
    await this.seen(actor, on).catch(() => {
      throw new NotFound('No such comment');
    });
    if (!mayDeleteComment(actor, comment)) {
      throw new Forbidden('Only its author, managers and superadmins delete a comment', 'NOT_COMMENT_AUTHOR');
    }
    if (!(await this.deps.comments.delete(id))) throw new NotFound('No such comment');
    await this.deps.live.publish({ type: 'comment', id, action: 'deleted', on, by: actor.id });
  }

  private async seen(actor: Actor, subject: CommentSubject): Promise<Seen> {
    if ('postId' in subject) {
      const post = await this.deps.posts.get(actor, subject.postId);
      return { subject, brandId: post.brandId, followers: [post.ownerId] };
    }
    const task = await this.deps.tasks.get(actor, subject.taskId);
    return {
      subject,
      brandId: task.brandId,
      followers: [task.ownerId, task.assigneeId],
      task: { visibility: task.visibility, ownerId: task.ownerId, assigneeId: task.assigneeId },
    };
  }
}
