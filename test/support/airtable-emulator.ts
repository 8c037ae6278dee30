import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { freePort } from './postgres-server';

/**
 * A local stand-in for Airtable's REST API, close enough for the real `airtable` client:
 * list with pageSize/offset (GET, and POST .../listRecords), read, create (one or many),
 * update (PATCH/PUT, one or many), delete (one or many), with Airtable's status codes and
 * error bodies. Faults are switched on per test: slow answers, N failing answers.
 */

export type Fields = Record<string, unknown>;

export interface EmulatedRecord {
  id: string;
  createdTime: string;
  fields: Fields;
}

export interface RecordedRequest {
  method: string;
  /** Path below /v0/{baseId}, decoded, e.g. "/Users" or "/Users/rec123". */
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | undefined;
}

export interface EmulatorOptions {
  apiKey?: string;
  baseId?: string;
  /** Tables and their field names; a write naming another field answers 422 like Airtable. */
  tables?: Record<string, readonly string[]>;
  /** Largest page served whatever pageSize asks for, so a handful of records spans pages. */
  maxPageSize?: number;
}

export const USERS_FIELDS = ['Id', 'Name', 'PIN', 'Role', 'AllowedMuseums', 'AllowedChannels', 'Email'] as const;

interface Table {
  fields: Set<string>;
  records: EmulatedRecord[];
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`Airtable emulator ${status}`);
  }
}

function notFound(type: string, message: string): ApiError {
  return new ApiError(404, { error: { type, message } });
}

function unprocessable(type: string, message: string): ApiError {
  return new ApiError(422, { error: { type, message } });
}

/** Airtable leaves empty cells out of a record's fields. */
function withoutEmpty(fields: Fields): Fields {
  const out: Fields = {};
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

function readBody(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text === '') {
        resolve(undefined);
        return;
      }
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new ApiError(422, { error: { type: 'INVALID_REQUEST_UNKNOWN', message: 'Invalid request: parameter validation failed' } }));
      }
    });
  });
}

export class AirtableEmulator {
  readonly apiKey: string;
  readonly baseId: string;
  readonly maxPageSize: number;
  /** Every request received, in order, including the ones answered with a fault. */
  readonly requests: RecordedRequest[] = [];
  /** Milliseconds to wait before answering each request. */
  delayMs = 0;
  private failures: { status: number; remaining: number; skip: number } | undefined;
  private readonly tables = new Map<string, Table>();
  private readonly server: http.Server;
  private port = 0;

