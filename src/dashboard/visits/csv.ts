import { Transform, finished, type Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { csvLine } from '../../platform/csv';
import { BadRequest, PayloadTooLarge } from '../../platform/errors';
import { isSingleLineText } from '../../platform/text';
import type { VisitRow } from '../domain';
import { formatDay, parseDay, MAX_YEAR, MIN_YEAR, type Day } from '../dates';

export const CSV_COLUMNS = ['date', 'museum', 'channel', 'district', 'visitors', 'revenue'] as const;
type Column = (typeof CSV_COLUMNS)[number];

export { csvCell, csvLine } from '../../platform/csv';

/** The header line, then one line per row, in chunks of about `chunkSize` characters. */
export function* visitsCsv(rows: Iterable<VisitRow>, chunkSize = 64 * 1024): Generator<string> {
  let chunk = csvLine(CSV_COLUMNS);
  for (const r of rows) {
    chunk += csvLine([r.date, r.museum, r.channel, r.district, r.visitors, r.revenue]);
    if (chunk.length >= chunkSize) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/**
 * Why a line of an import was refused. `code` names the problem for pages, which word it in
 * their reader's language (with the numbers in `params`); `message` says it in English for
 * API clients.
 */
export type ImportErrorCode =
  | 'EMPTY_FILE'
  | 'UNKNOWN_COLUMN'
  | 'UNNAMED_COLUMN'
  | 'DUPLICATE_COLUMN'
  | 'MISSING_COLUMN'
  | 'FIELD_COUNT'
  | 'MALFORMED_LINE'
  | 'LINE_TOO_LONG'
  | 'INVALID_DATE'
  | 'FUTURE_DATE'
  | 'EMPTY_NAME'
  | 'NAME_TOO_LONG'
  | 'CONTROL_CHARACTERS'
  | 'INVALID_VISITORS'
  | 'INVALID_REVENUE';

export interface ImportError {
  line: number;
  field: string;
  code: ImportErrorCode;
  message: string;
  /** The numbers the message names: limits, counts, a column's position. */
  params?: Record<string, number>;
}

export const MAX_REPORTED_ERRORS = 100;
export const MAX_VISITORS = 1_000_000_000;
const NAME_MAX = 200;
const VISITORS = /^\d{1,10}$/;
const REVENUE = /^\d{1,10}(\.\d{1,2})?$/;
const MAX_RECORD_BYTES = 64 * 1024;

function invalid(errors: ImportError[], truncated: boolean): BadRequest {
  return new BadRequest(`The file was not imported: ${errors.length}${truncated ? '+' : ''} problem(s) found`, 'IMPORT_INVALID', {
    errors,
    truncated,
  });
}

/** Where each expected column sits in the file, or the problems with the header line. */
function readHeader(record: string[]): Map<Column, number> | ImportError[] {
  const errors: ImportError[] = [];
  const positions = new Map<Column, number>();
  record.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    const column = index + 1;
    if (name === '') {
      errors.push({ line: 1, field: `column ${column}`, code: 'UNNAMED_COLUMN', message: 'unknown column', params: { column } });
    } else if (!(CSV_COLUMNS as readonly string[]).includes(name)) {
      errors.push({ line: 1, field: raw.slice(0, NAME_MAX), code: 'UNKNOWN_COLUMN', message: 'unknown column', params: { column } });
    } else if (positions.has(name as Column)) {
      errors.push({ line: 1, field: name, code: 'DUPLICATE_COLUMN', message: 'column appears twice' });
    } else {
      positions.set(name as Column, index);
    }
  });
  for (const column of CSV_COLUMNS) {
    if (!positions.has(column)) errors.push({ line: 1, field: column, code: 'MISSING_COLUMN', message: 'column is missing' });
  }
  return errors.length > 0 ? errors : positions;
}

type Issue = Pick<ImportError, 'code' | 'message' | 'params'>;

function nameIssue(value: string): Issue | undefined {
  if (value === '') return { code: 'EMPTY_NAME', message: 'must not be empty' };
  if (value.length > NAME_MAX) return { code: 'NAME_TOO_LONG', message: `must be at most ${NAME_MAX} characters`, params: { max: NAME_MAX } };
  if (!isSingleLineText(value)) return { code: 'CONTROL_CHARACTERS', message: 'must not contain control characters' };
  return undefined;
}

/** A valid row, or the problems of this line (several fields can be wrong at once). */
function readRow(record: string[], line: number, at: Map<Column, number>, lastDay: Day | undefined): VisitRow | ImportError[] {
  if (record.length !== CSV_COLUMNS.length) {
    const params = { expected: CSV_COLUMNS.length, found: record.length };
    return [{ line, field: 'row', code: 'FIELD_COUNT', message: `expected ${params.expected} fields, found ${params.found}`, params }];
  }
  const cell = (column: Column) => {
    const index = at.get(column);
    // readHeader answers positions only when every column has one.
    if (index === undefined) throw new Error(`The header gave no position for the column ${column}`);
    return record[index];
  };
  const errors: ImportError[] = [];
  const date = cell('date');
  const day = parseDay(date);
  if (day === undefined) {
    errors.push({
      line,
      field: 'date',
      code: 'INVALID_DATE',
      message: `must be a real date written YYYY-MM-DD, between ${MIN_YEAR} and ${MAX_YEAR}`,
      params: { minYear: MIN_YEAR, maxYear: MAX_YEAR },
    });
  } else if (lastDay !== undefined && day > lastDay) {
    // Figures of days still to come would be counted in a year the page says runs to yesterday.
    errors.push({ line, field: 'date', code: 'FUTURE_DATE', message: `is in the future (today is ${formatDay(lastDay)})` });
  }
  for (const column of ['museum', 'channel', 'district'] as const) {
    const issue = nameIssue(cell(column));
    if (issue) errors.push({ line, field: column, ...issue });
  }
  const visitors = cell('visitors');
  if (!VISITORS.test(visitors) || Number(visitors) > MAX_VISITORS) {
    errors.push({ line, field: 'visitors', code: 'INVALID_VISITORS', message: `must be a whole number from 0 to ${MAX_VISITORS}`, params: { max: MAX_VISITORS } });
  }
  const revenue = cell('revenue');
  if (!REVENUE.test(revenue)) {
    errors.push({ line, field: 'revenue', code: 'INVALID_REVENUE', message: 'must be a number of at least 0 with at most two decimals' });
  }
  if (errors.length > 0) return errors;
  return {
    date,
    museum: cell('museum'),
    channel: cell('channel'),
    district: cell('district'),
    visitors: Number(visitors),
    revenue: Number(revenue),
  };
}

function byteLimit(maxBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new PayloadTooLarge(`The file is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB`, 'IMPORT_TOO_LARGE'));
      else done(null, chunk);
    },
  });
}

