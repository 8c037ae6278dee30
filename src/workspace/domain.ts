/**
 * The workspace's vocabulary, defined once: request schemas, repositories and page scripts
 * (which receive it with each page, see pages/render.ts) all read these lists.
 */

import { LANGUAGES, type Language } from '../platform/languages';

/** The languages of the workspace's pages and mail: those of the platform, named here with the rest of the vocabulary. */
export { LANGUAGES, type Language };

/** From the most powerful down: a new member's form starts at the last. */
export const ROLES = ['superadmin', 'manager', 'contributor'] as const;
export type Role = (typeof ROLES)[number];

export const CAMPAIGN_STATUSES = ['planned', 'active', 'paused', 'completed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** In board order, from a first idea to a published post. */
export const POST_STATUSES = ['idea', 'draft', 'review', 'approved', 'scheduled', 'published'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

/**
 * The statuses a post's author moves it among; only managers and superadmins move a post to
 * the others (approved, scheduled, published).
 */
export const AUTHOR_POST_STATUSES = ['idea', 'draft', 'review'] as const satisfies readonly PostStatus[];

/** The statuses an author may still take their post out of: their own, and an approval they withdraw. */
export const AUTHOR_MOVABLE_POST_STATUSES = [...AUTHOR_POST_STATUSES, 'approved'] as const satisfies readonly PostStatus[];

/** The statuses a reviewer has passed: what the audience will see is settled. */
export const APPROVED_POST_STATUSES = ['approved', 'scheduled'] as const satisfies readonly PostStatus[];

/** The statuses a reviewer sends a post back from (to its author's working statuses, `idea` and `draft`). */
export const REVIEWED_POST_STATUSES = ['review', ...APPROVED_POST_STATUSES] as const satisfies readonly PostStatus[];

/** Where a post sent back to its author goes: the statuses of its author's work before review. */
export const SENT_BACK_POST_STATUSES = ['idea', 'draft'] as const satisfies readonly PostStatus[];

/**
 * What a post's history records: who did it and when, for moves the two statuses, and for
 * edits the fields changed. `reopened`: an author's edit of an approved or scheduled post
 * took it back to review.
 */
export const POST_EVENT_KINDS = ['created', 'moved', 'edited', 'reopened', 'approved', 'published', 'sent_back'] as const;
export type PostEventKind = (typeof POST_EVENT_KINDS)[number];

/** The fields of a post an edit is named by in its history; each is part of what a reviewer approves. */
export const POST_FIELDS = ['title', 'caption', 'platform', 'attachments', 'campaignId', 'brandId', 'scheduledAt', 'publicationUrl'] as const;
export type PostField = (typeof POST_FIELDS)[number];

export const NOTIFICATION_KINDS = ['mentioned', 'assigned', 'review_requested', 'approved', 'sent_back', 'commented'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/**
 * How a member hears of a kind of notification besides the bell: not at all (`app`), by mail
 * at once (`email`), or in the daily digest of what is still unread (`digest`).
 */
export const NOTIFICATION_DELIVERIES = ['app', 'email', 'digest'] as const;
export type NotificationDelivery = (typeof NOTIFICATION_DELIVERIES)[number];

/** Until a member chooses: what waits on them by mail at once, the rest in the digest. */
export const DEFAULT_NOTIFICATION_DELIVERIES: Readonly<Record<NotificationKind, NotificationDelivery>> = {
  mentioned: 'email',
  assigned: 'digest',
  review_requested: 'email',
  approved: 'digest',
  sent_back: 'digest',
  commented: 'digest',
};

/** The longest comment, in characters. */
export const COMMENT_MAX_LENGTH = 10_000;

export const PLATFORMS = ['instagram', 'facebook', 'x', 'tiktok', 'linkedin', 'youtube', 'snapchat', 'website', 'email', 'other'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const PROJECT_STATUSES = ['planned', 'active', 'paused', 'completed'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export const TASK_STATUSES = ['todo', 'doing', 'done'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/** `private`: seen by its creator, its assignee and superadmins; `brand`: by the brand's members. */
export const TASK_VISIBILITIES = ['private', 'brand'] as const;
export type TaskVisibility = (typeof TASK_VISIBILITIES)[number];

/** Which tasks a list shows: mine (assigned to or created by me), assigned, created, or all I may see. */
export const TASK_SCOPES = ['mine', 'assigned', 'created', 'all'] as const;
export type TaskScope = (typeof TASK_SCOPES)[number];

/** The tabs of the Tasks page (my tasks, assigned by me, all: docs/decisions.md), the first its default. */
export const TASKS_PAGE_SCOPES = ['assigned', 'created', 'all'] as const satisfies readonly TaskScope[];

/** When a task is due, as lists filter it: late and not done, within the next seven days, or undated. */
export const TASK_DUE_FILTERS = ['overdue', 'week', 'none'] as const;
export type TaskDueFilter = (typeof TASK_DUE_FILTERS)[number];

/** How a task list is ordered: by due date (undated last; the default), priority (urgent first), newest, or title. */
export const TASK_SORTS = ['due', 'priority', 'newest', 'title'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

export const BUDGET_KINDS = ['planned', 'spent'] as const;
export type BudgetKind = (typeof BUDGET_KINDS)[number];

/** What the workspace sends by mail. */
export const MAIL_KINDS = ['invitation', 'password_reset', 'password_changed', 'notification', 'digest'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** What a single-use link opens. */
export const LINK_PURPOSES = ['invitation', 'password_reset'] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

/** What page scripts receive of the vocabulary. */
export const DOMAIN = {
  languages: LANGUAGES,
  roles: ROLES,
  campaignStatuses: CAMPAIGN_STATUSES,
  postStatuses: POST_STATUSES,
  postEventKinds: POST_EVENT_KINDS,
  notificationKinds: NOTIFICATION_KINDS,
  notificationDeliveries: NOTIFICATION_DELIVERIES,
  commentMaxLength: COMMENT_MAX_LENGTH,
  platforms: PLATFORMS,
  projectStatuses: PROJECT_STATUSES,
  taskStatuses: TASK_STATUSES,
  taskPriorities: TASK_PRIORITIES,
  taskVisibilities: TASK_VISIBILITIES,
  taskScopes: TASK_SCOPES,
  taskDueFilters: TASK_DUE_FILTERS,
  taskSorts: TASK_SORTS,
  budgetKinds: BUDGET_KINDS,
} as const;

/** The kinds of record a search looks through, in the order their groups are searched. */
export const SEARCH_TYPES = ['campaign', 'post', 'task', 'project', 'asset'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
