import { beforeEach, describe, expect, it } from 'vitest';
import { snapshot } from '../support/workspace';
import { appOf, buildWorld, isApi, isWrite, key, methodsOf, pathFor, READ_ONLY_UPLOADS, renameBody, send, type World } from './world';

let world: World;
beforeEach(async () => {
  world = await buildWorld();
}, 60_000);

/**
 * Cookie-signed writes these routes take from anywhere: signing in needs no session to
 * protect, SPEC.md has POST /auth/logout answer the same to everyone, and a mail program
 * posts a one-click unsubscribe from elsewhere, where the signed token decides and no cookie
 * is read.
 */
const EXEMPT = new Set(['POST /auth/login', 'POST /auth/logout', 'POST /api/auth/login', 'POST /api/mail/unsubscribe']);

/** How a request from another site can look, as browsers send it. */
const FOREIGN: Record<string, Record<string, string>> = {
  'an Origin of another site': { Origin: 'https://evil.example' },
  'an Origin of another port': { Origin: 'http://127.0.0.1:1' },
  'Origin null (a sandboxed frame)': { Origin: 'null' },
  'only a Referer of another site': { Referer: 'https://evil.example/page' },
  'Sec-Fetch-Site cross-site': { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
  'Sec-Fetch-Site same-site (a sibling subdomain)': { 'Sec-Fetch-Site': 'same-site' },
  'no Origin, Referer or Sec-Fetch-Site at all': {},
};

function cookieWrites(world: World) {
  return world.routes
    .filter((r) => isApi(r.path) && appOf(r.path) !== 'platform' && !EXEMPT.has(key(r)) && key(r) !== READ_ONLY_UPLOADS)
    .flatMap((r) => methodsOf(r).filter(isWrite).map((method) => ({ route: r, method })));
}

/** The dashboard's users and seasons, to prove a refused request changed nothing. */
const dashboardRows = async (world: World) => {
  const { db } = world.ws.stores.records.dashboard;
  return JSON.stringify([await db.selectFrom('users').selectAll().orderBy('id').execute(), await db.selectFrom('seasons').selectAll().orderBy('id').execute()]);
};

const cookieOf = (world: World, path: string) => (appOf(path) === 'dashboard' ? world.dashboardAdmin : world.workspaceCookie);
const bodyFor = (path: string, method: string) => (method === 'DELETE' ? undefined : renameBody(path, 'Forged'));

// Each test walks every state-changing route of both applications: several hundred requests on a shared machine.
describe('a state-changing request signed in by cookie from another origin', { timeout: 90_000 }, () => {
  it.each(Object.keys(FOREIGN))('when it comes with %s, then every state-changing route of both applications answers 403 CSRF and nothing changes', async (name) => {
    const writes = cookieWrites(world);
    expect(writes.length).toBeGreaterThan(30);
    const workspaceBefore = await snapshot(world.ws);
    const dashboardBefore = await dashboardRows(world);
    for (const { route, method } of writes) {
      const res = await send(world.app, method, pathFor(route, world.mine), { Cookie: cookieOf(world, route.path), ...FOREIGN[name] }, bodyFor(route.path, method));
      expect(res.status, `${method} ${route.path}`).toBe(403);
      expect(res.body, `${method} ${route.path}`).toEqual({ error: expect.any(String), code: 'CSRF' });
    }
    expect(await snapshot(world.ws)).toBe(workspaceBefore);
    expect(await dashboardRows(world)).toBe(dashboardBefore);
  });

  it('when the same requests come from the server itself (Origin, Referer or Sec-Fetch-Site), then none is refused as CSRF', async () => {
    const own = (host: string): Record<string, Record<string, string>> => ({
      Origin: { Origin: `http://${host}` },
      Referer: { Referer: `http://${host}/workspace` },
      'Sec-Fetch-Site': { 'Sec-Fetch-Site': 'same-origin' },
    });
    for (const [how, headers] of Object.entries(own('127.0.0.1'))) {
      for (const { route, method } of cookieWrites(world)) {
        const res = await send(world.app, method, pathFor(route, world.mine), { Cookie: cookieOf(world, route.path), Host: '127.0.0.1', ...headers }, bodyFor(route.path, method));
        expect(res.status, `${how}: ${method} ${route.path}`).toBeLessThan(500);
        expect(res.body.code, `${how}: ${method} ${route.path}`).not.toBe('CSRF');
      }
      world = await buildWorld();
    }
  });

  it('when a workspace write from another origin carries a bearer token instead of a cookie, then it is not a CSRF case and goes through', async () => {
    const res = await send(world.app, 'POST', '/api/posts', { Authorization: `Bearer ${world.manager.token}`, Origin: 'https://evil.example' }, { title: 'By token', brandId: world.mine.brand });
    expect(res.status).toBe(201);
  });

  it('when the exempt sign-in and sign-out routes are posted from another origin, then they still answer without a server error', async () => {
    for (const route of world.routes.filter((r) => EXEMPT.has(key(r)))) {
      const res = await send(world.app, 'POST', route.path, { Cookie: `${world.dashboardAdmin}; ${world.workspaceCookie}`, Origin: 'https://evil.example' }, {});
      expect(res.status, route.path).toBeLessThan(500);
    }
  });
});
