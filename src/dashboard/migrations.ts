import { sql } from 'kysely';
import { columnTypes, idColumn, madeByLegacySql, type SchemaStep } from '../platform/db/migrate';

/**
 * Application A's schema, for both engines, in order of application. Step names are never
 * changed or reused: each database records the names it has applied.
 */
export const dashboardMigrations: Record<string, SchemaStep> = {
  async '2026_11_24_001_schema'(db, kind) {
    if (await madeByLegacySql(db, kind)) return;
    const t = columnTypes(kind);
    // The embedded user records, with the fields of the Airtable table "Users". PINs are
    // unique in the database too, whatever code writes them.
    await db.schema
      .createTable('users')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('pin', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('viewer'))
      .addColumn('allowed_museums', 'text')
      .addColumn('allowed_channels', 'text')
      .execute();
    // Daily visit figures: one row per date, museum, sales channel and visitor district.
    // The key is the natural one, so an import that repeats a row replaces it.
    let visits = db.schema
      .createTable('visits')
      .addColumn('date', t.day, (c) => c.notNull())
      .addColumn('museum', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('district', 'text', (c) => c.notNull())
      .addColumn('visitors', 'integer', (c) => c.notNull().check(sql`visitors >= 0`))
      .addColumn('revenue', t.real, (c) => c.notNull().check(sql`revenue >= 0`))
      .addPrimaryKeyConstraint('visits_pkey', ['date', 'museum', 'channel', 'district']);
    if (kind === 'sqlite') visits = visits.modifyEnd(sql`WITHOUT ROWID`);
    await visits.execute();
    // Rows of an import in progress: filled while the upload streams in, then moved into
    // visits in one transaction, so a rejected file leaves visits untouched. PostgreSQL
    // keeps no log of it, as a crash mid-import discards the import anyway.
    let staging = kind === 'postgres' ? db.schema.createTable('visits_import').modifyFront(sql`UNLOGGED`) : db.schema.createTable('visits_import');
    staging = staging
      .addColumn('date', t.day, (c) => c.notNull())
      .addColumn('museum', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('district', 'text', (c) => c.notNull())
      .addColumn('visitors', 'integer', (c) => c.notNull())
      .addColumn('revenue', t.real, (c) => c.notNull())
      .addPrimaryKeyConstraint('visits_import_pkey', ['date', 'museum', 'channel', 'district']);
    if (kind === 'sqlite') staging = staging.modifyEnd(sql`WITHOUT ROWID`);
    await staging.execute();
    // Bumped by every write to visits, so each process can tell that its in-memory copy is stale.
    await db.schema
      .createTable('visits_version')
      .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
      .addColumn('version', 'integer', (c) => c.notNull())
      .execute();
    await db.insertInto('visits_version').values({ id: 1, version: 0 }).execute();
    await db.schema
      .createTable('seasons')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('start_date', t.day, (c) => c.notNull())
      .addColumn('end_date', t.day, (c) => c.notNull())
      .addCheckConstraint('seasons_in_order', sql`end_date >= start_date`)
      .execute();
    // The highest user id a store of user records has handed out, for stores (Airtable) that
    // number records themselves and would otherwise reuse a deleted record's id.
    await db.schema
      .createTable('id_marks')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('last_id', 'integer', (c) => c.notNull())
      .execute();
  },
  /** Who did what in the dashboard's administration, newest read first; never a PIN. */
  async '2026_11_25_001_audit_events'(db, kind) {
    await db.schema
      .createTable('audit_events')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('at', kind === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target', 'text')
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .addColumn('ip', 'text')
      .execute();
    await db.schema.createIndex('audit_events_action').on('audit_events').columns(['action', 'id']).execute();
  },
  /**
   * On PostgreSQL the import's staging table loses its key and numbers its rows instead:
   * staging becomes a bare COPY, and the move keeps the last row of each key in its one pass
   * (see BulkRows.stage). SQLite stages into the keyed table as before.
   */
  async '2026_11_25_002_unkeyed_staging'(db, kind) {
    if (kind !== 'postgres') return;
    await db.schema.alterTable('visits_import').dropConstraint('visits_import_pkey').execute();
    await db.schema.alterTable('visits_import').addColumn('seq', 'bigint', (c) => c.generatedAlwaysAsIdentity()).execute();
  },
  /**
   * The name of the user or season an audit event is about, as it was then: the record may be
   * renamed or deleted later, and the trail must still read well.
   */
  async '2026_11_25_003_audit_target_name'(db) {
    await db.schema.alterTable('audit_events').addColumn('target_name', 'text').execute();
  },
  /**
   * A stamp per user record that moves with every change to the user's access, PIN or
   * existence, so that each instance can tell a session's copy of the record is out of date
   * without a word from the others (see SessionConfirmation). `ended` is the stamp of the
   * last change that ended every session made before it (a new PIN, a deletion).
   */
  async '2026_12_01_001_access_stamps'(db) {
    await db.schema
      .createTable('access_stamps')
      .addColumn('user_id', 'integer', (c) => c.primaryKey())
      .addColumn('stamp', 'integer', (c) => c.notNull())
      .addColumn('ended', 'integer', (c) => c.notNull())
      .execute();
  },
  /**
   * Views saved from the Dashboard and Comparison pages: each keeps the page's address, never
   * figures, so whoever opens it sees what their own access allows. Moments are ISO text.
   */
  async '2026_12_10_001_saved_views'(db, kind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable('saved_views')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('page', 'text', (c) => c.notNull())
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('shared', t.flag, (c) => c.notNull())
      .addColumn('owner_user_id', 'integer')
      .addColumn('owner_name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('saved_views_owner').on('saved_views').columns(['owner_user_id', 'id']).execute();
  },
  /** Notes that administrators put on the trend (a closure, a campaign, a holiday), read by date. */
  async '2026_12_10_002_annotations'(db, kind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable('annotations')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('date', t.day, (c) => c.notNull())
      .addColumn('end_date', t.day)
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('museum', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addCheckConstraint('annotations_in_order', sql`end_date IS NULL OR end_date >= date`)
      .execute();
    await db.schema.createIndex('annotations_date').on('annotations').columns(['date', 'id']).execute();
  },
  /** Where a dashboard user's scheduled reports go, as the Airtable table's Email field holds it. */
  async '2026_12_10_003_user_email'(db) {
    await db.schema.alterTable('users').addColumn('email', 'text').execute();
  },
  /**
   * Scheduled reports, and the dashboard's own mail outbox (the workspace's columns, in the
   * dashboard's records): a report's period is claimed and its mail written in one transaction.
   * A report's user may live in Airtable, so it holds the user's id without a foreign key.
   */
  async '2026_12_10_004_report_schedules'(db, kind) {
    const t = columnTypes(kind);
    await db.schema
      .createTable('report_schedules')
      .addColumn('id', 'integer', idColumn(kind))
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('view_id', 'integer', (c) => c.references('saved_views.id').onDelete('cascade'))
      .addColumn('query', 'text')
      .addColumn('frequency', 'text', (c) => c.notNull().check(sql`frequency IN ('weekly', 'monthly')`))
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_period', 'text', (c) => c.notNull())
      .addCheckConstraint('report_schedules_what', sql`(view_id IS NULL) <> (query IS NULL)`)
      .execute();
    await db.schema.createIndex('report_schedules_due').on('report_schedules').columns(['frequency', 'last_period']).execute();
    const ref = kind === 'postgres' ? 'bigint' : 'integer';
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', ref, idColumn(kind))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('user_id', ref)
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
    await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
  },
};
