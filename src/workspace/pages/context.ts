import { isSuperadmin, type Actor } from '../access';
import { mayWriteBudget } from '../budget/service';
import { mayRunCampaigns } from '../campaigns/service';
import { mayAddMembers, rolesGivenBy, toUserBody } from '../members/service';
import { mayMovePost, newPostStatuses } from '../posts/service';
import { mayRunProjects } from '../projects/service';
import type { UserRecord } from '../shared/member';

// What every workspace page hands its scripts besides the vocabulary; page scripts type it from here.

/**
 * What the user may do before there is a record to ask: what the pages offer, decided by the
 * rules the services enforce. What they may do with a record comes with it, as its `can`.
 */
export function pageCapabilities(actor: Actor) {
  return {
    /** Users, brands and the outbox. */
    administer: isSuperadmin(actor),
    createCampaign: mayRunCampaigns(actor),
    createProject: mayRunProjects(actor),
    addBudgetEntry: mayWriteBudget(actor),
    addMembers: mayAddMembers(actor),
    /** The roles a new member may be given by the user, from the most powerful down. */
    memberRoles: rolesGivenBy(actor),
    /** The statuses a new post may start in. */
    newPostStatuses: newPostStatuses(actor),
    /** Approve, schedule and publish posts. */
    approvePosts: mayMovePost(actor, 'review', 'approved'),
  };
}

export type PageCapabilities = ReturnType<typeof pageCapabilities>;

/** What page scripts may know of the signed-in user: nothing that authenticates. */
export type PageUser = ReturnType<typeof clientUser>;

export function clientUser(user: UserRecord) {
  const body = toUserBody(user);
  return {
    id: body.id,
    name: body.name,
    role: body.role,
    avatar: body.avatar,
    jobTitle: body.jobTitle,
    phone: body.phone,
    email: body.email,
    language: body.language,
    brandIds: body.brandIds,
    onboardingCompleted: body.onboardingCompleted,
  };
}
