import type { Kysely, Selectable, Updateable } from 'kysely';
import type { RecordsDb } from '../../platform/db/engine';
import { addToOutbox, OutboxRepository, type NewMail, type OutboxTables } from '../../platform/mail/outbox';
import type { Language } from '../../platform/i18n';
import type { DashboardTables } from '../tables';
import type { Frequency } from '../domain';

/** A scheduled report: what (a saved view or a Dashboard address), how often, to whom. */
export interface Report {
  id: number;
  userId: number;
  viewId: number | null;
  query: string | null;
  frequency: Frequency;
  language: Language;
  createdBy: string;
  createdAt: string;
  lastPeriod: string;
}

export type NewReport = Omit<Report, 'id' | 'createdAt'>;
export type ReportChange = Partial<Pick<Report, 'userId' | 'viewId' | 'query' | 'frequency' | 'language' | 'lastPeriod'>>;

export interface ReportRepository {
  list(): Promise<Report[]>;
  /** The reports that go to `userId`. */
  listFor(userId: number): Promise<Report[]>;
  get(id: number): Promise<Report | undefined>;
  create(report: NewReport, at: string): Promise<Report>;
  update(id: number, change: ReportChange): Promise<Report | undefined>;
  delete(id: number): Promise<boolean>;
  /** The reports of `frequency` that have not had the send of `day` yet. */
  due(frequency: Frequency, day: string): Promise<Report[]>;
  /**
   * Takes the send of `day` for the report and writes its mail, in one transaction; false when
   * another instance took it first (or the report is gone), and nothing is written.
   */
  claim(id: number, day: string, mail: NewMail, now: number): Promise<boolean>;
  /** Writes a mail that no claim goes with (a report sent now). */
  queue(mail: NewMail, now: number): Promise<void>;
}

type Row = Selectable<DashboardTables['report_schedules']>;

function toReport(row: Row): Report {
  return {
    id: row.id,
    userId: row.user_id,
    viewId: row.view_id,
    query: row.query,
    frequency: row.frequency,
    language: row.language,
    createdBy: row.created_by,
    createdAt: row.created_at,
    lastPeriod: row.last_period,
  };
}

/** The dashboard's outbox: the same table, column for column, as the platform's. */
export function dashboardOutbox(records: RecordsDb<DashboardTables>): OutboxRepository {
  return new OutboxRepository(records as unknown as RecordsDb<OutboxTables>);
}

export class SqlReportRepository implements ReportRepository {
  constructor(private readonly records: RecordsDb<DashboardTables>) {}

  async list(): Promise<Report[]> {
    return (await this.records.db.selectFrom('report_schedules').selectAll().orderBy('id').execute()).map(toReport);
  }

  async listFor(userId: number): Promise<Report[]> {
    return (await this.records.db.selectFrom('report_schedules').selectAll().where('user_id', '=', userId).orderBy('id').execute()).map(toReport);
  }

  async get(id: number): Promise<Report | undefined> {
    const row = await this.records.db.selectFrom('report_schedules').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toReport(row);
  }

  async create(report: NewReport, at: string): Promise<Report> {
    const row = await this.records.db
      .insertInto('report_schedules')
      .values({
        user_id: report.userId,
        view_id: report.viewId,
        query: report.query,
        frequency: report.frequency,
        language: report.language,
        created_by: report.createdBy,
        created_at: at,
        last_period: report.lastPeriod,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toReport(row);
  }

  async update(id: number, change: ReportChange): Promise<Report | undefined> {
    const set: Updateable<DashboardTables['report_schedules']> = {
      ...(change.userId === undefined ? {} : { user_id: change.userId }),
      ...(change.viewId === undefined ? {} : { view_id: change.viewId }),
      ...(change.query === undefined ? {} : { query: change.query }),
      ...(change.frequency === undefined ? {} : { frequency: change.frequency }),
      ...(change.language === undefined ? {} : { language: change.language }),
      ...(change.lastPeriod === undefined ? {} : { last_period: change.lastPeriod }),
    };
    if (Object.keys(set).length === 0) return this.get(id);
    const row = await this.records.db.updateTable('report_schedules').set(set).where('id', '=', id).returningAll().executeTakeFirst();
    return row && toReport(row);
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.records.db.deleteFrom('report_schedules').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async due(frequency: Frequency, day: string): Promise<Report[]> {
    const rows = await this.records.db.selectFrom('report_schedules').selectAll().where('frequency', '=', frequency).where('last_period', '<', day).orderBy('id').execute();
    return rows.map(toReport);
  }

  async claim(id: number, day: string, mail: NewMail, now: number): Promise<boolean> {
    return this.records.db.transaction().execute(async (trx) => {
      // One statement decides: on PostgreSQL a second instance's update waits for the first to commit, then finds the day taken.
      const taken = await trx.updateTable('report_schedules').set({ last_period: day }).where('id', '=', id).where('last_period', '<', day).executeTakeFirst();
      if (Number(taken.numUpdatedRows) === 0) return false;
      await addToOutbox(trx as unknown as Kysely<OutboxTables>, [mail], now);
      return true;
    });
  }

  async queue(mail: NewMail, now: number): Promise<void> {
    await addToOutbox(this.records.db as unknown as Kysely<OutboxTables>, [mail], now);
  }
}
