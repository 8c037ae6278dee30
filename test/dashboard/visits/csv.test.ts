import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { VisitRow } from '../../../src/dashboard/domain';
import { csvCell, MAX_REPORTED_ERRORS, readVisitsCsv, visitsCsv } from '../../../src/dashboard/visits/csv';
import { BadRequest, PayloadTooLarge } from '../../../src/platform/errors';
import { parseDay } from '../../../src/dashboard/dates';
import { ROWS, csvOf } from '../fixtures';

const HEADER = 'date,museum,channel,district,visitors,revenue';

async function read(text: string | string[], opts: { maxBytes?: number; batchSize?: number; lastDay?: number } = {}) {
  const batches: VisitRow[][] = [];
  const count = await readVisitsCsv(Readable.from(Array.isArray(text) ? text : [text]), {
    maxBytes: opts.maxBytes ?? 1024 * 1024,
    batchSize: opts.batchSize,
    lastDay: opts.lastDay,
    onBatch: async (rows) => {
      batches.push(rows);
    },
  });
  return { count, rows: batches.flat(), batches };
}

async function problems(text: string, opts: { lastDay?: number } = {}) {
  const err = await read(text, opts).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(BadRequest);
  const e = err as BadRequest;
  expect(e.code).toBe('IMPORT_INVALID');
  return e.details as { errors: { line: number; field: string; code: string; message: string; params?: Record<string, number> }[]; truncated: boolean };
}

describe('csvCell', () => {
  it.each([
    ['=cmd|"/c calc"!A1', `"'=cmd|""/c calc""!A1"`],
    ['+1+1', "'+1+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tTab', "'\tTab"],
    ['\rReturn', `"'\rReturn"`],
    ['  =HYPERLINK("x")', `"'  =HYPERLINK(""x"")"`],
    ['\t\t+1', "'\t\t+1"],
    [' \t -1', "' \t -1"],
    ['\u00a0@SUM(A1)', "'\u00a0@SUM(A1)"],
  ])('when a cell begins like a formula (%j), then it is neutralised with a leading quote', (input, output) => {
    expect(csvCell(input)).toBe(output);
  });

  it('when a cell holds a comma or a double quote, then it is quoted with quotes doubled', () => {
    expect(csvCell('Museum, Old Town')).toBe('"Museum, Old Town"');
    expect(csvCell('The "Big" Hall')).toBe('"The ""Big"" Hall"');
  });

  it('when a cell is plain text or a number, then it is written as is', () => {
    expect(csvCell('National Museum')).toBe('National Museum');
    expect(csvCell('  Museum = art')).toBe('  Museum = art');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(0)).toBe('0');
  });
});

describe('visitsCsv', () => {
  it('when rows are written, then the header comes first and the text reads back to the same rows', async () => {
    const text = [...visitsCsv(ROWS, 64)].join('');
    expect(text.split('\r\n')[0]).toBe(HEADER);
    expect((await read(text)).rows).toEqual(ROWS);
  });
});

