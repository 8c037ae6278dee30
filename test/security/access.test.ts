import jwt from 'jsonwebtoken';
import { request } from '../support/http';
import { beforeEach, describe, expect, it } from 'vitest';
import { pdf } from '../support/files';
import { snapshot } from '../support/workspace';
import {
  adminOf,
  appOf,
  buildWorld,
  expectNoLeak,
  IDS_IN_BODY,
  isApi,
  key,
  methodsOf,
  pathFor,
  PUBLIC,
  READ_ONLY_UPLOADS,
  renameBody,
  SECRET,
  send,
  textOf,
  type Route,
  type World,
} from './world';

let world: World;
beforeEach(async () => {
  world = await buildWorld();
}, 60_000);

/** What a route answers to a request that carries no credentials it accepts. */
async function expectRefused(route: Route, headers: Record<string, string>, what: string) {
  for (const method of methodsOf(route)) {
    const res = await send(world.app, method, pathFor(route, world.mine), headers, isApi(route.path) && method !== 'GET' ? {} : undefined);
    const label = `${what}: ${method} ${route.path}`;
    expect(res.status, `${label} → ${res.text.slice(0, 200)}`).toBeLessThan(500);
    if (key(route) === READ_ONLY_UPLOADS) {
      expect(res.status, label).toBe(405);
    } else if (PUBLIC[key(route)] !== undefined) {
      expect(res.status, label).toBe(PUBLIC[key(route)]);
    } else if (isApi(route.path)) {
      expect(res.status, label).toBe(401);
      expect(res.body, label).toEqual(expect.objectContaining({ error: expect.any(String) }));
    } else {
      expect(res.status, label).toBe(303);
      expect(res.headers.location, label).toMatch(appOf(route.path) === 'dashboard' ? /^\/dashboard\/login\?next=/ : /^\/login\?next=/);
    }
  }
}

describe('the route table read from the routers', () => {
  it('when both applications are built, then every route is found, with its mount path, and every parameter has a sample id', () => {
    const keys = world.routes.map(key);
    for (const expected of ['POST /auth/login', 'PATCH /api/users/:id', 'GET /api/dashboard/summary', 'DELETE /api/campaigns/:id', 'GET /api/assets/:id/download', 'GET /dashboard/settings', 'GET /workspace']) {
      expect(keys).toContain(expected);
    }
    expect(world.routes.length).toBeGreaterThan(70);
    for (const route of world.routes) expect(() => pathFor(route, world.mine), key(route)).not.toThrow();
  });
});

describe('every route without credentials', () => {
  it('when nothing identifies the caller, then API routes answer 401 (uploads 405 to writes), pages redirect to their sign-in page, and the public ones answer as documented', async () => {
    for (const route of world.routes) await expectRefused(route, {}, 'no credentials');
  });
});

describe("every route with the other application's credentials", () => {
  it("when a workspace route gets the dashboard administrator's cookie, then it answers as to no one", async () => {
    for (const route of world.routes.filter((r) => appOf(r.path) === 'workspace')) {
      await expectRefused(route, { Cookie: world.dashboardAdmin, 'Sec-Fetch-Site': 'same-origin' }, 'dashboard cookie');
    }
  });

  it("when a dashboard route gets the workspace superadmin's cookie and token, then it answers as to no one", async () => {
    for (const route of world.routes.filter((r) => appOf(r.path) === 'dashboard')) {
      const headers = { Cookie: world.workspaceCookie, Authorization: `Bearer ${world.superadmin.token}`, 'Sec-Fetch-Site': 'same-origin' };
      await expectRefused(route, headers, 'workspace credentials');
    }
  });
});

