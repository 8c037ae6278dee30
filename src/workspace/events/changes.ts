import type { EventChannel } from '../../platform/events';
import type { TaskVisibility } from '../domain';

/**
 * What the services tell the live pages, once a change has committed: which record, what
 * happened to it, and who did it. It carries no body: every instance works out what each
 * of its readers gets of it, by the rules of the API, when it hands it on.
 */
export type Change =
  | { type: 'post'; id: number; action: 'created' | 'updated' | 'moved' | 'deleted'; was?: BrandSight; by: number | null }
  | { type: 'task'; id: number; action: 'created' | 'updated' | 'deleted'; was?: TaskSight; by: number | null }
  | { type: 'asset'; id: number; action: 'created' | 'deleted'; was?: BrandSight; by: number | null }
  | { type: 'comment'; id: number; action: 'created' | 'deleted'; on: { postId: number } | { taskId: number }; by: number | null }
  /** A notification of `memberId`'s, or (without `id`) a change to how many they have unread. */
  | { type: 'notification'; memberId: number; id?: number; by: number | null }
  /** A member's record changed; `reason` says how, when it touches what they may see. */
  | { type: 'member'; id: number; reason?: 'role' | 'brands'; by: number | null }
  /**
   * Cookie sessions of a member ended: all of them but the one whose digest is `keep`, or
   * only the one whose digest is `only`. Digests, because the buffer outlives the request.
   */
  | { type: 'signout'; memberId: number; keep?: string; only?: string };

/** Who could see a record of a brand before the change: its brand. */
export interface BrandSight {
  brandId: number;
}

/** Who could see a task before the change. */
export interface TaskSight {
  brandId: number;
  visibility: TaskVisibility;
  ownerId: number | null;
  assigneeId: number | null;
}

/**
 * What one reader is told of a change to a record: its body as the API's GET answers them;
 * `gone`, when they could see it before and no longer can (deleted, or moved out of their
 * sight), so that nothing of it stays on their page; or nothing at all.
 */
export type Sight<T> = { body: T } | 'gone' | undefined;

/** Where the services hand their changes; never fails (a change that cannot go out is logged). */
export interface ChangeFeed {
  publish(...changes: Change[]): Promise<void>;
}

/** The feed over an event channel, every change in order. */
export function channelFeed(channel: EventChannel): ChangeFeed {
  return {
    async publish(...changes) {
      // Sent together: one connection carries them in this order.
      await Promise.all(changes.map((change) => channel.publish(change)));
    },
  };
}
