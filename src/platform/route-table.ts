import type { Router } from 'express';
import { routeName } from './route-names';
import { schemasOf, type Schemas } from './validate';

/**
 * One route the app answers: its method (lower case; `all` for a route on every method), its
 * path as declared with the mount paths before it, and the schemas its handler checks. The API
 * description, the request metrics and the security suite all name routes from this table, so
 * a route is called the same everywhere.
 */
export interface RouteEntry {
  method: string;
  path: string;
  schemas: Schemas | undefined;
}

// Express keeps its route table in the router's `stack`, which its types leave out. These are
// the fields of router 2's Layer and Route that a walk needs.
interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean | undefined>; stack: { handle: unknown }[] };
  handle: unknown;
}

function stackOf(handle: unknown): Layer[] | undefined {
  const stack = (handle as { stack?: unknown } | null)?.stack;
  return Array.isArray(stack) ? (stack as Layer[]) : undefined;
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
        const path = joined(prefix, routeName(layer.route.path));
        const schemas = layer.route.stack.map((l) => schemasOf(l.handle)).find((s) => s !== undefined);
        for (const [method, on] of Object.entries(layer.route.methods)) if (on) found.push({ method: method === '_all' ? 'all' : method, path, schemas });
        continue;
      }
      const inner = stackOf(layer.handle);
      if (inner && typeof layer.rawPath === 'string') walk(inner, joined(prefix, layer.rawPath));
    }
  };
  walk(stackOf(router) ?? [], '/');
  return dedupe(found);
}

// A path served by two routers (a page and its API share a mount) is one route.
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
