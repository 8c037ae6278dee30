import type { i18n } from 'i18next';
import type { Clock } from '../../platform/clock';
import { BadRequest, Forbidden, NotFound } from '../../platform/errors';
import type { Language } from '../../platform/i18n';
import type { NewMail } from '../../platform/mail/outbox';
import { wallClock } from '../../platform/time-zone';
import type { DashboardSession } from '../auth/session-store';
import type { UserRecord, UserRecordStore } from '../users/repository';
import { checkAddress, normalisedQuery } from '../views/address';
import type { SavedView, SavedViewRepository } from '../views/repository';
import { mayRead as mayReadView } from '../views/service';
import type { Report, ReportChange, ReportRepository } from './repository';
import type { Frequency } from '../domain';
import { dueDay, nextDay, REPORT_HOUR } from './schedule';

/** The kind of a report's outbox row. */
export const REPORT_MAIL = 'dashboard_report';

export type ReportActor = Pick<DashboardSession, 'userId' | 'name' | 'role'>;

/** Administrators schedule reports for anyone. */
export function mayScheduleForOthers(actor: Pick<ReportActor, 'role'>): boolean {
  return actor.role === 'admin';
}

/** Everyone else schedules reports for themselves only. */
export function mayScheduleFor(actor: ReportActor, userId: number): boolean {
  return mayScheduleForOthers(actor) || actor.userId === userId;
}

/** What a report's mail is about: written into its outbox row, read again when it is sent. */
export interface ReportMailParams {
  reportId: number;
  /** The day the report is written for (its scheduled day, or today when sent by hand): it covers the days before it. */
  day: string;
}

export interface ReportInput {
  viewId?: number;
  query?: string;
  frequency: Frequency;
  userId: number;
  language?: Language;
}

/** A report as the API answers it. */
export interface ReportAnswer {
  id: number;
  frequency: Frequency;
  language: Language;
  user: { id: number; name: string | null; email: string | null };
  view: { id: number; name: string } | null;
  query: string | null;
  createdBy: string;
  createdAt: string;
  /** The next scheduled send: that day at 07:00 on the dashboard's clock. */
  next: { day: string; time: string; timeZone: string };
  can: { edit: boolean; delete: boolean; send: boolean };
}

/** The reader a recipient's record makes, for the saved views' rule of who reads what. */
function readerOf(record: UserRecord) {
  return { userId: record.id };
}

/**
 * Scheduled reports. A report names what to report (a saved view or a Dashboard address) and
 * whom to mail; the figures are worked out only when its mail is written (see mail.ts), under
 * the recipient's access as it is then. Each scheduled send is claimed in the transaction that
 * writes its mail, so however many instances run, one mail goes per period.
 */
export class ReportsService {
  constructor(
    private readonly deps: {
      reports: ReportRepository;
      users: UserRecordStore;
      views: SavedViewRepository;
      clock: Clock;
      timeZone: string;
      i18n: i18n;
    },
  ) {}

  async list(actor: ReportActor): Promise<ReportAnswer[]> {
    const { reports } = this.deps;
    if (mayScheduleForOthers(actor)) return this.answers(actor, await reports.list());
    if (actor.userId === null) return [];
    const list = await reports.listFor(actor.userId);
    return this.answers(actor, list);
  }

  async create(actor: ReportActor, input: ReportInput, pageLanguage: Language): Promise<ReportAnswer> {
    if (!mayScheduleFor(actor, input.userId)) throw notYours();
    const recipient = await this.recipient(input.userId);
    const what = await this.what(actor, recipient, input);
    const report = await this.deps.reports.create(
      {
        userId: input.userId,
        ...what,
        frequency: input.frequency,
        language: input.language ?? pageLanguage,
        createdBy: actor.name,
        // The first mail is the next scheduled one, not one for the period already begun.
        lastPeriod: dueDay(input.frequency, this.deps.clock.now(), this.deps.timeZone),
      },
      new Date(this.deps.clock.now()).toISOString(),
    );
    return (await this.answers(actor, [report]))[0];
  }

  async update(actor: ReportActor, id: number, change: Partial<ReportInput>): Promise<ReportAnswer> {
    const current = await this.manageable(actor, id);
    const userId = change.userId ?? current.userId;
    if (!mayScheduleFor(actor, userId)) throw notYours();
    const recipient = await this.recipient(userId);
    const next: ReportChange = { userId, language: change.language, frequency: change.frequency };
    if (change.viewId !== undefined || change.query !== undefined) Object.assign(next, await this.what(actor, recipient, change));
    else if (current.viewId !== null) await this.readableView(actor, recipient, current.viewId);
    if (change.frequency !== undefined && change.frequency !== current.frequency) next.lastPeriod = dueDay(change.frequency, this.deps.clock.now(), this.deps.timeZone);
    const report = await this.deps.reports.update(id, next);
    if (!report) throw notFound();
    return (await this.answers(actor, [report]))[0];
  }

