import { isManagerOrAbove, isSuperadmin, type Actor } from '../access';
import type { Role } from '../domain';
import type { WorkspaceDb } from '../records';
import { isoTime } from '../shared/values';
import type { UserRecord } from '../shared/member';

/** An invitation's link works for seven days from when it was sent. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** What a manager or superadmin sees of a member's pending invitation: never its link. */
export interface InvitationBody {
  sentAt: string;
  expiresAt: string;
  expired: boolean;
  /** What the viewer may do with it, by the rule the routes enforce. */
  can: { resend: boolean; revoke: boolean };
}

/** The moment an invitation sent at `sentAt` stops working. */
export function invitationExpiry(sentAt: string): number {
  return Date.parse(sentAt) + INVITATION_TTL_MS;
}

/** Pending invitations are the team's managers' business: contributors see members once they have joined. */
export function seesInvitations(actor: Actor): boolean {
  return isManagerOrAbove(actor);
}

/**
 * Who may resend or revoke an invitation: whoever may add that member. A superadmin anyone;
 * a manager a contributor whose brands are all the manager's own.
 */
export function mayManageInvitation(actor: Actor, member: { role: Role; brandIds: readonly number[] }): boolean {
  if (isSuperadmin(actor)) return true;
  return actor.role === 'manager' && member.role === 'contributor' && member.brandIds.length > 0 && member.brandIds.every((id) => actor.brandIds.includes(id));
}

export function invitationOf(actor: Actor, user: UserRecord, now: number): InvitationBody | null {
  if (user.invitedAt === null) return null;
  const expiresAt = invitationExpiry(user.invitedAt);
  const manage = mayManageInvitation(actor, user);
  return { sentAt: user.invitedAt, expiresAt: isoTime(expiresAt), expired: expiresAt <= now, can: { resend: manage, revoke: manage } };
}

/** The links an invitation mail carries: a new invitation ends the older one's at once. */
export interface InvitationLinks {
  retire(userId: number, purpose: 'invitation', db: WorkspaceDb): Promise<void>;
}
