import type { Generated } from 'kysely';
import type { OutboxTables } from '../platform/mail/outbox';
import type {
  BudgetKind,
  CampaignStatus,
  Language,
  LinkPurpose,
  NotificationDelivery,
  NotificationKind,
  Platform,
  PostEventKind,
  PostStatus,
  ProjectStatus,
  Role,
  TaskPriority,
  TaskStatus,
  TaskVisibility,
} from './domain';

/**
 * Application B's tables as the query builder sees them, on either engine. Moments are ISO
 * 8601 text in UTC (`2026-01-15T12:00:00.000Z`) and days `YYYY-MM-DD` on both: PostgreSQL
 * keeps them as timestamptz and date, and they are read back as that same text.
 *
 * A column that holds a word of the vocabulary has that word's type (src/workspace/domain.ts):
 * only validated input is written, and some of those columns are also checked by the database.
 */
export interface WorkspaceTables {
  users: {
    id: Generated<number>;
    name: string;
    email: string;
    password_hash: string;
    role: Role;
    avatar: string | null;
    job_title: string | null;
    phone: string | null;
    language: Generated<Language>;
    /** 0 or 1 when written; read back as 0/1 (SQLite) or false/true (PostgreSQL). */
    must_change_password: Generated<number | boolean>;
    profile_completed_at: string | null;
    onboarding_completed_at: string | null;
    token_version: Generated<number>;
    created_at: string;
    token_key: string;
    /** While invited: when the latest invitation was sent; null once a password is chosen. */
    invited_at: string | null;
    /** IANA; null: the workspace's. */
    time_zone: string | null;
  };
  brands: { id: Generated<number>; name: string; created_at: string };
  user_brands: { user_id: number; brand_id: number };
  /** express-session's store: data is the session as JSON text, expires_at in epoch milliseconds. */
  sessions: { sid: string; user_id: number | null; data: string; expires_at: number };
  campaigns: {
    id: Generated<number>;
    brand_id: number;
    name: string;
    description: string | null;
    start_date: string | null;
    end_date: string | null;
    status: CampaignStatus;
    owner_id: number | null;
    created_at: string;
    updated_at: string;
  };
  tracks: {
    id: Generated<number>;
    campaign_id: number;
    name: string;
    channel: string | null;
    start_date: string | null;
    end_date: string | null;
    goal: string | null;
    created_at: string;
    updated_at: string;
  };
  posts: {
    id: Generated<number>;
    brand_id: number;
    campaign_id: number | null;
    title: string;
    caption: string | null;
    platform: Platform | null;
    status: PostStatus;
    scheduled_at: string | null;
    publication_url: string | null;
    owner_id: number | null;
    created_at: string;
    updated_at: string;
  };
  post_attachments: { post_id: number; asset_id: number; position: number };
  assets: {
    id: Generated<number>;
    brand_id: number;
    campaign_id: number | null;
    post_id: number | null;
    uploaded_by: number | null;
    name: string;
    mime_type: string;
    size: number;
    file_key: string;
    thumbnail_key: string | null;
    created_at: string;
  };
  projects: {
    id: Generated<number>;
    brand_id: number;
    name: string;
    description: string | null;
    status: ProjectStatus;
    start_date: string | null;
    end_date: string | null;
    owner_id: number | null;
    created_at: string;
    updated_at: string;
  };
  tasks: {
    id: Generated<number>;
    brand_id: number;
    title: string;
    description: string | null;
    status: TaskStatus;
    priority: TaskPriority;
    due_date: string | null;
    visibility: TaskVisibility;
    assignee_id: number | null;
    project_id: number | null;
    campaign_id: number | null;
    post_id: number | null;
    owner_id: number | null;
    created_at: string;
    updated_at: string;
  };
  budget_entries: {
    id: Generated<number>;
    brand_id: number;
    campaign_id: number;
    kind: BudgetKind;
    category: string;
    description: string | null;
    amount: number;
    currency: string;
    entry_date: string;
    created_by: number | null;
    created_at: string;
    updated_at: string;
  };
  /** On a post or on a task, never both. */
  comments: { id: Generated<number>; post_id: number | null; task_id: number | null; author_id: number | null; body: string; created_at: string };
  post_events: {
    id: Generated<number>;
    post_id: number;
    actor_id: number | null;
    kind: PostEventKind;
    from_status: PostStatus | null;
    to_status: PostStatus | null;
    /** The fields an edit changed, comma-separated; null for other events. */
    fields: string | null;
    created_at: string;
  };
  notifications: {
    id: Generated<number>;
    user_id: number;
    kind: NotificationKind;
    post_id: number | null;
    task_id: number | null;
    actor_id: number | null;
    /** How many alike happenings of one request it stands for. */
    count: Generated<number>;
    created_at: string;
    read_at: string | null;
  };
  mail_outbox: OutboxTables['mail_outbox'];
  /** Single-use links: `token_hash` is the SHA-256 of the token in the link, in hex. */
  link_tokens: {
    id: Generated<number>;
    user_id: number;
    purpose: LinkPurpose;
    token_hash: string;
    expires_at: string;
    created_at: string;
    used_at: string | null;
  };
  /**
   * A member's choice for one kind of notification; a kind without a row has its default.
   * `kind` stays text: a row may name a kind the workspace no longer has, which readers skip.
   */
  notification_settings: { user_id: number; kind: string; delivery: NotificationDelivery };
  /** The local day of a member's last daily digest, and the moment it covered notifications up to (null: none yet). */
  notification_digests: { user_id: number; last_day: string; last_at: string | null };
}

/** Every table of the workspace, parents before children. */
export const WORKSPACE_TABLE_NAMES = [
  'users',
  'brands',
  'user_brands',
  'sessions',
  'campaigns',
  'tracks',
  'posts',
  'assets',
  'post_attachments',
  'projects',
  'tasks',
  'budget_entries',
  'comments',
  'post_events',
  'notifications',
  'mail_outbox',
  'link_tokens',
  'notification_settings',
  'notification_digests',
] as const satisfies readonly (keyof WorkspaceTables)[];