  async remove(actor: ReportActor, id: number): Promise<void> {
    await this.manageable(actor, id);
    if (!(await this.deps.reports.delete(id))) throw notFound();
  }

  /** Queues the report's mail now, for the days up to yesterday; the schedule goes on as it was. */
  async sendNow(actor: ReportActor, id: number): Promise<void> {
    const report = await this.manageable(actor, id);
    const recipient = await this.recipient(report.userId);
    const today = wallClock(this.deps.timeZone, this.deps.clock.now()).day;
    await this.deps.reports.queue(this.mail(report, recipient, today), this.deps.clock.now());
  }

  /** The outbox row of a report's mail for `day`, to the recipient as they are now. */
  mail(report: Report, recipient: { id: number; email?: string }, day: string): NewMail {
    const subject = this.deps.i18n.getFixedT(report.language)('dashboard.mail.report.queued');
    const params: ReportMailParams = { reportId: report.id, day };
    return { kind: REPORT_MAIL, userId: recipient.id, to: recipient.email ?? '', subject, params: { ...params } };
  }

  private async manageable(actor: ReportActor, id: number): Promise<Report> {
    const report = await this.deps.reports.get(id);
    // Someone else's report answers as a missing one: it is theirs to know of.
    if (!report || !mayScheduleFor(actor, report.userId)) throw notFound();
    return report;
  }

  private async recipient(userId: number): Promise<UserRecord & { email: string }> {
    const record = await this.deps.users.get(userId);
    if (!record) throw new BadRequest('No user has this id', 'REPORT_RECIPIENT', { issues: [{ path: 'body.userId', message: 'must be a dashboard user' }] });
    if (!record.email) throw new BadRequest(`${record.name} has no e-mail address: add one in Settings first`, 'RECIPIENT_NO_EMAIL', { issues: [{ path: 'body.userId', message: 'must have an e-mail address' }] });
    return { ...record, email: record.email };
  }

  /** What the report is about: a saved view both may read, or a Dashboard address. */
  private async what(actor: ReportActor, recipient: UserRecord, input: Pick<ReportInput, 'viewId' | 'query'>): Promise<Pick<Report, 'viewId' | 'query'>> {
    if (input.viewId !== undefined) {
      await this.readableView(actor, recipient, input.viewId);
      return { viewId: input.viewId, query: null };
    }
    const query = normalisedQuery(input.query ?? '');
    checkAddress('dashboard', query);
    return { viewId: null, query };
  }

  private async readableView(actor: ReportActor, recipient: UserRecord, viewId: number): Promise<SavedView> {
    const view = await this.deps.views.get(viewId);
    const problem = (message: string) => new BadRequest(message, 'REPORT_VIEW', { issues: [{ path: 'body.viewId', message }] });
    if (!view || !mayReadView(actor, view)) throw problem('must be a saved view you can open');
    if (!mayReadView(readerOf(recipient), view)) throw problem('must be a view the recipient can open: their own, or a shared one');
    if (view.page !== 'dashboard') throw problem('must be a view of the Dashboard page');
    return view;
  }

  private async answers(actor: ReportActor, reports: Report[]): Promise<ReportAnswer[]> {
    if (reports.length === 0) return [];
    const [users, views] = await Promise.all([this.deps.users.list(), Promise.all(reports.map((r) => (r.viewId === null ? Promise.resolve(undefined) : this.deps.views.get(r.viewId))))]);
    const byId = new Map(users.map((u) => [u.id, u]));
    return reports.map((report, i) => {
      const user = byId.get(report.userId);
      const view = views[i];
      const mine = mayScheduleFor(actor, report.userId);
      return {
        id: report.id,
        frequency: report.frequency,
        language: report.language,
        user: { id: report.userId, name: user?.name ?? null, email: user?.email ?? null },
        view: view ? { id: view.id, name: view.name } : null,
        query: report.query,
        createdBy: report.createdBy,
        createdAt: report.createdAt,
        next: { day: nextDay(report.frequency, report.lastPeriod), time: `${String(REPORT_HOUR).padStart(2, '0')}:00`, timeZone: this.deps.timeZone },
        can: { edit: mine, delete: mine, send: mine },
      };
    });
  }
}

function notFound() {
  return new NotFound('No such report', 'REPORT_NOT_FOUND');
}

function notYours() {
  return new Forbidden('Reports are scheduled for yourself; administrators schedule them for anyone', 'NOT_REPORT_RECIPIENT');
}
