import type { Generated } from 'kysely';
import type { Language } from '../platform/i18n';
import type { OutboxTables } from '../platform/mail/outbox';
import type { VisitRow } from './domain';
import type { AuditAction, Frequency, ViewPage } from './domain';

/**
 * Application A's tables as the query builder sees them, on either engine. Days are
 * `YYYY-MM-DD` text on both (a `date` column in PostgreSQL, read back as that text).
 */
export interface DashboardTables {
  users: {
    id: Generated<number>;
    name: string;
    pin: string;
    /**
     * Text with no CHECK: a record written before the roles were fixed, or copied from an
     * Airtable base, may hold another role or none, which `sessionFieldsOf` reads as the first.
     */
    role: Generated<string>;
    allowed_museums: string | null;
    allowed_channels: string | null;
    /** Where scheduled reports go (the Airtable table's Email). */
    email: Generated<string | null>;
  };
  visits: VisitRow;
  /** Rows of an import in progress, moved into visits in one transaction at its end. */
  visits_import: VisitRow;
  /** One row (id 1) whose version goes up with every write to visits. */
  visits_version: { id: number; version: number };
  seasons: {
    id: Generated<number>;
    name: string;
    start_date: string;
    end_date: string;
  };
  /** The highest user id handed out by a store that numbers records itself (Airtable). */
  id_marks: { name: string; last_id: number };
  /** Per user record, a stamp that moves with each change to its access, PIN or existence. */
  access_stamps: { user_id: number; stamp: number; ended: number };
  /** The administration's audit trail; `before`/`after` are JSON text, `at` milliseconds since the epoch. */
  audit_events: {
    id: Generated<number>;
    at: number | string;
    actor: string;
    action: AuditAction;
    target: string | null;
    target_name: string | null;
    before: string | null;
    after: string | null;
    ip: string | null;
  };
  /** Views saved from the Dashboard and Comparison pages: a name and the page's address. */
  saved_views: {
    id: Generated<number>;
    name: string;
    page: ViewPage;
    query: string;
    shared: number | boolean;
    /** The user record of whoever saved it; null for the administrator PIN, which has none. */
    owner_user_id: number | null;
    owner_name: string;
    created_at: string;
    updated_at: string;
  };
  /** Notes on the trend: a day or a span of days, about one museum or all of them. Days are YYYY-MM-DD. */
  annotations: {
    id: Generated<number>;
    date: string;
    end_date: string | null;
    text: string;
    /** null: about every museum. */
    museum: string | null;
    created_by: string;
    created_at: string;
    updated_at: string;
  };
  /** Reports mailed on a schedule: a saved view or a Dashboard address, to one user. */
  report_schedules: {
    id: Generated<number>;
    user_id: number;
    view_id: number | null;
    query: string | null;
    frequency: Frequency;
    language: Language;
    created_by: string;
    created_at: string;
    /** The scheduled day (YYYY-MM-DD) whose mail was last claimed; set when the report is made, so it starts with the next one. */
    last_period: string;
  };
  /** The dashboard's own outbox, so a report's mail is written in the transaction that claims its period. */
  mail_outbox: OutboxTables['mail_outbox'];
}
