import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { columnTypes, idColumn, madeByLegacySql, type SchemaStep } from '../platform/db/migrate';

/** A reference that keeps the row when its target goes. */
const setNullOn = (target: string) => (c: ColumnDefinitionBuilder) => c.references(target).onDelete('set null');

/**
 * Application B's schema, for both engines, in order of application. Step names are never
 * changed or reused: each database records the names it has applied.
 */
export const workspaceMigrations: Record<string, SchemaStep> = {
  async '2026_11_24_001_schema'(db, kind) {
    if (await madeByLegacySql(db, kind)) return;
    const t = columnTypes(kind);
    const bigint = kind === 'postgres' ? 'bigint' : 'integer';

    // Emails are stored lower-cased, and the database holds them unique case-insensitively too.
    await db.schema
      .createTable('users')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('superadmin', 'manager', 'contributor')`))
      .addColumn('avatar', 'text')
      .addColumn('job_title', 'text')
      .addColumn('phone', 'text')
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en').check(sql`language IN ('en', 'ar')`))
      .addColumn('must_change_password', t.flag, (c) => c.notNull().defaultTo(kind === 'postgres' ? sql`false` : 0))
      .addColumn('profile_completed_at', t.moment)
      .addColumn('onboarding_completed_at', t.moment)
      .addColumn('token_version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', t.moment, (c) => c.notNull())
      // Random and the member's alone, for good: tokens and cookie sessions carry it.
      .addColumn('token_key', 'text', (c) => c.notNull().unique())
      .execute();
    await db.schema.createIndex('users_email_lower').unique().on('users').column(sql`lower(email)`).execute();

    await db.schema
      .createTable('brands')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('user_brands')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_brands_pkey', ['user_id', 'brand_id'])
      .execute();
    await db.schema.createIndex('user_brands_brand').on('user_brands').column('brand_id').execute();

    // Cookie sessions (express-session's store). The user is a column so that a password
    // change or a deleted account can end that user's sessions.
    await db.schema
      .createTable('sessions')
      .addColumn('sid', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('expires_at', bigint, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expiry').on('sessions').column('expires_at').execute();

    // A brand that still holds content cannot be deleted: references to brands have no action.
    await db.schema
      .createTable('campaigns')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('start_date', t.day)
      .addColumn('end_date', t.day)
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'integer', setNullOn('users.id'))
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addColumn('updated_at', t.moment, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('campaigns_brand').on('campaigns').column('brand_id').execute();
    await db.schema.createIndex('campaigns_owner').on('campaigns').column('owner_id').execute();

    // Deleting a campaign removes its tracks and posts in the same transaction, by the
    // service's own statements, so that it can count them.
    await db.schema
      .createTable('tracks')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('campaign_id', 'integer', (c) => c.notNull().references('campaigns.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('channel', 'text')
      .addColumn('start_date', t.day)
      .addColumn('end_date', t.day)
      .addColumn('goal', 'text')
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addColumn('updated_at', t.moment, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('tracks_campaign').on('tracks').column('campaign_id').execute();

    await db.schema
      .createTable('posts')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id'))
      .addColumn('campaign_id', 'integer', (c) => c.references('campaigns.id'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('caption', 'text')
      .addColumn('platform', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('scheduled_at', t.moment)
      .addColumn('publication_url', 'text')
      .addColumn('owner_id', 'integer', setNullOn('users.id'))
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addColumn('updated_at', t.moment, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('posts_brand_created').on('posts').columns(['brand_id', 'created_at']).execute();
    await db.schema.createIndex('posts_owner').on('posts').column('owner_id').execute();
    // The newest-first lists read these in order instead of sorting: every post (a
    // superadmin's list) and one campaign's posts.
    await db.schema.createIndex('posts_created').on('posts').columns(['created_at', 'id']).execute();
    await db.schema.createIndex('posts_campaign_created').on('posts').columns(['campaign_id', 'created_at']).execute();

    // Uploaded files. The bytes live in the file store under file_key (and thumbnail_key for
    // images). A deleted campaign, post or member leaves the asset in its brand.
    await db.schema
      .createTable('assets')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id'))
      .addColumn('campaign_id', 'integer', setNullOn('campaigns.id'))
      .addColumn('post_id', 'integer', setNullOn('posts.id'))
      .addColumn('uploaded_by', 'integer', setNullOn('users.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('mime_type', 'text', (c) => c.notNull())
      .addColumn('size', bigint, (c) => c.notNull().check(sql`size >= 0`))
      .addColumn('file_key', 'text', (c) => c.notNull().unique())
      .addColumn('thumbnail_key', 'text', (c) => c.unique())
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('assets_brand_created').on('assets').columns(['brand_id', 'created_at']).execute();
    await db.schema.createIndex('assets_created').on('assets').column('created_at').execute();
    await db.schema.createIndex('assets_campaign').on('assets').column('campaign_id').execute();
    await db.schema.createIndex('assets_post').on('assets').column('post_id').execute();
    await db.schema.createIndex('assets_uploader').on('assets').column('uploaded_by').execute();

    // Asset ids in their order on the post. An asset still attached cannot be deleted: the
    // asset feature detaches it first.
    await db.schema
      .createTable('post_attachments')
      .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('asset_id', 'integer', (c) => c.notNull().references('assets.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('post_attachments_pkey', ['post_id', 'asset_id'])
      .execute();
    await db.schema.createIndex('post_attachments_asset').on('post_attachments').column('asset_id').execute();

    await db.schema
      .createTable('projects')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('start_date', t.day)
      .addColumn('end_date', t.day)
      .addColumn('owner_id', 'integer', setNullOn('users.id'))
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addColumn('updated_at', t.moment, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('projects_brand_created').on('projects').columns(['brand_id', 'created_at']).execute();
    await db.schema.createIndex('projects_owner').on('projects').column('owner_id').execute();

    // A private task is seen only by its owner, its assignee and superadmins.
    await db.schema
      .createTable('tasks')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('todo', 'doing', 'done')`))
      .addColumn('priority', 'text', (c) => c.notNull().check(sql`priority IN ('low', 'medium', 'high', 'urgent')`))
      .addColumn('due_date', t.day)
      .addColumn('visibility', 'text', (c) => c.notNull().check(sql`visibility IN ('private', 'brand')`))
      .addColumn('assignee_id', 'integer', setNullOn('users.id'))
      .addColumn('project_id', 'integer', setNullOn('projects.id'))
      .addColumn('campaign_id', 'integer', setNullOn('campaigns.id'))
      .addColumn('post_id', 'integer', setNullOn('posts.id'))
      .addColumn('owner_id', 'integer', setNullOn('users.id'))
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addColumn('updated_at', t.moment, (c) => c.notNull())
      .execute();
    for (const [name, columns] of [
      ['tasks_brand_due', ['brand_id', 'due_date']],
      ['tasks_assignee', ['assignee_id']],
      ['tasks_owner', ['owner_id']],
      ['tasks_project', ['project_id']],
      ['tasks_campaign', ['campaign_id']],
      ['tasks_post', ['post_id']],
    ] as const) {
      await db.schema.createIndex(name).on('tasks').columns([...columns]).execute();
    }

    // Money in integer minor units (cents, fils), one currency per campaign. An entry belongs
    // to its campaign and goes with it.
    await db.schema
      .createTable('budget_entries')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('brand_id', 'integer', (c) => c.notNull().references('brands.id'))
      .addColumn('campaign_id', 'integer', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('planned', 'spent')`))
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('amount', bigint, (c) => c.notNull().check(sql`amount >= 0`))
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('entry_date', t.day, (c) => c.notNull())
      .addColumn('created_by', 'integer', setNullOn('users.id'))
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addColumn('updated_at', t.moment, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('budget_entries_campaign').on('budget_entries').columns(['campaign_id', 'category']).execute();
    await db.schema.createIndex('budget_entries_brand').on('budget_entries').column('brand_id').execute();
    await db.schema.createIndex('budget_entries_creator').on('budget_entries').column('created_by').execute();
  },

  // SQLite's integers have 64 bits and PostgreSQL's `integer` 32: an id past 2^31 in a path
  // or a filter was an unknown record on one and a refused statement (500) on the other.
  async '2026_11_25_001_wide_ids'(db, kind) {
    if (kind !== 'postgres') return;
    for (const [table, columns] of WIDE_IDS) {
      for (const column of columns) await db.schema.alterTable(table).alterColumn(column, (c) => c.setDataType('bigint')).execute();
    }
  },
  /**
   * The conversation around posts and tasks: comments, each post's history, and the
   * notifications members receive. Rows go with their post, task or member; an author who
   * leaves keeps their words (author set null).
   */
  async '2026_11_25_002_conversation'(db, kind) {
    const t = columnTypes(kind);
    const ref = kind === 'postgres' ? 'bigint' : 'integer';
    const goesWith = (target: string) => (c: ColumnDefinitionBuilder) => c.references(target).onDelete('cascade');
    await db.schema
      .createTable('comments')
      .addColumn('id', ref, idColumn(kind))
      .addColumn('post_id', ref, goesWith('posts.id'))
      .addColumn('task_id', ref, goesWith('tasks.id'))
      .addColumn('author_id', ref, setNullOn('users.id'))
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addCheckConstraint('comments_one_subject', sql`(post_id IS NULL) <> (task_id IS NULL)`)
      .execute();
    await db.schema.createIndex('comments_post').on('comments').columns(['post_id', 'id']).execute();
    await db.schema.createIndex('comments_task').on('comments').columns(['task_id', 'id']).execute();

    await db.schema
      .createTable('post_events')
      .addColumn('id', ref, idColumn(kind))
      .addColumn('post_id', ref, (c) => c.notNull().references('posts.id').onDelete('cascade'))
      .addColumn('actor_id', ref, setNullOn('users.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('from_status', 'text')
      .addColumn('to_status', 'text')
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('post_events_post').on('post_events').columns(['post_id', 'id']).execute();

    await db.schema
      .createTable('notifications')
      .addColumn('id', ref, idColumn(kind))
      .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('post_id', ref, goesWith('posts.id'))
      .addColumn('task_id', ref, goesWith('tasks.id'))
      .addColumn('actor_id', ref, setNullOn('users.id'))
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addColumn('read_at', t.moment)
      .execute();
    await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute();
  },
  /**
   * The outbox: each mail is a row written with the change that causes it, then sent by a
   * worker. A member's mail goes with them (what it would say is for them alone).
   */
  async '2026_11_26_010_mail_outbox'(db, kind) {
    const t = columnTypes(kind);
    const ref = kind === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', ref, idColumn(kind))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('user_id', ref, (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending', 'sent', 'failed', 'skipped')`))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('next_attempt_at', t.moment, (c) => c.notNull())
      .addColumn('lease_until', t.moment)
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addColumn('sent_at', t.moment)
      .execute();
    // The worker's one question: what is due now.
    await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
  },
  /**
   * Single-use links (an invitation, a password reset): only a digest of each is kept, so the
   * table says nothing that would open an account.
   */
  async '2026_11_26_011_link_tokens'(db, kind) {
    const t = columnTypes(kind);
    const ref = kind === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('link_tokens')
      .addColumn('id', ref, idColumn(kind))
      .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose IN ('invitation', 'password_reset')`))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', t.moment, (c) => c.notNull())
      .addColumn('created_at', t.moment, (c) => c.notNull())
      .addColumn('used_at', t.moment)
      .execute();
    await db.schema.createIndex('link_tokens_user').on('link_tokens').columns(['user_id', 'purpose']).execute();
  },
  /**
   * Why a post changed: an edit names the fields it changed (comma-separated, in the
   * vocabulary's order), so its history can say what took an approved post back to review.
   * A notification stands for `count` alike happenings of one request (a bulk move tells
   * each member once).
   */
  async '2026_11_26_020_approval_trail'(db) {
    await db.schema.alterTable('post_events').addColumn('fields', 'text').execute();
    await db.schema.alterTable('notifications').addColumn('count', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  },
  /**
   * Notification mail: each member's time zone (null: the workspace's), how they want each
   * kind of notification (no row: the kind's default), and the day and moment of their last
   * daily digest, which the schedulers of every instance move at most once a local day.
   */
  async '2026_11_26_050_notification_mail'(db, kind) {
    const t = columnTypes(kind);
    const ref = kind === 'postgres' ? 'bigint' : 'integer';
    await db.schema.alterTable('users').addColumn('time_zone', 'text').execute();
    await db.schema
      .createTable('notification_settings')
      .addColumn('user_id', ref, (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('delivery', 'text', (c) => c.notNull().check(sql`delivery IN ('app', 'email', 'digest')`))
      .addPrimaryKeyConstraint('notification_settings_pkey', ['user_id', 'kind'])
      .execute();
    await db.schema
      .createTable('notification_digests')
      .addColumn('user_id', ref, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('last_day', t.day, (c) => c.notNull())
      .addColumn('last_at', t.moment)
      .execute();
    // A digest reads a member's unread notifications since a moment.
    await db.schema.createIndex('notifications_unread').on('notifications').columns(['user_id', 'read_at', 'created_at']).execute();
  },
  /**
   * Invited members: set while a member added without a password has not yet chosen one
   * through the mailed link (the moment of the latest invitation); null for everyone else.
   */
  async '2026_11_26_060_invitations'(db, kind) {
    await db.schema.alterTable('users').addColumn('invited_at', columnTypes(kind).moment).execute();
  },
};

/** Every id and reference to one in the workspace's tables at the time of the step that widens them. */
const WIDE_IDS: [string, string[]][] = [
  ['users', ['id']],
  ['brands', ['id']],
  ['user_brands', ['user_id', 'brand_id']],
  ['sessions', ['user_id']],
  ['campaigns', ['id', 'brand_id', 'owner_id']],
  ['tracks', ['id', 'campaign_id']],
  ['posts', ['id', 'brand_id', 'campaign_id', 'owner_id']],
  ['assets', ['id', 'brand_id', 'campaign_id', 'post_id', 'uploaded_by']],
  ['post_attachments', ['post_id', 'asset_id']],
  ['projects', ['id', 'brand_id', 'owner_id']],
  ['tasks', ['id', 'brand_id', 'assignee_id', 'project_id', 'campaign_id', 'post_id', 'owner_id']],
  ['budget_entries', ['id', 'brand_id', 'campaign_id', 'created_by']],
];
