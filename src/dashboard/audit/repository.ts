import type { RecordsDb } from '../../platform/db/engine';
import type { AuditAction } from '../domain';
import type { DashboardTables } from '../tables';


export interface AuditEvent {
  id: number;
  /** ISO 8601 moment. */
  at: string;
  actor: string;
  action: AuditAction;
  target: string | null;
  /** The user's or season's name when the event happened; absent on events written before names were kept. */
  targetName?: string;
  before?: unknown;
  after?: unknown;
  ip: string | null;
}

export interface NewAuditEvent {
  at: number;
  actor: string;
  action: AuditAction;
  target?: string | null;
  targetName?: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
}

export interface AuditFilter {
  action?: AuditAction;
  actor?: string;
}

export interface AuditQuery extends AuditFilter {
  /** Only events with a smaller id: the cursor of the page before. */
  beforeId?: number;
  limit: number;
}

export interface AuditRepository {
  add(event: NewAuditEvent): Promise<void>;
  /** Newest first. */
  list(query: AuditQuery): Promise<AuditEvent[]>;
  /** The moments of the oldest and newest matching events, null when none match. */
  span(filter: AuditFilter): Promise<{ first: string; last: string } | null>;
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
        target_name: event.targetName ?? null,
        before: json(event.before),
        after: json(event.after),
        ip: event.ip ?? null,
      })
      .execute();
  }

  async list(query: AuditQuery): Promise<AuditEvent[]> {
    let select = this.filtered(query).selectAll().orderBy('id', 'desc').limit(query.limit);
    if (query.beforeId !== undefined) select = select.where('id', '<', query.beforeId);
    const rows = await select.execute();
    return rows.map((r) => ({
      id: r.id,
      at: new Date(Number(r.at)).toISOString(),
      actor: r.actor,
      action: r.action,
      target: r.target,
      ...(r.target_name === null ? {} : { targetName: r.target_name }),
      ...(r.before === null ? {} : { before: JSON.parse(r.before) as unknown }),
      ...(r.after === null ? {} : { after: JSON.parse(r.after) as unknown }),
      ip: r.ip,
    }));
  }

  async span(filter: AuditFilter): Promise<{ first: string; last: string } | null> {
    const row = await this.filtered(filter)
      .select((eb) => [eb.fn.min<number | string | null>('at').as('first'), eb.fn.max<number | string | null>('at').as('last')])
      .executeTakeFirst();
    if (!row || row.first === null || row.last === null) return null;
    return { first: new Date(Number(row.first)).toISOString(), last: new Date(Number(row.last)).toISOString() };
  }

  private filtered(filter: AuditFilter) {
    let select = this.records.db.selectFrom('audit_events');
    if (filter.action) select = select.where('action', '=', filter.action);
    if (filter.actor) select = select.where('actor', '=', filter.actor);
    return select;
  }
}