describe('readVisitsCsv', () => {
  it('when a line is dated after the last day allowed, then it is refused as in the future; that day itself is taken', async () => {
    const lastDay = parseDay('2026-11-26')!;
    const found = await problems(`${HEADER}\n2026-11-26,A,Online,North,1,1\n2026-11-27,A,Online,North,1,1\n2026-12-15,A,Online,North,1,1\n`, { lastDay });
    expect(found.errors).toEqual([
      { line: 3, field: 'date', code: 'FUTURE_DATE', message: 'is in the future (today is 2026-11-26)' },
      { line: 4, field: 'date', code: 'FUTURE_DATE', message: 'is in the future (today is 2026-11-26)' },
    ]);
    expect((await read(`${HEADER}\n2026-11-26,A,Online,North,1,1\n`, { lastDay })).count).toBe(1);
  });

  it('when the file starts with a byte order mark, as the exports do, then the header is read as if it had none', async () => {
    expect((await read(`\uFEFF${csvOf(ROWS)}`)).rows).toEqual(ROWS);
  });

  it('when every line is valid, then all rows come out in batches and are counted', async () => {
    const { count, rows, batches } = await read(csvOf(ROWS), { batchSize: 4 });
    expect(count).toBe(ROWS.length);
    expect(rows).toEqual(ROWS);
    expect(batches.map((b) => b.length)).toEqual([4, 4, 1]);
  });

  it('when the header has the columns in another order, with a BOM, spaces and CRLF, then the rows still map by name', async () => {
    const text = '\uFEFFMuseum, date ,channel,district,revenue,visitors\r\n"Alpha, East",2024-05-01,Online,North,10.5,3\r\n\r\n';
    expect((await read(text)).rows).toEqual([
      { date: '2024-05-01', museum: 'Alpha, East', channel: 'Online', district: 'North', visitors: 3, revenue: 10.5 },
    ]);
  });

  it('when the input arrives in small pieces, then lines split across pieces are read whole', async () => {
    const text = csvOf(ROWS);
    const pieces = text.match(/[\s\S]{1,7}/g)!;
    expect((await read(pieces)).rows).toEqual(ROWS);
  });

  it('when there is only a header, then nothing is imported and the count is 0', async () => {
    expect(await read(`${HEADER}\n`)).toMatchObject({ count: 0, rows: [] });
  });

  it('when the input is empty, then 400 names the missing header', async () => {
    const d = await problems('');
    expect(d.errors).toEqual([{ line: 1, field: 'header', code: 'EMPTY_FILE', message: expect.stringContaining(HEADER) }]);
  });

  it('when the header lacks a column or has an unknown one, then each problem is named', async () => {
    const d = await problems('date,museum,channel,district,visitors,price\n2024-01-01,A,B,C,1,2\n');
    expect(d.errors).toEqual([
      { line: 1, field: 'price', code: 'UNKNOWN_COLUMN', message: 'unknown column', params: { column: 6 } },
      { line: 1, field: 'revenue', code: 'MISSING_COLUMN', message: 'column is missing' },
    ]);
  });

  it('when lines hold bad values, then each problem is listed by line and field and no row is handed on', async () => {
    const batches: VisitRow[][] = [];
    const text = [
      HEADER,
      '2024-01-01,A,Online,North,1,1',
      '2024-02-30,A,Online,North,1,1',
      '2024-01-02,,Online,North,-1,1.234',
      '2024-01-03,A,Online',
      '2024-01-04,A,Online,North,2,abc',
    ].join('\n');
    const err = await readVisitsCsv(Readable.from([text]), {
      maxBytes: 10_000,
      batchSize: 1,
      onBatch: async (rows) => {
        batches.push(rows);
      },
    }).catch((e: unknown) => e as BadRequest);
    expect((err as BadRequest).details).toEqual({
      truncated: false,
      errors: [
        { line: 3, field: 'date', code: 'INVALID_DATE', message: expect.any(String), params: { minYear: expect.any(Number), maxYear: expect.any(Number) } },
        { line: 4, field: 'museum', code: 'EMPTY_NAME', message: 'must not be empty' },
        { line: 4, field: 'visitors', code: 'INVALID_VISITORS', message: expect.any(String), params: { max: 1_000_000_000 } },
        { line: 4, field: 'revenue', code: 'INVALID_REVENUE', message: expect.any(String) },
        { line: 5, field: 'row', code: 'FIELD_COUNT', message: 'expected 6 fields, found 3', params: { expected: 6, found: 3 } },
        { line: 6, field: 'revenue', code: 'INVALID_REVENUE', message: expect.any(String) },
      ],
    });
    // The one valid line before the first error was handed on; nothing after it.
    expect(batches.flat()).toHaveLength(1);
  });

  it('when a quoted field is never closed, then the line of the problem is reported', async () => {
    const d = await problems(`${HEADER}\n2024-01-01,A,Online,North,1,1\n2024-01-02,"A,Online,North,1,1\n`);
    expect(d.errors).toHaveLength(1);
    expect(d.errors[0].field).toBe('row');
    expect(d.errors[0].code).toBe('MALFORMED_LINE');
    expect(d.errors[0].line).toBeGreaterThanOrEqual(3);
  });

  it('when there are very many bad lines, then the list stops at the cap and says it was cut', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `2024-01-01,A,Online,North,x${i},1`);
    const d = await problems([HEADER, ...lines].join('\n'));
    expect(d.errors).toHaveLength(MAX_REPORTED_ERRORS);
    expect(d.truncated).toBe(true);
    expect(d.errors[0]).toEqual({ line: 2, field: 'visitors', code: 'INVALID_VISITORS', message: expect.any(String), params: { max: 1_000_000_000 } });
  });

  it('when a name is longer than 200 characters or visitors exceed the maximum, then the line is refused', async () => {
    const d = await problems(`${HEADER}\n2024-01-01,${'x'.repeat(201)},Online,North,2000000000,1\n`);
    expect(d.errors.map((e) => [e.field, e.code, e.params])).toEqual([
      ['museum', 'NAME_TOO_LONG', { max: 200 }],
      ['visitors', 'INVALID_VISITORS', { max: 1_000_000_000 }],
    ]);
  });

  it('when a header names a column twice or leaves one unnamed, then each carries its code and the unnamed one its position', async () => {
    const d = await problems('date,museum,channel,district,visitors,revenue,date,\n');
    expect(d.errors).toEqual([
      { line: 1, field: 'date', code: 'DUPLICATE_COLUMN', message: 'column appears twice' },
      { line: 1, field: 'column 8', code: 'UNNAMED_COLUMN', message: 'unknown column', params: { column: 8 } },
    ]);
  });

  it('when a name holds a control character, then its problem is CONTROL_CHARACTERS', async () => {
    const d = await problems(`${HEADER}\n2024-01-01,A\u0001B,Online,North,1,1\n`);
    expect(d.errors).toEqual([{ line: 2, field: 'museum', code: 'CONTROL_CHARACTERS', message: expect.any(String) }]);
  });

  it('when a line is longer than a record may be, then its problem is LINE_TOO_LONG with the limit', async () => {
    const d = await problems(`${HEADER}\n2024-01-01,${'x'.repeat(70 * 1024)},Online,North,1,1\n`);
    expect(d.errors).toEqual([{ line: expect.any(Number), field: 'row', code: 'LINE_TOO_LONG', message: expect.any(String), params: { max: 64 * 1024 } }]);
  });

  it('when the input is larger than the limit, then it stops with 413', async () => {
    const text = csvOf(Array.from({ length: 200 }, () => ROWS[0]));
    await expect(read(text.match(/[\s\S]{1,100}/g)!, { maxBytes: 1000 })).rejects.toBeInstanceOf(PayloadTooLarge);
  });

  it('when the same key appears twice, then both lines are read (the later one replaces the earlier when stored)', async () => {
    const { count } = await read(`${HEADER}\n2024-01-01,A,Online,North,1,1\n2024-01-01,A,Online,North,2,2\n`);
    expect(count).toBe(2);
  });
});
