import type { RecordsDb } from '../../platform/db/engine';
import type { DashboardTables } from '../tables';

export const AUDIT_ACTIONS = [
  'signIn',
  'signInFailed',
  'userCreated',
  'userDeleted',
  'userChanged',
  'seasonCreated',
  'seasonChanged',
  'seasonDeleted',
  'visitsImported',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEvent {
  id: number;
  /** ISO 8601 moment. */
  at: string;
  actor: string;
  action: AuditAction;
  target: string | null;
  before?: unknown;
  after?: unknown;
  ip: string | null;
}

export interface NewAuditEvent {
  at: number;
  actor: string;
  action: AuditAction;
  target?: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

export interface AuditQuery {
  action?: AuditAction;
  actor?: string;
  /** Only events with a smaller id: the cursor of the page before. */
  beforeId?: number;
  limit: number;
}

export interface AuditRepository {
  add(event: NewAuditEvent): Promise<void>;
  /** Newest first. */
  list(query: AuditQuery): Promise<AuditEvent[]>;
}

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** The audit trail on either engine, through the query builder. */
export class KyselyAuditRepository implements AuditRepository {
  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async add(event: NewAuditEvent): Promise<void> {
    await this.records.db
      .insertInto('audit_events')
      .values({
        at: event.at,
        actor: event.actor,
        action: event.action,
        target: event.target ?? null,
        before: json(event.before),
        after: json(event.after),
        ip: event.ip ?? null,
      })
      .execute();
  }

  async list(query: AuditQuery): Promise<AuditEvent[]> {
    let select = this.records.db.selectFrom('audit_events').selectAll().orderBy('id', 'desc').limit(query.limit);
    if (query.action) select = select.where('action', '=', query.action);
    if (query.actor) select = select.where('actor', '=', query.actor);
    if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId);
    const rows = await select.execute();
    return rows.map((r) => ({
      id: Number(r.id),
      at: new Date(Number(r.at)).toISOString(),
      actor: r.actor,
      action: r.action as AuditAction,
      target: r.target,
      ...(r.before === null ? {} : { before: JSON.parse(r.before) as unknown }),
      ...(r.after === null ? {} : { after: JSON.parse(r.after) as unknown }),
      ip: r.ip,
    }));
  }
}
