/**
 * The Dashboard's shared words: the values a column or a field may hold, in one place, so that
 * the tables' types (tables.ts), the zod schemas and the services read the same lists.
 */

/** The roles of application A; the first is what a record without a known role counts as. */
export const DASHBOARD_ROLES = ['viewer', 'admin'] as const;
export type DashboardRole = (typeof DASHBOARD_ROLES)[number];

/** The pages a saved view reopens. */
export const VIEW_PAGES = ['dashboard', 'comparison'] as const;
export type ViewPage = (typeof VIEW_PAGES)[number];

/** How often a scheduled report goes (the column's CHECK allows these alone). */
export const FREQUENCIES = ['weekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** What the audit trail records. */
export const AUDIT_ACTIONS = [
  'signIn',
  'signInFailed',
  'userCreated',
  'userDeleted',
  'userChanged',
  'pinReset',
  'seasonCreated',
  'seasonChanged',
  'seasonDeleted',
  'visitsImported',
  'annotationCreated',
  'annotationChanged',
  'annotationDeleted',
  'dataExported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One visit row as stored: revenue in currency units with at most two decimals. */
export interface VisitRow {
  date: string;
  museum: string;
  channel: string;
  district: string;
  visitors: number;
  revenue: number;
}