describe('every workspace API route with a bad token', () => {
  const secret = 'test-jwt-secret-0123456789abcdef0123456789';
  const claims = () => ({ sub: String(world.superadmin.id), role: 'superadmin', ver: 0 });
  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const tokens: Record<string, () => string> = {
    'a tampered payload': () => {
      const [head, , signature] = world.contributor.token.split('.');
      return `${head}.${base64url({ ...claims(), iat: Math.floor(Date.now() / 1000) })}.${signature}`;
    },
    'a changed signature': () => `${world.superadmin.token.slice(0, -4)}AAAA`,
    'alg none': () => `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims())}.`,
    'an expired token': () => jwt.sign({ ...claims(), iat: 1_000 }, secret, { algorithm: 'HS256', expiresIn: 60 }),
    'another secret': () => jwt.sign(claims(), 'another-secret-0123456789abcdef0123456789', { algorithm: 'HS256' }),
    'HS512 with the right secret': () => jwt.sign(claims(), secret, { algorithm: 'HS512' }),
    'no version claim': () => jwt.sign({ sub: String(world.superadmin.id), role: 'superadmin' }, secret, { algorithm: 'HS256' }),
    'a user that does not exist': () => jwt.sign({ ...claims(), sub: '999999' }, secret, { algorithm: 'HS256' }),
    'not a token at all': () => 'not.a.token',
  };

  it.each(Object.keys(tokens))('when the bearer token is %s, then every non-public workspace API route answers 401 INVALID_TOKEN', async (name) => {
    const token = tokens[name]();
    for (const route of world.routes.filter((r) => appOf(r.path) === 'workspace' && isApi(r.path))) {
      if (PUBLIC[key(route)] !== undefined || key(route) === READ_ONLY_UPLOADS) {
        await expectRefused(route, { Authorization: `Bearer ${token}` }, name);
        continue;
      }
      for (const method of methodsOf(route)) {
        const res = await send(world.app, method, pathFor(route, world.mine), { Authorization: `Bearer ${token}` }, method === 'GET' ? undefined : {});
        expect(res.status, `${name}: ${method} ${route.path}`).toBe(401);
        expect(res.body.code, `${name}: ${method} ${route.path}`).toBe('INVALID_TOKEN');
      }
    }
  });

  it("when the token is the superadmin's own but a cookie of another user comes with it, then the token decides alone", async () => {
    const res = await request(world.app).get('/api/auth/me').set({ Authorization: `Bearer ${tokens['alg none']()}`, Cookie: world.workspaceCookie });
    expect(res.status).toBe(401);
  });
});

