import type { Router } from 'express';
import { z } from 'zod';
import { isApiPath } from './errors';
import { routesOf, type RouteEntry } from './route-table';

/**
 * Whether the description lists `route`: an API route on one method. A route on every method
 * is a guard (the stored files' refusal of writes), not an operation a client calls.
 */
export function isOperation(route: RouteEntry): boolean {
  return isApiPath(route.path) && route.method !== 'all';
}

/** `/api/posts/:id` as OpenAPI writes it: `/api/posts/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function pathKeys(path: string): string[] {
  return [...path.matchAll(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
}

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

// Requests are described as clients send them: before transforms (`io: 'input'`), with what
// JSON Schema cannot say (a refinement) left as "any value" rather than failing the document.
function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parameters(where: 'path' | 'query', schema: z.ZodType | undefined, names: string[]) {
  const described = schema ? jsonSchema(schema) : undefined;
  const properties = described?.properties ?? {};
  const required = new Set(described?.required ?? []);
  const all = [...new Set([...names, ...Object.keys(properties)])];
  return all.map((name) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: properties[name] ?? { type: 'string' },
  }));
}

const ERROR = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, code: { type: 'string' }, details: {} },
};

function operation(route: RouteEntry, tag: string) {
  const { schemas } = route;
  const body = schemas?.body ? { required: true, content: { 'application/json': { schema: jsonSchema(schemas.body) } } } : undefined;
  return {
    tags: [tag],
    operationId: `${route.method}${openApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    parameters: [...parameters('path', schemas?.params, pathKeys(route.path)), ...parameters('query', schemas?.query, [])],
    ...(body ? { requestBody: body } : {}),
    responses: {
      '2XX': { description: 'Done; the body is JSON unless the route serves a file or an event stream' },
      default: { description: 'An error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    },
  };
}

/** The feature a route belongs to: its first segment after `/api` (or after `/api/dashboard`). */
function tagOf(path: string): string {
  const parts = path.split('/').filter(Boolean);
  const start = parts[0] === 'api' ? (parts[1] === 'dashboard' && parts.length > 2 ? 2 : 1) : 0;
  const name = parts[start] ?? 'root';
  return start === 2 ? `dashboard ${name}` : name;
}

/** The OpenAPI 3.1 description of the API routes of `router`, written from their own schemas. */
export function describeApi(router: Router, info: { title: string; version: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routesOf(router).filter(isOperation)) {
    const key = openApiPath(route.path);
    paths[key] ??= {};
    paths[key][route.method] = operation(route, tagOf(route.path));
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      schemas: { Error: ERROR },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A workspace token from POST /api/auth/login' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'connect.sid', description: 'A signed-in browser session' },
      },
    },
  };
}
