import type { Response } from 'express';
import ExcelJS from 'exceljs';
import type { TFunction } from 'i18next';
import type { VisitRow } from '../domain';
import { CSV_COLUMNS } from './csv';
import type { Comparison, Summary } from '../analytics/aggregate';
import type { ComparisonTable } from './service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DATE_FORMAT = 'yyyy-mm-dd';
const COUNT_FORMAT = '#,##0';
const MONEY_FORMAT = '#,##0.00';
const PCT_FORMAT = '0.0';

/** How the sheets read: their labels in the page's language, right to left in Arabic. */
export interface SheetLanguage {
  t: TFunction;
  rtl: boolean;
}

type Cell = string | number | Date | null;
type Sheet = ReturnType<ExcelJS.stream.xlsx.WorkbookWriter['addWorksheet']>;

/** A day (YYYY-MM-DD) as a date cell: midnight UTC, which Excel shows as that day. */
const dateCell = (day: string | null): Date | null => (day ? new Date(`${day}T00:00:00Z`) : null);

/**
 * Streams a workbook to the response as its rows come (exceljs's streaming writer: each row is
 * written and let go, so a large export is never held whole). Text cells stay text: unlike a
 * CSV cell, a name starting with "=" is never read as a formula.
 */
async function sendWorkbook(res: Response, fileName: string, write: (book: ExcelJS.stream.xlsx.WorkbookWriter) => void): Promise<void> {
  res.type(XLSX_TYPE);
  res.attachment(fileName);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: true, useSharedStrings: false });
  try {
    write(book);
    await book.commit();
  } catch (err) {
    // A client that stops reading halfway is not a server error.
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
  }
}

function sheetOf(book: ExcelJS.stream.xlsx.WorkbookWriter, name: string, lang: SheetLanguage, columns: { header: string; width: number; numFmt?: string }[]): Sheet {
  const sheet = book.addWorksheet(name, { views: [{ rightToLeft: lang.rtl, state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width, ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}) }));
  sheet.getRow(1).font = { bold: true };
  return sheet;
}

/** Two columns, a figure's name and its value, each value in its own format. */
function summarySheet(book: ExcelJS.stream.xlsx.WorkbookWriter, lang: SheetLanguage, lines: [label: string, value: Cell, format?: string][]): void {
  const sheet = sheetOf(book, lang.t('dashboard.excel.summary'), lang, [
    { header: lang.t('dashboard.excel.figure'), width: 34 },
    { header: lang.t('dashboard.excel.value'), width: 22 },
  ]);
  for (const [label, value, format] of lines) {
    const row = sheet.addRow([label, value]);
    if (format) row.getCell(2).numFmt = format;
    row.commit();
  }
  sheet.commit();
}

/**
 * The visits as an Excel workbook: a sheet of the rows the CSV file holds (the same header,
 * dates as dates, visitors and revenue as numbers), and a sheet of the summary's key figures.
 */
export function sendVisitsXlsx(res: Response, file: { baseName: string; rows: Iterable<VisitRow>; summary: Summary; currency: string }, lang: SheetLanguage): Promise<void> {
  const { t } = lang;
  const { totals, previous, range } = file.summary;
  const money = `${MONEY_FORMAT} "${file.currency}"`;
  const change = (now: number, before: number) => (before > 0 ? Math.round(((now - before) / before) * 1000) / 10 : null);
  return sendWorkbook(res, `${file.baseName}.xlsx`, (book) => {
    const sheet = sheetOf(book, t('dashboard.excel.visits'), lang, [
      { header: CSV_COLUMNS[0], width: 12, numFmt: DATE_FORMAT },
      { header: CSV_COLUMNS[1], width: 28 },
      { header: CSV_COLUMNS[2], width: 18 },
      { header: CSV_COLUMNS[3], width: 18 },
      { header: CSV_COLUMNS[4], width: 12, numFmt: COUNT_FORMAT },
      { header: CSV_COLUMNS[5], width: 14, numFmt: MONEY_FORMAT },
    ]);
    for (const r of file.rows) sheet.addRow([dateCell(r.date), r.museum, r.channel, r.district, r.visitors, r.revenue]).commit();
    sheet.commit();
    summarySheet(book, lang, [
      [t('dashboard.excel.from'), dateCell(range?.start ?? null), DATE_FORMAT],
      [t('dashboard.excel.to'), dateCell(range?.end ?? null), DATE_FORMAT],
      [t('dashboard.excel.visitors'), totals.visitors, COUNT_FORMAT],
      [t('dashboard.excel.revenue'), totals.revenue, money],
      [t('dashboard.excel.days'), totals.days, COUNT_FORMAT],
      [t('dashboard.excel.perDay'), totals.days > 0 ? Math.round((totals.visitors / totals.days) * 10) / 10 : null, PCT_FORMAT],
      [t(previous.kind === 'yearEarlier' ? 'dashboard.excel.yearEarlierFrom' : 'dashboard.excel.previousFrom'), dateCell(previous.start), DATE_FORMAT],
      [t(previous.kind === 'yearEarlier' ? 'dashboard.excel.yearEarlierTo' : 'dashboard.excel.previousTo'), dateCell(previous.end), DATE_FORMAT],
      [t('dashboard.excel.previousVisitors'), previous.visitors, COUNT_FORMAT],
      [t('dashboard.excel.previousRevenue'), previous.revenue, money],
      [t('dashboard.excel.changeVisitors'), change(totals.visitors, previous.visitors), PCT_FORMAT],
      [t('dashboard.excel.changeRevenue'), change(totals.revenue, previous.revenue), PCT_FORMAT],
    ]);
  });
}

/**
 * The comparison as an Excel workbook: a sheet of the lines the CSV file holds (numbers as
 * numbers), and a sheet of the two sides, their dates and totals.
 */
export function sendComparisonXlsx(res: Response, file: { table: ComparisonTable; comparison: Comparison; currency: string }, lang: SheetLanguage): Promise<void> {
  const { t } = lang;
  const { table, comparison } = file;
  const money = `${MONEY_FORMAT} "${file.currency}"`;
  return sendWorkbook(res, `${table.baseName}.xlsx`, (book) => {
    const widths = [10, 28, 10, 24, 24, 14, 12];
    const formats = [undefined, undefined, undefined, MONEY_FORMAT, MONEY_FORMAT, MONEY_FORMAT, PCT_FORMAT];
    const sheet = sheetOf(
      book,
      t('dashboard.excel.comparison'),
      lang,
      table.header.map((header, i) => ({ header, width: widths[i], numFmt: formats[i] })),
    );
    for (const row of table.rows) sheet.addRow(row).commit();
    sheet.commit();
    const side = (name: 'a' | 'b') => {
      const s = comparison[name];
      return [
        [t('dashboard.excel.side', { side: name.toUpperCase() }), s.label],
        [t('dashboard.excel.from'), dateCell(s.start), DATE_FORMAT],
        [t('dashboard.excel.to'), dateCell(s.end), DATE_FORMAT],
        [t('dashboard.excel.visitors'), s.totals.visitors, COUNT_FORMAT],
        [t('dashboard.excel.revenue'), s.totals.revenue, money],
        [t('dashboard.excel.days'), s.totals.days, COUNT_FORMAT],
      ] as [string, Cell, string?][];
    };
    const pct = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
    summarySheet(book, lang, [
      ...side('a'),
      ...side('b'),
      [t('dashboard.excel.changeVisitors'), pct(comparison.metrics.visitors.changePct), PCT_FORMAT],
      [t('dashboard.excel.changeRevenue'), pct(comparison.metrics.revenue.changePct), PCT_FORMAT],
    ]);
  });
}
