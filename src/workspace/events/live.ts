import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { compareEventIds, type BusEvent, type EventChannel } from '../../platform/events';
import type { Logger } from '../../platform/logger';
import { EVERYTHING, type Notices } from '../../platform/notices';
import { eventFrame, type EventStream, type EventStreams } from '../../platform/sse';
import type { Actor } from '../access';
import type { WorkspaceAuth } from '../request';
import type { BrandSight, Change, Sight, TaskSight } from './changes';
import { MEMBER_CONFIRM_MS, MEMBER_TOPIC, actorFor, type UserRecord } from '../shared/member';

/** Stands for a cookie session in the event buffer, which outlives the request: the session's id itself is a secret. */
export function sessionDigest(sid: string): string {
  return createHash('sha256').update(sid).digest('base64url').slice(0, 22);
}

/** Why a member's page must reload what it shows, or sign out. */
type AccessReason = 'role' | 'brands' | 'password' | 'deleted';

/** One open stream of a member, and what it was signed in with. */
interface Reader {
  stream: EventStream;
  memberId: number;
  /** The digest of its cookie session; undefined for a bearer token. */
  session: string | undefined;
  /** The token version a bearer token was issued under. */
  tokenVersion: number;
}

/** A member with open streams here: their record as last read, which every event is judged by. */
interface Member {
  user: UserRecord;
  actor: Actor;
  readAt: number;
  readers: Set<Reader>;
  /** A change to their role or brands that a notice showed, told with the change's own word (which names who made it) or before anything else. */
  untold?: 'role' | 'brands';
}

/**
 * What each reader would be told of a change to one kind of record, by the read rules of the
 * feature that owns it (its service): the streams judge by them and know no feature.
 */
export interface RecordSights<Was> {
  sights(readers: readonly Actor[], id: number, was: Was): Promise<Sight<unknown>[]>;
}

export interface LiveDeps {
  channel: EventChannel;
  streams: EventStreams;
  /** The members of `ids` that exist, as committed now. */
  users: { many(ids: readonly number[]): Promise<UserRecord[]> };
  notices: Notices;
  posts: RecordSights<BrandSight | undefined>;
  tasks: RecordSights<TaskSight | undefined>;
  assets: RecordSights<BrandSight | undefined>;
  comments: RecordSights<Extract<Change, { type: 'comment' }>['on']>;
  /** A member's notification `id` as their list shows it, with their unread count; undefined when there is nothing to tell. */
  notifications: { live(reader: Actor, id?: number): Promise<object | undefined> };
  logger: Logger;
}

/**
 * The workspace's live streams held by this instance. Every change on the channel is judged
 * for each member with a stream here by the services' own rules (what their GET would
 * answer them), one change after the other in the channel's order, so that a member's
 * access change is in force before any later change is judged.
 *
 * Members' records are kept for the judging, read again at once when a notice or the channel
 * says they changed, and at the latest MEMBER_CONFIRM_MS after the last read when a change
 * comes (as every instance confirms its cached members), so a lost notice leaves no one
 * seeing more than they may for longer than that.
 */
export class LiveEvents {
  private readonly members = new Map<number, Member>();
  private queue: Promise<void> = Promise.resolve();
  /** The id of the last change judged here: a stream that joins now has seen everything up to it. */
  private position: string | undefined;
  private started: Promise<void> | undefined;

  constructor(private readonly deps: LiveDeps) {
    deps.notices.subscribe((notice) => {
      if (notice.topic !== MEMBER_TOPIC && notice.topic !== EVERYTHING) return;
      this.enqueue(() => this.reread(notice.id === undefined ? [...this.members.keys()] : [notice.id], { tell: false }));
    });
    this.start().catch((err: unknown) => deps.logger.warn({ err }, 'the live events channel could not be joined yet; the first stream tries again'));
  }

