import type { Router } from 'express';
import { z } from 'zod';
import { isApiPath } from './errors';
import { schemasOf, type Schemas } from './validate';

/** One route the app answers: its method, its Express path and the schemas its handler checks. */
export interface RouteEntry {
  method: string;
  path: string;
  schemas: Schemas | undefined;
}

// Express keeps its route table in the router's `stack`, which its types leave out. These are
// the fields of router 2's Layer and Route that a walk needs.
interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean>; stack: { handle: unknown }[] };
  handle: unknown;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function stackOf(handle: unknown): Layer[] | undefined {
  const stack = (handle as { stack?: unknown } | null)?.stack;
  return Array.isArray(stack) ? (stack as Layer[]) : undefined;
}

/**
 * A route's path as the description writes it. A route on a regular expression (which Express
 * matches without decoding any part of the path) is named by `describedAs`; without one it
 * is written as the expression itself, so that the README check names it rather than losing it.
 */
function nameOf(path: unknown): string {
  if (path instanceof RegExp) {
    const { describedAs } = path as DescribedRegExp;
    return typeof describedAs === 'string' ? describedAs : `/${path.source}`;
  }
  return String(path);
}

type DescribedRegExp = RegExp & { describedAs?: string };

/** `pattern`, named `path` in the API description (`/:key`): a route on it still matches by the expression alone. */
export function describedAs(pattern: RegExp, path: string): RegExp {
  return Object.assign(pattern, { describedAs: path });
}

function joined(prefix: string, part: string): string {
  const path = `${prefix}/${part}`.replace(/\/+/g, '/');
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

/** Every route reachable from `router`, in the order Express tries them, with the schemas of the first handler that checks input. */
export function routesOf(router: Router): RouteEntry[] {
  const found: RouteEntry[] = [];
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = joined(prefix, nameOf(layer.route.path));
        const schemas = layer.route.stack.map((l) => schemasOf(l.handle)).find((s) => s !== undefined);
        for (const method of METHODS) if (layer.route.methods[method]) found.push({ method, path, schemas });
        continue;
      }
      const inner = stackOf(layer.handle);
      if (inner && typeof layer.rawPath === 'string') walk(inner, joined(prefix, layer.rawPath));
    }
  };
  walk(stackOf(router) ?? [], '/');
  return dedupe(found);
}

// A path served by two routers (a page and its API share a mount) is one operation.
function dedupe(routes: RouteEntry[]): RouteEntry[] {
  const seen = new Map<string, RouteEntry>();
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    const before = seen.get(key);
    if (!before) seen.set(key, route);
    else if (!before.schemas && route.schemas) before.schemas = route.schemas;
  }
  return [...seen.values()];
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
  for (const route of routesOf(router).filter((r) => isApiPath(r.path))) {
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
