import type { i18n } from 'i18next';
import type { Day } from '../dates';
import { formatDay, knownDay } from '../dates';
import type { DataFilters } from '../analytics/aggregate';
import type { AnalyticsService } from '../analytics/service';
import type { VisitsService } from '../visits/service';
import { BOM } from '../downloads';
import { isolate, renderMail, type MailContent } from '../../platform/mail/render';
import type { Composed, Composer } from '../../platform/mail/worker';
import type { UserRecordStore } from '../users/repository';
import { sessionFieldsOf } from '../users/service';
import { requestOf } from '../views/address';
import type { SavedViewRepository } from '../views/repository';
import { mayRead as mayReadView } from '../views/service';
import type { ReportRepository } from './repository';
import { coveredDays, REPORT_HOUR } from './schedule';
import { REPORT_MAIL, type ReportMailParams } from './service';

export interface ReportMailDeps {
  reports: ReportRepository;
  users: UserRecordStore;
  views: SavedViewRepository;
  /** The figures and the rows of the report's days, read under the recipient's access. */
  data: { figures: Pick<AnalyticsService, 'summary'>; visits: Pick<VisitsService, 'exportCsv'> };
  i18n: i18n;
  /** The base of the link to the dashboard. */
  publicUrl: string;
  timeZone: string;
  currency: string;
}

/**
 * Writes a report's mail when its turn comes in the outbox: the report, its recipient and their
 * access are read as they are then, so a report goes to whoever it goes to now, with the
 * figures their account includes now, or not at all (the report deleted, the recipient gone or
 * without an address, its view no longer theirs to open). Headline figures, the change against
 * the days before, and the rows as CSV, in the report's language.
 */
export function reportComposer(deps: ReportMailDeps): Composer {
  return async (message): Promise<Composed> => {
    if (message.kind !== REPORT_MAIL) return { skip: `nothing writes mail of the kind ${message.kind}` };
    const { reportId, day } = message.params as unknown as ReportMailParams;
    const report = await deps.reports.get(reportId);
    if (!report) return { skip: 'its report was deleted' };
    if (report.userId !== message.userId) return { skip: 'its report goes to someone else now' };
    const recipient = await deps.users.get(report.userId);
    if (!recipient) return { skip: 'its recipient is no longer a dashboard user' };
    if (!recipient.email) return { skip: 'its recipient has no e-mail address any more' };
    const reportDay: Day = knownDay(day);
    const t = deps.i18n.getFixedT(report.language);

    let filters: DataFilters;
    let name: string;
    let link: string;
    if (report.viewId !== null) {
      const view = await deps.views.get(report.viewId);
      if (!view || !mayReadView({ userId: recipient.id }, view)) return { skip: 'its view is no longer one its recipient may open' };
      filters = requestOf('dashboard', view.query, reportDay).filters;
      name = view.name;
      link = `/dashboard?view=${view.id}`;
    } else {
      filters = requestOf('dashboard', report.query ?? '', reportDay).filters;
      name = t('dashboard.mail.report.dashboard');
      link = `/dashboard?${report.query ?? ''}`;
    }
    // The report's days replace whatever dates its view or address names.
    const period = coveredDays(report.frequency, day);
    const asked: DataFilters = { ...filters, year: [], season: [], from: period.from, to: period.to };
    const viewer = sessionFieldsOf(recipient);
    const summary = await deps.data.figures.summary(viewer, asked);
    const csv = await deps.data.visits.exportCsv(viewer, asked);

    const lang = report.language;
    const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
    const decimals = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
    const money = new Intl.NumberFormat(lang, { style: 'currency', currency: deps.currency, maximumFractionDigits: 0 });
    const change = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
    const dates = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
    const range = (from: string, to: string) => dates.formatRange(Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`));
    const shown = range(formatDay(period.from), formatDay(period.to));
    const { totals, previous } = summary;
    const against = previous.start && previous.end ? range(previous.start, previous.end) : '';
    const figure = (line: string, now: number, before: number) =>
      before > 0 && against ? t('dashboard.mail.report.withChange', { figure: line, change: change.format((now - before) / before), range: against }) : line;
    const paragraphs =
      totals.days === 0
        ? [t('dashboard.mail.report.covers', { range: shown }), t('dashboard.mail.report.nothing')]
        : [
            t('dashboard.mail.report.covers', { range: shown }),
            figure(t('dashboard.mail.report.visitors', { value: numbers.format(totals.visitors) }), totals.visitors, previous.visitors),
            figure(t('dashboard.mail.report.revenue', { value: money.format(totals.revenue) }), totals.revenue, previous.revenue),
            t('dashboard.mail.report.perDay', { value: decimals.format(totals.visitors / totals.days) }),
          ];
    const time = new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(Date.UTC(2026, 0, 1, REPORT_HOUR));
    const content: MailContent = {
      subject: t('dashboard.mail.report.subject', { name: isolate(name), range: shown }),
      preview: paragraphs[1] ?? paragraphs[0],
      heading: t(report.frequency === 'weekly' ? 'dashboard.mail.report.headingWeekly' : 'dashboard.mail.report.headingMonthly', { name: isolate(name) }),
      paragraphs,
      action: { label: t('dashboard.mail.report.open'), url: `${deps.publicUrl}${link}` },
      notes: [
        t('dashboard.mail.report.attached', { file: isolate(csv.fileName) }),
        t(report.frequency === 'weekly' ? 'dashboard.mail.report.whyWeekly' : 'dashboard.mail.report.whyMonthly', { time, zone: deps.timeZone }),
      ],
    };
    const rendered = await renderMail(content, lang, t, { product: t('dashboard.mail.product'), footer: t('dashboard.mail.footer') });
    const rows = BOM + Array.from(csv.chunks).join('');
    return { mail: { to: recipient.email, ...rendered, attachments: [{ filename: csv.fileName, content: rows, contentType: 'text/csv; charset=utf-8' }] } };
  };
}