  /**
   * Answers `res` as the member's stream. With `lastEventId`, what they missed since is told
   * first (or `reset` when it is no longer known); without, the stream starts from now.
   */
  async open(auth: WorkspaceAuth, sid: string | undefined, res: ServerResponse, lastEventId: string | undefined): Promise<void> {
    // Before the answer starts, so that a channel out of reach is a 503 like any engine's.
    await this.start();
    const stream = this.deps.streams.start(res);
    if (stream.closed) return;
    const reader: Reader = {
      stream,
      memberId: auth.user.id,
      session: auth.via === 'cookie' && sid !== undefined ? sessionDigest(sid) : undefined,
      tokenVersion: auth.user.tokenVersion,
    };
    stream.onClose(() => this.leave(reader));
    this.enqueue(() => this.join(reader, auth.user, lastEventId));
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      await this.deps.channel.subscribe(
        (event) => this.enqueue(() => this.judge(event)),
        () => this.enqueue(() => this.lostTrack()),
      );
      this.position ??= await this.deps.channel.latest();
    })().catch((err: unknown) => {
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  /** Work in the channel's order, one piece at a time; a failure is logged and the next goes on. */
  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch((err: unknown) => this.deps.logger.warn({ err }, 'a live event could not be handed on'));
  }

  private async join(reader: Reader, user: UserRecord, lastEventId: string | undefined): Promise<void> {
    if (reader.stream.closed) return;
    let member = this.members.get(reader.memberId);
    if (!member) this.members.set(reader.memberId, (member = { user, actor: actorFor(user), readAt: Date.now(), readers: new Set() }));
    member.readers.add(reader);
    if (lastEventId === undefined) {
      if (this.position !== undefined) reader.stream.position(this.position);
      return;
    }
    const missed = await this.deps.channel.after(lastEventId).catch(() => undefined);
    if (missed === undefined) {
      reader.stream.send('reset', {}, this.position);
      return;
    }
    try {
      for (const event of missed) {
        // What came after the last change judged here is judged in its turn, with everyone's.
        if (this.position === undefined || !(compareEventIds(event.id, this.position) <= 0)) break;
        await this.tell([reader], event, true);
      }
    } catch (err) {
      this.deps.logger.warn({ err }, 'what a live stream missed could not be judged; it is told to start over');
      reader.stream.send('reset', {}, this.position);
    }
  }

  private leave(reader: Reader): void {
    const member = this.members.get(reader.memberId);
    if (!member) return;
    member.readers.delete(reader);
    if (member.readers.size === 0) this.members.delete(reader.memberId);
  }

  private async judge(event: BusEvent): Promise<void> {
    this.position = event.id;
    const change = event.body as Change;
    const readers = this.readersOf(change);
    if (readers.length === 0) return;
    try {
      await this.tell(readers, event, false);
    } catch (err) {
      // What they would have been told cannot be worked out now: their pages load everything again.
      this.deps.logger.warn({ err, change }, 'a live event could not be judged for its readers; they are told to start over');
      for (const reader of readers) reader.stream.send('reset', {}, event.id);
    }
  }

  private readersOf(change: Change): Reader[] {
    switch (change.type) {
      case 'notification':
        return [...(this.members.get(change.memberId)?.readers ?? [])];
      case 'member':
        return [...(this.members.get(change.id)?.readers ?? [])];
      case 'signout':
        return [...(this.members.get(change.memberId)?.readers ?? [])];
      // A post, a task, an asset or a comment, and whatever else comes on the bus, goes to everyone.
      case 'post':
      case 'task':
      case 'asset':
      case 'comment':
      default:
        return [...this.members.values()].flatMap((m) => [...m.readers]);
    }
  }

  /** Hands `event` to each of `readers` as their member may see it; `replay` when they are catching up on it. */
  private async tell(readers: Reader[], event: BusEvent, replay: boolean): Promise<void> {
    const change = event.body as Change;
    const by = 'by' in change ? change.by : null;
    const chosen = new Set(readers);
    // Framed once per member: their streams (tabs, devices) get the same text.
    const send = (member: Member, name: string, data: object) => {
      const frame = eventFrame(name, { ...data, by }, event.id);
      for (const reader of member.readers) if (chosen.has(reader)) reader.stream.write(frame);
    };
    switch (change.type) {
      case 'member': {
        const member = this.members.get(change.id);
        if (!replay) await this.reread([change.id], { eventId: event.id, by, reason: change.reason });
        else if (member && change.reason) send(member, 'access', { reason: change.reason });
        return;
      }
      case 'signout':
        if (!replay) this.signOut(change, event.id);
        return;
      case 'notification': {
        // None when the member is gone.
        const member = (await this.confirm(readers.filter((r) => r.memberId === change.memberId), event.id)).at(0);
        const told = member && (await this.deps.notifications.live(member.actor, change.id));
        if (told) send(member, 'notification', told);
        return;
      }
      case 'post':
      case 'task':
      case 'asset':
      case 'comment':
      default: {
        const members = await this.confirm(readers, event.id);
        const sights = await this.sights(change, members.map((m) => m.actor));
        members.forEach((member, i) => {
          const data = this.dataOf(change, sights[i]);
          if (data !== undefined) send(member, change.type, data);
        });
      }
    }
  }

  private sights(change: Exclude<Change, { type: 'notification' | 'member' | 'signout' }>, actors: Actor[]): Promise<Sight<unknown>[]> {
    switch (change.type) {
      case 'post':
        return this.deps.posts.sights(actors, change.id, change.was);
      case 'task':
        return this.deps.tasks.sights(actors, change.id, change.was);
      case 'asset':
        return this.deps.assets.sights(actors, change.id, change.was);
      case 'comment':
        return this.deps.comments.sights(actors, change.id, change.on);
    }
  }

  /** The event's data for one reader, by the shapes the pages read; undefined when they are told nothing. */
  private dataOf(change: Exclude<Change, { type: 'notification' | 'member' | 'signout' }>, sight: Sight<unknown>): object | undefined {
    if (sight === undefined) return undefined;
    if (change.type === 'comment') {
      const on = 'postId' in change.on ? { postId: change.on.postId } : { taskId: change.on.taskId };
      return sight === 'gone' ? { action: 'deleted', ...on, id: change.id } : { action: change.action, ...on, id: change.id, comment: sight.body };
    }
    if (sight === 'gone') return { id: change.id, action: 'deleted' };
    return { id: change.id, action: change.action, [change.type]: sight.body };
  }

  /**
   * The members of `readers`, each read again when its record is older than MEMBER_CONFIRM_MS;
   * those who no longer exist are gone, their streams closed.
   */
  private async confirm(readers: Reader[], eventId: string): Promise<Member[]> {
    const ids = [...new Set(readers.map((r) => r.memberId))];
    const now = Date.now();
    const stale = ids.filter((id) => {
      const member = this.members.get(id);
      return member !== undefined && now - member.readAt >= MEMBER_CONFIRM_MS;
    });
    if (stale.length > 0) await this.reread(stale, { eventId });
    const members = ids.map((id) => this.members.get(id)).filter((m): m is Member => m !== undefined);
    for (const member of members) if (member.untold) this.tellAccess(member, member.untold, eventId, null);
    return members;
  }

  /**
   * Reads members again and closes the streams they may no longer have (deleted, a bearer
   * token retired). A new role or brands is told now with `tell` (and `reason`, what the
   * change said of itself), else kept until the change's own word or the next event.
   */
  private async reread(
    ids: number[],
    opts: { tell?: boolean; eventId?: string; by?: number | null; reason?: 'role' | 'brands' } = {},
  ): Promise<void> {
    const here = ids.filter((id) => this.members.has(id));
    if (here.length === 0) return;
    const { eventId = this.position, by = null } = opts;
    const readAt = Date.now();
    const found = new Map((await this.deps.users.many(here)).map((u) => [u.id, u]));
    for (const id of here) {
      const member = this.members.get(id);
      if (!member) continue;
      const user = found.get(id);
      if (!user) {
        this.end(member, [...member.readers], 'deleted', eventId, by);
        continue;
      }
      const before = member.user;
      Object.assign(member, { user, actor: actorFor(user), readAt });
      // A bearer token ends with a new password or a sign-out; cookie sessions end by their own word (signOut).
      this.end(member, [...member.readers].filter((r) => r.session === undefined && r.tokenVersion !== user.tokenVersion), 'password', eventId, by);
      const seen = before.role !== user.role ? 'role' : sameBrands(before, user) ? undefined : 'brands';
      const reason = seen === 'role' || member.untold === 'role' ? 'role' : (seen ?? member.untold ?? opts.reason);
      if (!reason) continue;
      if (opts.tell === false) member.untold = reason;
      else this.tellAccess(member, reason, eventId, by);
    }
  }

  private tellAccess(member: Member, reason: 'role' | 'brands', eventId: string | undefined, by: number | null): void {
    member.untold = undefined;
    for (const reader of member.readers) reader.stream.send('access', { reason, by }, eventId);
  }

  /** Closes the streams of cookie sessions that ended. */
  private signOut(change: Extract<Change, { type: 'signout' }>, eventId: string): void {
    const member = this.members.get(change.memberId);
    if (!member) return;
    const ended = [...member.readers].filter(
      (r) => r.session !== undefined && (change.only !== undefined ? r.session === change.only : r.session !== change.keep),
    );
    this.end(member, ended, 'password', eventId, null);
  }

  private end(member: Member, readers: Reader[], reason: AccessReason, eventId: string | undefined, by: number | null): void {
    for (const reader of readers) {
      reader.stream.send('access', { reason, by }, eventId);
      reader.stream.end();
      member.readers.delete(reader);
    }
    if (member.readers.size === 0) this.members.delete(member.user.id);
  }

  /** The channel cannot say what was missed: every page here loads everything again. */
  private async lostTrack(): Promise<void> {
    this.position = await this.deps.channel.latest().catch(() => undefined);
    for (const member of this.members.values()) for (const reader of member.readers) reader.stream.send('reset', {}, this.position);
  }
}

function sameBrands(a: UserRecord, b: UserRecord): boolean {
  return a.brandIds.length === b.brandIds.length && a.brandIds.every((id) => b.brandIds.includes(id));
}
