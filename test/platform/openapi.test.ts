import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { isApiPath } from '../../src/platform/errors';
import { isOperation, openApiPath } from '../../src/platform/openapi';
import { routesOf } from '../../src/platform/route-table';
import { buildApp, type TestDashboard } from '../support/app';

const README = path.join(__dirname, '..', '..', 'README.md');

interface Description {
  openapi: string;
  paths: Record<string, Record<string, { parameters: { name: string; in: string; schema: Record<string, unknown> }[]; requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>>;
}

/** `GET /api/posts/{id}`-style names of every operation in the description. */
const operationsOf = (api: Description) =>
  Object.entries(api.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)).sort();

/**
 * The routes the README's API tables name: the first cell of each row, whose code spans read
 * `GET /path`, `GET/POST /path`, or `GET`/`POST /path` (a method alone lends itself to the next
 * path); query strings and `[optional]` parts are not part of a route.
 */
function readmeRoutes(): string[] {
  const found = new Set<string>();
  for (const line of fs.readFileSync(README, 'utf8').split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split(' | ')[0];
    let pending: string[] = [];
    for (const [, span] of firstCell.matchAll(/`([^`]+)`/g)) {
      const m = /^((?:GET|POST|PUT|PATCH|DELETE|HEAD)(?:\/(?:GET|POST|PUT|PATCH|DELETE|HEAD))*)(?:\s+(\/\S*))?(?:\s.*)?$/.exec(span.trim());
      if (!m) continue;
      const methods = [...pending, ...m[1].split('/')];
      if (!m[2]) {
        pending = methods;
        continue;
      }
      pending = [];
      const route = openApiPath(m[2].replace(/[?[].*$/, '').replace(/<(\w+)>/g, ':$1'));
      if (!isApiPath(route)) continue;
      for (const method of methods) if (method !== 'HEAD') found.add(`${method} ${route}`);
    }
  }
  return [...found].sort();
}

describe('the API description', () => {
  let t: TestDashboard;
  let api: Description;
  beforeAll(async () => {
    t = await buildApp();
    const res = await request(t.app).get('/api/openapi.json');
    expect(res.status).toBe(200);
    api = res.body as Description;
  });

  it('when it is asked for, then it is OpenAPI 3.1 naming every API route the app answers, and nothing else', () => {
    expect(api.openapi).toBe('3.1.0');
    const answered = routesOf(t.app.router)
      .filter(isOperation)
      .map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`)
      .sort();
    expect(operationsOf(api)).toEqual(answered);
    // Both applications and the routes of every feature, nested routers included.
    expect(answered).toEqual(expect.arrayContaining(['POST /auth/login', 'GET /api/dashboard/summary', 'GET /api/posts/{id}', 'POST /api/tasks/{id}/comments', 'PATCH /api/posts']));
  });

  it('when a route takes a path parameter, then the description says what it accepts, from the schema that checks it', () => {
    // Stored files are looked up by the path exactly as sent, never decoded (assets/routes.ts).
    const readsItsOwnPath = 'get /api/uploads/{key} key';
    const unchecked = Object.entries(api.paths).flatMap(([p, ops]) =>
      Object.entries(ops).flatMap(([m, op]) => op.parameters.filter((q) => q.in === 'path' && Object.keys(q.schema).length === 1).map((q) => `${m} ${p} ${q.name}`)),
    );
    expect(unchecked).toEqual([readsItsOwnPath]);
    expect(api.paths['/api/posts/{id}'].get.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true, schema: expect.objectContaining({ pattern: expect.any(String) }) })]);
  });

  it('when a route takes a JSON body, then the description gives its schema with the required fields', () => {
    expect(api.paths['/api/posts'].post.requestBody?.content['application/json'].schema.required).toEqual(['title']);
    expect(api.paths['/api/dashboard/summary'].get.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['from', 'to', 'granularity']));
  });

  it("when the README's API tables are read, then they list exactly the routes the description has", () => {
    const described = operationsOf(api);
    const listed = readmeRoutes();
    expect({ missingFromReadme: described.filter((r) => !listed.includes(r)), notARoute: listed.filter((r) => !described.includes(r)) }).toEqual({ missingFromReadme: [], notARoute: [] });
  });

  it('when a person opens /api/docs, then every operation is there by feature, in English and in Arabic', async () => {
    const en = await request(t.app).get('/api/docs');
    expect(en.status).toBe(200);
    expect(en.type).toBe('text/html');
    expect(en.text).toContain('/api/posts/{id}');
    expect(en.text).toContain('API reference');
    const ar = await request(t.app).get('/api/docs').set('Cookie', 'lang=ar');
    expect(ar.text).toContain('dir="rtl"');
    expect(ar.text).toContain('مرجع واجهة البرمجة');
  });
});