  private constructor(opts: EmulatorOptions) {
    this.apiKey = opts.apiKey ?? `pat${randomBytes(8).toString('hex')}`;
    this.baseId = opts.baseId ?? `app${randomBytes(7).toString('hex')}`;
    this.maxPageSize = opts.maxPageSize ?? 3;
    for (const [name, fields] of Object.entries(opts.tables ?? { Users: USERS_FIELDS })) {
      this.tables.set(name, { fields: new Set(fields), records: [] });
    }
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  static async start(opts: EmulatorOptions = {}): Promise<AirtableEmulator> {
    const emulator = new AirtableEmulator(opts);
    await new Promise<void>((resolve) => emulator.server.listen(0, '127.0.0.1', resolve));
    emulator.port = (emulator.server.address() as AddressInfo).port;
    return emulator;
  }

  /** The endpointUrl to give the client. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** What a client of this emulator's base needs: key, base and endpoint. */
  get clientOptions(): { apiKey: string; baseId: string; endpointUrl: string } {
    return { apiKey: this.apiKey, baseId: this.baseId, endpointUrl: this.url };
  }

  /**
   * Answers `status` (e.g. 500, 429) to `times` requests, then serves normally again;
   * `after` requests are served normally first (a failure on page 2, say).
   */
  failNext(status: number, times = Number.POSITIVE_INFINITY, after = 0): void {
    this.failures = { status, remaining: times, skip: after };
  }

  heal(): void {
    this.failures = undefined;
    this.delayMs = 0;
  }

  /** Adds records straight into a table (no request), in order; returns them. */
  seed(table: string, rows: Fields[]): EmulatedRecord[] {
    const t = this.table(table);
    const created = rows.map((fields) => this.newRecord(fields));
    t.records.push(...created);
    return created;
  }

  records(table: string): EmulatedRecord[] {
    return this.table(table).records;
  }

  dropTable(name: string): void {
    this.tables.delete(name);
  }

  /** Requests that read a page of a table's records. */
  listRequests(table = 'Users'): RecordedRequest[] {
    return this.requests.filter(
      (r) => (r.method === 'GET' && r.path === `/${table}`) || (r.method === 'POST' && r.path === `/${table}/listRecords`),
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private table(name: string): Table {
    const t = this.tables.get(name);
    if (!t) throw notFound('TABLE_NOT_FOUND', `Could not find table ${name} in application ${this.baseId}`);
    return t;
  }

  private newRecord(fields: Fields): EmulatedRecord {
    return { id: `rec${randomBytes(7).toString('hex')}`, createdTime: new Date().toISOString(), fields: withoutEmpty(fields) };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    const prefix = `/v0/${this.baseId}`;
    let status = 200;
    let body: unknown;
    try {
      const requestBody = await readBody(req);
      // airtable.js writes "/Users/" for some calls and "/Users" for others; Airtable takes both.
      const full = url.pathname.startsWith(`${prefix}/`) ? decodeURIComponent(url.pathname.slice(prefix.length)) : url.pathname;
      const path = full.length > 1 ? full.replace(/\/$/, '') : full;
      this.requests.push({ method: req.method ?? 'GET', path, query: url.searchParams, body: requestBody, authorization: req.headers.authorization });
      if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
      body = this.answer(req, url, prefix, path, requestBody);
    } catch (err) {
      status = err instanceof ApiError ? err.status : 500;
      body = err instanceof ApiError ? err.body : { error: { type: 'SERVER_ERROR', message: String(err) } };
    }
    if (res.destroyed) return;
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  }

  private answer(req: http.IncomingMessage, url: URL, prefix: string, path: string, body: unknown): unknown {
    if (this.failures && this.failures.skip > 0) {
      this.failures.skip -= 1;
    } else if (this.failures && this.failures.remaining > 0) {
      this.failures.remaining -= 1;
      const { status } = this.failures;
      if (status === 429) throw new ApiError(429, { errors: [{ error: 'RATE_LIMIT_REACHED', message: 'Rate limit exceeded. Please try again later' }] });
      throw new ApiError(status, { error: { type: 'SERVER_ERROR', message: 'Server error' } });
    }
    if (req.headers.authorization !== `Bearer ${this.apiKey}`) {
      throw new ApiError(401, { error: { type: 'AUTHENTICATION_REQUIRED', message: 'Authentication required' } });
    }
    if (!url.pathname.startsWith(`${prefix}/`)) throw notFound('NOT_FOUND', 'Could not find what you are looking for');

    // at(), not indexing: a short path has no part there, though indexing would type one as a string.
    const parts = path.split('/');
    const [tableName, recordId, extra] = [parts.at(1), parts.at(2), parts.at(3)];
    if (!tableName || extra !== undefined) throw notFound('NOT_FOUND', 'Could not find what you are looking for');
    const table = this.table(tableName);
    const method = req.method ?? 'GET';

    if (recordId === 'listRecords' && method === 'POST') return this.list(table, { ...(body as object), ...Object.fromEntries(url.searchParams) });
    if (recordId === undefined || recordId === '') {
      if (method === 'GET') return this.list(table, Object.fromEntries(url.searchParams));
      if (method === 'POST') return this.create(table, body);
      if (method === 'PATCH' || method === 'PUT') return this.updateMany(table, body, method === 'PUT');
      if (method === 'DELETE') return { records: url.searchParams.getAll('records[]').map((id) => this.destroy(table, id)) };
    } else {
      if (method === 'GET') return this.find(table, recordId);
      if (method === 'PATCH' || method === 'PUT') {
        const { fields } = (body ?? {}) as { fields?: Fields };
        return this.update(table, recordId, fields ?? {}, method === 'PUT');
      }
      if (method === 'DELETE') return this.destroy(table, recordId);
    }
    throw notFound('NOT_FOUND', 'Could not find what you are looking for');
  }

  private list(table: Table, params: Record<string, unknown>): unknown {
    if (params.filterByFormula !== undefined) {
      // Formulas are deliberately not evaluated: a store that needs one is doing what it must not.
      throw unprocessable('INVALID_FILTER_BY_FORMULA', 'The emulator does not evaluate formulas');
    }
    const asked = Number(params.pageSize ?? 100);
    if (!Number.isInteger(asked) || asked < 1 || asked > 100) throw unprocessable('INVALID_REQUEST_UNKNOWN', 'Invalid pageSize');
    const pageSize = Math.min(asked, this.maxPageSize);
    let start = 0;
    if (typeof params.offset === 'string' && params.offset !== '') {
      const next = params.offset.split('/')[1];
      start = table.records.findIndex((r) => r.id === next);
      if (start < 0) throw unprocessable('LIST_RECORDS_ITERATOR_NOT_AVAILABLE', 'The offset is no longer valid');
    }
    const records = table.records.slice(start, start + pageSize);
    const following = table.records.at(start + pageSize);
    return following ? { records, offset: `itr${randomBytes(4).toString('hex')}/${following.id}` } : { records };
  }

  private find(table: Table, recordId: string): EmulatedRecord {
    const record = table.records.find((r) => r.id === recordId);
    if (!record) throw notFound('MODEL_ID_NOT_FOUND', `Could not find a record with ID ${recordId}`);
    return record;
  }

  private checkFields(table: Table, fields: Fields): void {
    for (const name of Object.keys(fields)) {
      if (!table.fields.has(name)) throw unprocessable('UNKNOWN_FIELD_NAME', `Unknown field name: "${name}"`);
    }
  }

  private create(table: Table, body: unknown): unknown {
    const b = (body ?? {}) as { fields?: Fields; records?: { fields?: Fields }[] };
    if (Array.isArray(b.records)) {
      const created = b.records.map((r) => {
        this.checkFields(table, r.fields ?? {});
        return this.newRecord(r.fields ?? {});
      });
      table.records.push(...created);
      return { records: created };
    }
    this.checkFields(table, b.fields ?? {});
    const record = this.newRecord(b.fields ?? {});
    table.records.push(record);
    return record;
  }

  private update(table: Table, recordId: string, fields: Fields, replace: boolean): EmulatedRecord {
    const record = this.find(table, recordId);
    this.checkFields(table, fields);
    record.fields = withoutEmpty(replace ? fields : { ...record.fields, ...fields });
    return record;
  }

  private updateMany(table: Table, body: unknown, replace: boolean): unknown {
    const b = (body ?? {}) as { records?: { id: string; fields?: Fields }[] };
    return { records: (b.records ?? []).map((r) => this.update(table, r.id, r.fields ?? {}, replace)) };
  }

  private destroy(table: Table, recordId: string): unknown {
    const record = this.find(table, recordId);
    table.records.splice(table.records.indexOf(record), 1);
    return { id: record.id, deleted: true };
  }
}

/**
 * An endpoint URL on which nothing listens, so a client's connection is refused. Its port is
 * drawn below the kernel's ephemeral range (freePort): a port freed in that range could be given
 * to another test's emulator on port 0, which would then answer (it happened in CI).
 */
export async function refusedUrl(): Promise<string> {
  return `http://127.0.0.1:${String(await freePort())}`;
}

/** Starts an emulator that is closed when the current test finishes. */
export async function startEmulatorForTest(opts: EmulatorOptions = {}): Promise<AirtableEmulator> {
  const emulator = await AirtableEmulator.start(opts);
  // Imported here rather than at the top, so the benchmarks can run the emulator outside vitest.
  const { onTestFinished } = await import('vitest');
  onTestFinished(() => emulator.close());
  return emulator;
}