export interface ReadOptions {
  maxBytes: number;
  batchSize?: number;
  /** The last day a line may be dated (today); lines dated after it are refused. */
  lastDay?: Day;
  /** Receives valid rows; once any line is invalid it is not called again. */
  onBatch: (rows: VisitRow[]) => Promise<void>;
}

/**
 * Reads visit rows from a CSV stream line by line, with memory bounded by the batch size.
 * Resolves with the number of data lines when every line is valid; otherwise rejects with
 * 400 IMPORT_INVALID listing the first problems by line and field. The source is never
 * destroyed here, so an HTTP request stays able to carry the answer.
 */
export async function readVisitsCsv(source: Readable, opts: ReadOptions): Promise<number> {
  const batchSize = opts.batchSize ?? 5_000;
  const limiter = byteLimit(opts.maxBytes);
  const parser = parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true, max_record_size: MAX_RECORD_BYTES });
  limiter.on('error', (err) => parser.destroy(err));
  const stopWatching = finished(source, (err) => {
    if (err) parser.destroy(err);
  });
  source.pipe(limiter).pipe(parser);

  const errors: ImportError[] = [];
  let truncated = false;
  let header: Map<Column, number> | undefined;
  let batch: VisitRow[] = [];
  let count = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!header) {
        const read = readHeader(record);
        if (Array.isArray(read)) throw invalid(read, false);
        header = read;
        continue;
      }
      const row = readRow(record, info.lines, header, opts.lastDay);
      if (Array.isArray(row)) {
        errors.push(...row);
        if (errors.length > MAX_REPORTED_ERRORS) {
          truncated = true;
          break;
        }
        continue;
      }
      count += 1;
      if (errors.length > 0) continue;
      batch.push(row);
      if (batch.length >= batchSize) {
        await opts.onBatch(batch);
        batch = [];
      }
    }
  } catch (err) {
    if (err instanceof CsvError) {
      const line = typeof err.lines === 'number' ? err.lines : 0;
      errors.push(
        err.code === 'CSV_MAX_RECORD_SIZE'
          ? { line, field: 'row', code: 'LINE_TOO_LONG', message: err.message, params: { max: MAX_RECORD_BYTES } }
          : { line, field: 'row', code: 'MALFORMED_LINE', message: err.message },
      );
    } else {
      throw err;
    }
  } finally {
    stopWatching();
    source.unpipe(limiter);
    parser.destroy();
  }
  if (!header && errors.length === 0) {
    errors.push({ line: 1, field: 'header', code: 'EMPTY_FILE', message: `the file is empty; its first line must be ${CSV_COLUMNS.join(',')}` });
  }
  if (errors.length > 0) throw invalid(errors.slice(0, MAX_REPORTED_ERRORS), truncated);
  if (batch.length > 0) await opts.onBatch(batch);
  return count;
}
