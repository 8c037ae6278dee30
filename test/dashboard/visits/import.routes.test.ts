import http from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { DEFAULT_IMPORT_MAX_BYTES } from '../../../src/dashboard/visits/service';
import { serve } from '../../support/browser';
import { ALPHA, ROWS, csvOf, dataApp, expectedTotals } from '../fixtures';
import { rowCount } from '../../support/records';

const HEADER = 'date,museum,channel,district,visitors,revenue';
const NEW_ROWS = `${HEADER}\n2025-04-01,Delta Museum,Online,East,11,55.5\n2025-04-02,Delta Museum,Online,East,9,45\n`;

type DataApp = Awaited<ReturnType<typeof dataApp>>;

function postCsv(t: DataApp, cookie: string | undefined, body: string, type = 'text/csv') {
  return t.send('post', '/api/dashboard/import', cookie).set('Content-Type', type).send(body);
}

async function totals(t: DataApp, cookie: string) {
  return (await t.get('/api/dashboard/summary', cookie)).body.totals;
}

function storedRows(t: DataApp): Promise<number> {
  return rowCount(t.stores.records.dashboard, 'visits');
}

describe('POST /api/dashboard/import', () => {
  it('when an administrator sends a text/csv body, then the rows are added and the figures follow', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    expect(await totals(t, admin)).toEqual({ visitors: 69, revenue: 551.75, days: 8 });
    const res = await postCsv(t, admin, NEW_ROWS);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: 2 });
    expect(await totals(t, admin)).toEqual({ visitors: 89, revenue: 652.25, days: 10 });
    const filters = await t.get('/api/dashboard/filters', admin);
    expect(filters.body.museums).toContain('Delta Museum');
    expect(filters.body.districts).toContain('East');
  });

  it('when a row has the date, museum, channel and district of a stored one, then it replaces that row', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const res = await postCsv(t, admin, `${HEADER}\n2024-01-01,${ALPHA},Online,North,1000,5000.25\n`);
    expect(res.body).toEqual({ imported: 1 });
    expect(await storedRows(t)).toBe(ROWS.length);
    const alpha = (await t.get(`/api/dashboard/summary?museum=${encodeURIComponent(ALPHA)}&year=2024&channel=Online`, admin)).body.totals;
    expect(alpha).toEqual({ visitors: 1000 + 7, revenue: 5070.25, days: 2 });
  });

  it('when the file repeats a key, then the later line wins', async () => {
    const t = await dataApp([]);
    const admin = await t.admin();
    const res = await postCsv(t, admin, `${HEADER}\n2025-01-01,X,Online,N,1,1\n2025-01-01,X,Online,N,2,3\n`);
    expect(res.body).toEqual({ imported: 2 });
    expect(await totals(t, admin)).toEqual({ visitors: 2, revenue: 3, days: 1 });
  });

  it('when the file comes as multipart in the field "file", then it is imported the same way', async () => {
    const t = await dataApp([]);
    const admin = await t.admin();
    const res = await t
      .send('post', '/api/dashboard/import', admin)
      .attach('file', Buffer.from(csvOf(ROWS)), { filename: 'visits.csv', contentType: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ imported: ROWS.length });
    expect(await totals(t, admin)).toEqual(expectedTotals(() => true));
  });

  it('when the multipart file is in another field, then 400 and nothing is stored', async () => {
    const t = await dataApp([]);
    const res = await t
      .send('post', '/api/dashboard/import', await t.admin())
      .attach('upload', Buffer.from(NEW_ROWS), { filename: 'visits.csv', contentType: 'text/csv' });
    expect(res.status).toBe(400);
    expect(await storedRows(t)).toBe(0);
  });

  it('when the multipart body holds no file, then 400', async () => {
    const t = await dataApp([]);
    const res = await t.send('post', '/api/dashboard/import', await t.admin()).field('note', 'no file');
    expect(res.status).toBe(400);
  });

  it('when the multipart body is cut short, then 400 and nothing is stored', async () => {
    const t = await dataApp([]);
    const res = await postCsv(t, await t.admin(), `--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\n${NEW_ROWS}`, 'multipart/form-data; boundary=xyz');
    expect(res.status).toBe(400);
    expect(await storedRows(t)).toBe(0);
  });

  it('when one line is bad, then 400 names its line and field and nothing at all is stored', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const lines = [HEADER, '2025-05-01,Delta Museum,Online,East,1,1', '2025-05-02,Delta Museum,Online,East,many,1', '2025-05-03,Delta Museum,Online,East,3,3'];
    const res = await postCsv(t, admin, `${lines.join('\n')}\n`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'IMPORT_INVALID',
      details: { errors: [{ line: 3, field: 'visitors', message: expect.any(String) }], truncated: false },
    });
    expect(typeof res.body.error).toBe('string');
    expect(await storedRows(t)).toBe(ROWS.length);
    expect(await totals(t, admin)).toEqual({ visitors: 69, revenue: 551.75, days: 8 });
    expect(await rowCount(t.stores.records.dashboard, 'visits_import')).toBe(0);
  });

  it('when a large file has one bad line at its end, then nothing of it is stored', async () => {
    const t = await dataApp([]);
    const good = Array.from({ length: 12_000 }, (_, i) => `2025-01-01,M${i},Online,D,1,1`);
    const res = await postCsv(t, await t.admin(), [HEADER, ...good, '2025-01-02,M,Online,D,1,'].join('\n'));
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toEqual([{ line: 12_002, field: 'revenue', code: 'INVALID_REVENUE', message: expect.any(String) }]);
    expect(await storedRows(t)).toBe(0);
  });

  it('when the header is wrong, then 400 names it', async () => {
    const t = await dataApp([]);
    const res = await postCsv(t, await t.admin(), 'day,museum,channel,district,visitors,revenue\n');
    expect(res.status).toBe(400);
    expect(res.body.details.errors).toContainEqual({ line: 1, field: 'date', code: 'MISSING_COLUMN', message: 'column is missing' });
  });

  it('when lines are refused, then each problem carries a code for pages beside its English message for API clients', async () => {
    const t = await dataApp([]);
    const res = await postCsv(t, await t.admin(), [HEADER, '2025-13-01,M,Online,D,1,1', '2025-01-01,,Online,D,x,1', '2025-01-01,M'].join('\n'));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('IMPORT_INVALID');
    expect(res.body.details.errors).toEqual([
      { line: 2, field: 'date', code: 'INVALID_DATE', message: expect.any(String), params: { minYear: expect.any(Number), maxYear: expect.any(Number) } },
      { line: 3, field: 'museum', code: 'EMPTY_NAME', message: 'must not be empty' },
      { line: 3, field: 'visitors', code: 'INVALID_VISITORS', message: expect.any(String), params: { max: expect.any(Number) } },
      { line: 4, field: 'row', code: 'FIELD_COUNT', message: 'expected 6 fields, found 2', params: { expected: 6, found: 2 } },
    ]);
  });

  it('when an import fails, then the next one still runs', async () => {
    const t = await dataApp([]);
    const admin = await t.admin();
    expect((await postCsv(t, admin, `${HEADER}\nbad\n`)).status).toBe(400);
    expect((await postCsv(t, admin, NEW_ROWS)).body).toEqual({ imported: 2 });
  });

  it.each(['application/json', 'text/plain', 'application/x-www-form-urlencoded'])('when the content type is %s, then 415', async (type) => {
    const t = await dataApp([]);
    const res = await postCsv(t, await t.admin(), type === 'application/json' ? '{"rows":[]}' : NEW_ROWS, type);
    expect(res.status).toBe(415);
    expect(await storedRows(t)).toBe(0);
  });

  it('when the declared length is above the limit, then 413 before the body is read, and the connection closes', async () => {
    const t = await dataApp([]);
    const server = await serve(t.app);
    onTestFinished(server.close);
    const cookie = await t.admin();
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${server.url}/api/dashboard/import`, {
        method: 'POST',
        headers: {
          Cookie: cookie,
          'Sec-Fetch-Site': 'same-origin',
          'Content-Type': 'text/csv',
          'Content-Length': String(DEFAULT_IMPORT_MAX_BYTES + 1),
        },
      });
      req.on('response', (res) => {
        resolve(res);
        req.destroy();
      });
      req.on('error', reject);
      req.write(NEW_ROWS);
    });
    expect(answer.statusCode).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(await storedRows(t)).toBe(0);
  });

  it('when a viewer imports, then 403 and nothing is stored', async () => {
    const t = await dataApp([]);
    const res = await postCsv(t, await t.viewer('[]'), NEW_ROWS);
    expect(res.status).toBe(403);
    expect(await storedRows(t)).toBe(0);
  });

  it('when there is no session, then 401', async () => {
    const t = await dataApp([]);
    expect((await postCsv(t, undefined, NEW_ROWS)).status).toBe(401);
  });

  it('when the request comes from another origin, then 403 CSRF', async () => {
    const t = await dataApp([]);
    const res = await postCsv(t, await t.admin(), NEW_ROWS).set('Sec-Fetch-Site', 'cross-site').set('Origin', 'https://evil.example');
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('CSRF');
    expect(await storedRows(t)).toBe(0);
  });
});