describe("every workspace route with another brand's ids", () => {
  const members = () => [
    ['manager', world.manager],
    ['contributor', world.contributor],
  ] as const;

  it("when a manager or a contributor of one brand reads, changes or deletes the other brand's records by id, then 403 or 404 and nothing of it in any answer or in the database", async () => {
    const before = await snapshot(world.ws);
    // A DELETE without an id in its path names its records in the body, each must be listed;
    // those under /api/auth/ touch only the caller's own account.
    const bodyDeletes = world.routes.filter((r) => appOf(r.path) === 'workspace' && isApi(r.path) && r.method === 'DELETE' && !/:id|uploads|^\/api\/auth\//.test(r.path));
    expect(bodyDeletes.map(key)).toContain('DELETE /api/assets');
    for (const route of bodyDeletes) {
      expect(IDS_IN_BODY, `add ${key(route)} to IDS_IN_BODY in test/security/world.ts`).toHaveProperty([key(route)]);
    }
    for (const [role, member] of members()) {
      for (const route of world.routes.filter((r) => appOf(r.path) === 'workspace' && isApi(r.path) && (/:id|uploads/.test(r.path) || IDS_IN_BODY[key(r)]))) {
        for (const method of methodsOf(route)) {
          const inBody = IDS_IN_BODY[`${method} ${route.path}`];
          const body = inBody ? inBody(world.theirs) : method === 'PATCH' || method === 'POST' ? renameBody(route.path, 'Taken over') : undefined;
          const res = await send(world.app, method, pathFor(route, world.theirs), { Authorization: `Bearer ${member.token}` }, body);
          const label = `${role}: ${method} ${route.path}`;
          expectNoLeak(res, label);
          expect([403, 404, 405], label).toContain(res.status);
        }
      }
    }
    expect(await snapshot(world.ws)).toBe(before);
  });

  it("when a bulk delete mixes the member's own files with the other brand's, then 404 like a missing id, and not even their own go", async () => {
    const before = await snapshot(world.ws);
    for (const [role, member] of members()) {
      const res = await send(world.app, 'DELETE', '/api/assets', { Authorization: `Bearer ${member.token}` }, { ids: [world.mine.asset, world.theirs.asset] });
      const missing = await send(world.app, 'DELETE', '/api/assets', { Authorization: `Bearer ${member.token}` }, { ids: [world.mine.asset, 999_999] });
      expectNoLeak(res, `${role}: DELETE /api/assets`);
      expect(res.status, role).toBe(404);
      expect(res.body, role).toEqual(missing.body);
    }
    expect(await snapshot(world.ws)).toBe(before);
  });

  it("when lists are asked for the other brand or its campaign, project or post, then they come back empty or refused, never with its records", async () => {
    const t = world.theirs;
    const filters = [`brandId=${t.brand}`, `campaignId=${t.campaign}`, `projectId=${t.project}`, `postId=${t.post}`, 'scope=all', `q=${SECRET}`, `uploadedBy=${world.rival.id}`];
    for (const [role, member] of members()) {
      for (const route of world.routes.filter((r) => appOf(r.path) === 'workspace' && isApi(r.path) && r.method === 'GET' && !r.path.includes(':id') && !r.path.includes('uploads'))) {
        for (const filter of filters) {
          const res = await send(world.app, 'GET', `${route.path}?${filter}`, { Authorization: `Bearer ${member.token}` });
          expectNoLeak(res, `${role}: GET ${route.path}?${filter}`);
        }
      }
    }
  });

  it("when a member of one brand searches for the other brand's words, then nothing of it comes back, while the superadmin of both finds every kind", async () => {
    for (const [role, member] of members()) {
      for (const q of [SECRET, 'campaign', 'post', 'task', 'project', 'file', 'track', 'budget']) {
        const res = await send(world.app, 'GET', `/api/search?q=${encodeURIComponent(q)}`, { Authorization: `Bearer ${member.token}` });
        expectNoLeak(res, `${role}: GET /api/search?q=${q}`);
        expect(res.status, `${role}: GET /api/search?q=${q}`).toBe(200);
      }
    }
    const all = await send(world.app, 'GET', `/api/search?q=${encodeURIComponent(SECRET)}`, { Authorization: `Bearer ${world.superadmin.token}` });
    expect(all.body.results.map((r: { type: string }) => r.type).sort()).toEqual(['asset', 'campaign', 'post', 'project', 'task']);
  });

  it('when a member creates records in the other brand, or pointing at its campaign, project or post, then each is refused and nothing is stored', async () => {
    const t = world.theirs;
    const creates: [string, object][] = [
      ['/api/campaigns', { name: 'Intruder', brandId: t.brand }],
      [`/api/campaigns/${t.campaign}/tracks`, { name: 'Intruder' }],
      ['/api/posts', { title: 'Intruder', brandId: t.brand }],
      ['/api/posts', { title: 'Intruder', campaignId: t.campaign }],
      ['/api/posts', { title: 'Intruder', brandId: world.mine.brand, attachments: [t.asset] }],
      ['/api/tasks', { title: 'Intruder', brandId: t.brand }],
      ['/api/tasks', { title: 'Intruder', projectId: t.project }],
      ['/api/tasks', { title: 'Intruder', campaignId: t.campaign }],
      ['/api/tasks', { title: 'Intruder', postId: t.post }],
      ['/api/tasks', { title: 'Intruder', brandId: world.mine.brand, assigneeId: world.rival.id }],
      ['/api/projects', { name: 'Intruder', brandId: t.brand }],
      ['/api/budget-entries', { campaignId: t.campaign, category: 'Intruder', amount: 1, currency: 'EUR' }],
      ['/api/members', { name: 'Intruder', email: 'intruder@example.test', password: 'Intruder-pass-1', role: 'contributor', brandIds: [t.brand] }],
      ['/api/brands', { name: 'Intruder' }],
      [`/api/posts/${t.post}/comments`, { body: 'Intruder' }],
      [`/api/tasks/${t.task}/comments`, { body: 'Intruder' }],
    ];
    const covered = new Set(creates.map(([path]) => path.replace(/\/\d+\//, '/:id/')));
    for (const route of world.routes.filter((r) => appOf(r.path) === 'workspace' && r.method === 'POST' && isApi(r.path))) {
      // Not creates; marking notifications touches only the caller's own (test/workspace/notifications.test.ts);
      // a reset or an accepted invitation touches only the account of its link (test/workspace/password-reset.test.ts,
      // test/workspace/invitations.test.ts), and the outbox is the superadmins' (test/workspace/mail.routes.test.ts);
      // an unsubscribe link only its member's own settings (test/workspace/notification-mail.test.ts); a resent
      // invitation names its member in the path, which the checks by id above cover.
      const notCreates = ['/api/auth/login', '/api/auth/logout', '/api/auth/password', '/api/auth/onboarding', '/api/auth/me/avatar', '/api/assets', '/api/notifications/read'];
      if ([...notCreates, '/api/auth/password-reset', '/api/auth/password-reset/confirm', '/api/auth/invitations/accept', '/api/members/:id/invitation', '/api/mail/:id/retry', '/api/mail/unsubscribe'].includes(route.path)) continue;
      expect(covered, `add a cross-brand create for ${route.path}`).toContain(route.path);
    }
    const before = await snapshot(world.ws);
    for (const [role, member] of members()) {
      for (const [path, body] of creates) {
        const res = await send(world.app, 'POST', path, { Authorization: `Bearer ${member.token}` }, body);
        const label = `${role}: POST ${path} ${JSON.stringify(body)}`;
        expectNoLeak(res, label);
        expect(res.status, label).toBeGreaterThanOrEqual(400);
      }
      for (const field of [`brandId=${t.brand}`, `campaignId=${t.campaign}`, `postId=${t.post}`]) {
        const [name, value] = field.split('=');
        const res = await request(world.app).post('/api/assets').set('Authorization', `Bearer ${member.token}`).field(name, value).attach('files', pdf(), 'intruder.pdf');
        expectNoLeak(res, `${role}: upload with ${field}`);
        expect(res.status, `${role}: upload with ${field}`).toBe(404);
      }
    }
    expect(await snapshot(world.ws)).toBe(before);
  });
});

describe("another user's data", () => {
  it("when a contributor asks for a colleague's private task, by id or in any list, then 404 and it is in no answer", async () => {
    const hidden = 'PRIVATE-NOTE of the manager';
    const made = await send(world.app, 'POST', '/api/tasks', { Authorization: `Bearer ${world.manager.token}` }, { title: hidden, brandId: world.mine.brand, visibility: 'private' });
    expect(made.status).toBe(201);
    const as = { Authorization: `Bearer ${world.contributor.token}` };
    const byId = await send(world.app, 'GET', `/api/tasks/${made.body.task.id}`, as);
    expect(byId.status).toBe(404);
    for (const scope of ['all', 'mine', 'assigned', 'created']) {
      const list = await send(world.app, 'GET', `/api/tasks?scope=${scope}&brandId=${world.mine.brand}`, as);
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(hidden);
    }
    const found = await send(world.app, 'GET', `/api/search?q=${encodeURIComponent('PRIVATE-NOTE')}`, as);
    expect(found.status).toBe(200);
    expect(found.body.results).toEqual([]);
  });

  it('when every GET route is read by the administrators of both applications, then no answer carries a password hash, a PIN or a secret', async () => {
    for (const route of world.routes.filter((r) => r.method === 'GET')) {
      const res = await send(world.app, 'GET', pathFor(route, world.mine), route.path.startsWith('/api/') || route.path.startsWith('/auth/') ? adminOf(world, route.path) : { Cookie: `${world.dashboardAdmin}; ${world.workspaceCookie}` });
      const label = `GET ${route.path}`;
      expect(res.status, label).toBeLessThan(500);
      // Stored files come back as bytes, not text: they are the uploads themselves.
      const text = textOf(res);
      expect(text, label).not.toMatch(/\$2[aby]\$\d\d\$/);
      // A value under such a name; the API description names these fields with their schemas (objects).
      expect(text, label).not.toMatch(/"(pin|PIN|password|passwordHash|password_hash|jwtSecret|sessionSecret)"\s*:\s*["\d[]/);
      expect(text, label).not.toContain('test-jwt-secret');
    }
  });
});
