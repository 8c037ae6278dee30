import type { Request } from 'express';
import type { Clock } from '../../platform/clock';
import type { Logger } from '../../platform/logger';
import type { AuditAction, AuditEvent, AuditQuery, AuditRepository } from './repository';

export { AUDIT_ACTIONS } from './repository';

export const AUDIT_PAGE_MAX = 200;

/** Who acted, from the request: the session's name ("anonymous" before sign-in) and address. */
export function actorOf(req: Request, name?: string): { actor: string; ip: string | null } {
  return { actor: name ?? req.dashboard?.session.name ?? 'anonymous', ip: req.ip ?? null };
}

/**
 * The dashboard's administration trail. A failed write to it is logged, never thrown: the
 * action it records has already happened and must not answer as failed.
 */
export class AuditTrail {
  constructor(private readonly deps: { audit: AuditRepository; clock: Clock; logger: Logger }) {}

  async record(
    who: { actor: string; ip: string | null },
    action: AuditAction,
    detail: { target?: string | null; before?: unknown; after?: unknown } = {},
  ): Promise<void> {
    try {
      await this.deps.audit.add({ at: this.deps.clock.now(), ...who, action, ...detail });
    } catch (err) {
      this.deps.logger.error({ err, action }, 'audit event could not be written');
    }
  }

  /** One page, newest first; `nextCursor` is the id to pass as `cursor` for the page after, null at the end. */
  async page(query: AuditQuery): Promise<{ events: AuditEvent[]; nextCursor: number | null }> {
    const events = await this.deps.audit.list({ ...query, limit: query.limit + 1 });
    const more = events.length > query.limit;
    const shown = more ? events.slice(0, query.limit) : events;
    return { events: shown, nextCursor: more ? shown[shown.length - 1].id : null };
  }
}
