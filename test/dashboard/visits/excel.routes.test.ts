import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { ALPHA, BETA, dataApp } from '../fixtures';

const q = encodeURIComponent;
type App = Awaited<ReturnType<typeof dataApp>>;

/** Collects a binary answer whole (supertest reads text otherwise). */
function binary(res: NodeJS.ReadableStream, done: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
}

async function workbookAt(t: App, path: string, cookie: string) {
  const res = await t.get(path, cookie).buffer(true).parse(binary as unknown as Parameters<ReturnType<App['get']>['parse']>[0]);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(res.body as ArrayBuffer);
  return { book, disposition: res.headers['content-disposition'] };
}

/** A sheet's rows as the CSV file writes them: dates as YYYY-MM-DD, numbers as written, nothing as empty. */
function asCsvRows(sheet: ExcelJS.Worksheet): string[][] {
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    // An empty last cell is not stored: the header says how many there are.
    const values = Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value);
    rows.push(values.map((v) => (v instanceof Date ? v.toISOString().slice(0, 10) : typeof v === 'string' || typeof v === 'number' ? String(v) : '')));
  });
  return rows;
}

/** A CSV file's lines, header included, each split into its cells (no cell of these holds a comma). */
function csvLines(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));
}

// Each test asks for several files and reads every one back: more than the default on a busy machine.
describe('GET /api/dashboard/export.xlsx and compare.xlsx', { timeout: 60_000 }, () => {
  it('when there is no session, then 401 and no file', async () => {
    const t = await dataApp();
    for (const path of ['/api/dashboard/export.xlsx', '/api/dashboard/compare.xlsx?a=2024&b=2025']) {
      const res = await t.get(path);
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual(expect.any(String));
      expect(res.headers['content-disposition']).toBeUndefined();
    }
  });

  it.each([
    ['an administrator', undefined],
    ['a viewer restricted to one museum', [ALPHA]],
  ])('when %s exports, then the rows sheet equals the CSV of the same filters, with typed dates and numbers, under the same name', async (_, museums) => {
    const t = await dataApp();
    const cookie = museums ? await t.viewer(JSON.stringify(museums)) : await t.admin();
    for (const filters of ['', 'year=2024', `year=2024&year=2025&museum=${q(ALPHA)}&museum=${q(BETA)}`, 'from=2024-01-01&to=2024-02-01&channel=Online']) {
      const csv = await t.get(`/api/dashboard/export.csv?${filters}`, cookie);
      const { book, disposition } = await workbookAt(t, `/api/dashboard/export.xlsx?${filters}`, cookie);
      const [rows, summary] = book.worksheets;
      expect(rows.name).toBe('Visits');
      expect(summary.name).toBe('Summary');
      expect(asCsvRows(rows)).toEqual(csvLines(csv.text));
      expect(disposition).toBe(csv.headers['content-disposition'].replace('.csv', '.xlsx'));
      if (asCsvRows(rows).length > 1) {
        expect(rows.getCell('A2').value).toBeInstanceOf(Date);
        expect(typeof rows.getCell('E2').value).toBe('number');
        expect(typeof rows.getCell('F2').value).toBe('number');
      }
      const figures = Object.fromEntries(asCsvRows(summary).slice(1));
      const totals = (await t.get(`/api/dashboard/summary?${filters}`, cookie)).body.totals;
      expect(figures.Visitors).toBe(String(totals.visitors));
      expect(figures.Revenue).toBe(String(totals.revenue));
    }
    if (museums) {
      const { book } = await workbookAt(t, '/api/dashboard/export.xlsx', cookie);
      expect(JSON.stringify(asCsvRows(book.worksheets[0]))).not.toContain(BETA);
    }
  });

  it.each([
    ['an administrator', undefined],
    ['a viewer restricted to one museum', [ALPHA]],
  ])('when %s exports a comparison, then its sheet equals compare.csv of the same sides, and the summary holds both sides', async (_, museums) => {
    const t = await dataApp();
    const cookie = museums ? await t.viewer(JSON.stringify(museums)) : await t.admin();
    for (const asked of ['a=2024&b=2025', `a=2024&b=2025&museum=${q(BETA)}`, 'against=year&from=2025-01-01&to=2025-03-01']) {
      const csv = await t.get(`/api/dashboard/compare.csv?${asked}`, cookie);
      const { book, disposition } = await workbookAt(t, `/api/dashboard/compare.xlsx?${asked}`, cookie);
      expect(asCsvRows(book.worksheets[0])).toEqual(csvLines(csv.text));
      expect(disposition).toBe(csv.headers['content-disposition'].replace('.csv', '.xlsx'));
      const compared = (await t.get(`/api/dashboard/compare?${asked}`, cookie)).body;
      const summary = asCsvRows(book.worksheets[1]);
      expect(summary.filter(([label]) => label === 'Visitors').map(([, value]) => value)).toEqual([String(compared.a.totals.visitors), String(compared.b.totals.visitors)]);
    }
  });

  it('when the page is Arabic, then the sheets run right to left and are labelled in Arabic; in English, left to right', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const arabic = (await workbookAt(t, '/api/dashboard/export.xlsx?year=2024&lang=ar', admin)).book;
    expect(arabic.worksheets.map((s) => s.name)).toEqual(['الزيارات', 'الملخص']);
    expect(arabic.worksheets.map((s) => s.views[0]?.rightToLeft)).toEqual([true, true]);
    // The page's language cookie says the same when the address does not.
    const byCookie = (await workbookAt(t, '/api/dashboard/compare.xlsx?a=2024&b=2025', `${admin}; lang=ar`)).book;
    expect(byCookie.worksheets[0].views[0]?.rightToLeft).toBe(true);
    const english = (await workbookAt(t, '/api/dashboard/export.xlsx?year=2024&lang=en', `${admin}; lang=ar`)).book;
    expect(english.worksheets.map((s) => s.views[0]?.rightToLeft ?? false)).toEqual([false, false]);
  });

  it('when a saved view is exported, then the file holds what the opener may see of it; someone else’s private view is 404', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const shared = (await t.send('post', '/api/dashboard/views', admin).send({ name: 'Beta', query: `museum=${q(BETA)}`, shared: true })).body.view;
    const own = (await t.send('post', '/api/dashboard/views', admin).send({ name: 'Mine', query: 'year=2024' })).body.view;
    const { book } = await workbookAt(t, `/api/dashboard/export.xlsx?view=${shared.id}`, viewer);
    expect(asCsvRows(book.worksheets[0])).toEqual([['date', 'museum', 'channel', 'district', 'visitors', 'revenue']]);
    expect((await t.get(`/api/dashboard/export.xlsx?view=${own.id}`, viewer)).status).toBe(404);
  });

  it('when the filters are malformed, then 400 JSON and nothing is recorded; a good export is in the audit trail as xlsx', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    for (const path of ['/api/dashboard/export.xlsx?year=24', '/api/dashboard/export.xlsx?colour=red', '/api/dashboard/compare.xlsx?a=2024', '/api/dashboard/export.xlsx?view=1&year=2024']) {
      const res = await t.get(path, admin);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
    expect((await t.get('/api/audit?action=dataExported', admin)).body.events).toEqual([]);
    await workbookAt(t, `/api/dashboard/export.xlsx?year=2024&museum=${q(ALPHA)}&lang=ar`, admin);
    await workbookAt(t, '/api/dashboard/compare.xlsx?a=2024&b=2025', admin);
    const events = ((await t.get('/api/audit?action=dataExported', admin)).body.events as { target: string; targetName: string; after: object }[]).reverse();
    expect(events).toEqual([
      expect.objectContaining({ target: 'visits', targetName: 'visits_2024-01-01_2024-12-31_Alpha-Museum.xlsx', after: { format: 'xlsx', year: '2024', museum: ALPHA } }),
      expect.objectContaining({ target: 'comparison', targetName: expect.stringMatching(/^comparison_.*\.xlsx$/), after: { format: 'xlsx', a: '2024', b: '2025' } }),
    ]);
  });
});
