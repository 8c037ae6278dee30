import type { Actor } from '../access';
import type { Language, Role } from '../domain';

/** A workspace user as stored, without the password hash (that has its own readers). */
export interface UserRecord {
  id: number;
  name: string;
  email: string;
  role: Role;
  avatar: string | null;
  jobTitle: string | null;
  phone: string | null;
  language: Language;
  mustChangePassword: boolean;
  profileCompletedAt: string | null;
  onboardingCompletedAt: string | null;
  tokenVersion: number;
  /**
   * Random and this member's alone, for good: tokens and cookie sessions carry it besides
   * the id, so they can never come to speak for another member.
   */
  tokenKey: string;
  /**
   * Names the password a cookie session was opened under, and changes with every new
   * password: a digest of the stored hash, which tells nothing of the password itself.
   */
  passwordStamp: string;
  createdAt: string;
  /** While invited (no password of their own yet): when the latest invitation was sent. */
  invitedAt: string | null;
  /** The IANA zone their days (the daily digest) run in; null: the workspace's. */
  timeZone: string | null;
  brandIds: number[];
}

/** Who a member is to the rules: their id, role and brands, as their record says now. */
export function actorFor(user: UserRecord): Actor {
  return { id: user.id, role: user.role, brandIds: user.brandIds };
}

/** The notice topic of a member's record or brands; without an id, every member's. */
export const MEMBER_TOPIC = 'workspace.user';

/**
 * How long a cached member stands before it is read again, counted from when its read
 * began. A change (role, brands, deletion, password) is in force on every instance within
 * this long of its commit even when the notice about it never arrives.
 */
export const MEMBER_CONFIRM_MS = 1_000;
