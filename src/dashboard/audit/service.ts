import type { Clock } from '../../platform/clock';
import type { Logger } from '../../platform/logger';
import { csvLine, fileNamePart } from '../../platform/csv';
import type { AuditContext } from '../request';
import type { AuditAction } from '../domain';
import type { AuditEvent, AuditFilter, AuditQuery, AuditRepository } from './repository';

export const AUDIT_PAGE_MAX = 200;

/** Events read at a time while an export is written: the whole trail is never held in memory. */
const EXPORT_BATCH = 500;


/**
 * The dashboard's administration trail. A failed write to it is logged, never thrown: the
 * action it records has already happened and must not answer as failed.
 */
export class AuditTrail {
  constructor(private readonly deps: { audit: AuditRepository; clock: Clock; logger: Logger }) {}

  async record(
    who: AuditContext,
    action: AuditAction,
    detail: { target?: string | null; targetName?: string; before?: unknown; after?: unknown } = {},
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

  /**
   * Every matching event as CSV, newest first, read in batches; the file is named after the
   * filters and the days it spans (`audit_signIn_2026-11-01_2026-11-25.csv`). The export is
   * itself recorded, under `who`, before the file is read.
   */
  async exportCsv(who: AuditContext, filter: AuditFilter): Promise<{ fileName: string; chunks: AsyncIterable<string> }> {
    const span = await this.deps.audit.span(filter);
    const parts = ['audit', filter.action, filter.actor && fileNamePart(filter.actor), span?.first.slice(0, 10), span?.last.slice(0, 10)];
    const fileName = `${parts.filter(Boolean).join('_')}.csv`;
    await this.record(who, 'dataExported', { target: 'audit', targetName: fileName, after: { format: 'csv', action: filter.action, actor: filter.actor } });
    return { fileName, chunks: this.csvChunks(filter) };
  }

  private async *csvChunks(filter: AuditFilter): AsyncIterable<string> {
    yield csvLine(['id', 'at', 'actor', 'action', 'target', 'target_name', 'before', 'after', 'ip']);
    const text = (v: unknown) => (v === undefined ? '' : JSON.stringify(v));
    let beforeId: number | undefined;
    for (;;) {
      const events = await this.deps.audit.list({ ...filter, beforeId, limit: EXPORT_BATCH });
      yield events.map((e) => csvLine([e.id, e.at, e.actor, e.action, e.target ?? '', e.targetName ?? '', text(e.before), text(e.after), e.ip ?? ''])).join('');
      if (events.length < EXPORT_BATCH) return;
      beforeId = events[events.length - 1].id;
    }
  }
}
