import { request, type HttpResponse } from '../support/http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pdf } from '../support/files';
import { adminOf, appOf, buildWorld, expectNoLeak, IDS_IN_BODY, isApi, isWrite, key, methodsOf, pathFor, renameBody, send, type World } from './world';
import { rowCount } from '../support/records';

let world: World;
beforeEach(async () => {
  world = await buildWorld();
}, 60_000);

afterEach(() => {
  // Whatever a request tried, nothing may have reached the prototype every object shares.
  for (const name of ['polluted', 'isAdmin', 'role']) {
    expect(({} as Record<string, unknown>)[name], name).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, name), name).toBe(false);
  }
});

/**
 * Whether a route reads a body, so that a wrong one must be refused: DELETEs (but those that
 * name their records in the body) and sign-outs take none (what is sent is not read), and
 * uploaded files refuse every write with 405.
 */
const takesBody = (path: string, method: string) =>
  (method !== 'DELETE' || IDS_IN_BODY[`${method} ${path}`] !== undefined) && !['/auth/logout', '/api/auth/logout'].includes(path) && !path.startsWith('/api/uploads');

const writeRoutes = () => world.routes.filter((r) => isApi(r.path) && r.path !== '/healthz').flatMap((r) => methodsOf(r).filter(isWrite).map((method) => ({ route: r, method })));
const readRoutes = () => world.routes.filter((r) => r.method === 'GET');

/** SQL and Airtable formula metacharacters, and quotes of every kind. */
const METACHARACTERS = [
  `' OR '1'='1`,
  `1; DROP TABLE users; --`,
  `" OR ""="`,
  `') UNION SELECT password_hash FROM users --`,
  `{PIN}='1234'`,
  `OR(TRUE(), {Role}='admin')`,
  `\\'; SELECT 1; --`,
  '`backtick` $(whoami) %s %n',
];

describe('every state-changing API route with malformed or oversized bodies', () => {
  it('when the JSON body does not parse, then 400 MALFORMED_JSON, whoever asks', async () => {
    for (const { route, method } of writeRoutes()) {
      const res = await send(world.app, method, pathFor(route, world.mine), { ...adminOf(world, route.path), 'Content-Type': 'application/json' }, '{"name": "x",');
      expect(res.status, `${method} ${route.path}`).toBe(400);
      expect(res.body.code, `${method} ${route.path}`).toBe('MALFORMED_JSON');
    }
  });

  it('when the JSON body is larger than 1 MB, then 413 before anything else runs', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1_100_000) });
    for (const { route, method } of writeRoutes()) {
      const res = await send(world.app, method, pathFor(route, world.mine), { ...adminOf(world, route.path), 'Content-Type': 'application/json' }, big);
      expect(res.status, `${method} ${route.path}`).toBe(413);
      expect(res.body.error, `${method} ${route.path}`).toEqual(expect.any(String));
    }
  });

  it('when the body is a JSON array, a bare value, nested deeply or of the wrong type, then a 4xx and never a 5xx', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const bodies: [string, string][] = [
      ['application/json', '[]'],
      ['application/json', '[{"name":"x"}]'],
      ['application/json', '"just a string"'],
      ['application/json', 'null'],
      ['application/json', deep],
      ['application/json', JSON.stringify({ name: { $gt: '' }, title: ['a'], brandId: '1', campaignId: 1.5, amount: 1e308, pin: 1234 })],
      ['application/x-www-form-urlencoded', 'name=x&brandId=1'],
      ['text/plain', 'name=x'],
      ['application/json; charset=utf-16', '{"name":"x"}'],
    ];
    for (const { route, method } of writeRoutes()) {
      for (const [type, body] of bodies) {
        const res = await send(world.app, method, pathFor(route, world.mine), { ...adminOf(world, route.path), 'Content-Type': type }, body);
        const label = `${method} ${route.path} with ${type} ${body.slice(0, 40)}`;
        expect(res.status, `${label} → ${res.text.slice(0, 200)}`).toBeLessThan(500);
        if (takesBody(route.path, method)) expect(res.status, label).toBeGreaterThanOrEqual(400);
      }
    }
  });

  it('when a text field holds 200 characters or more, or a description more than 10,000, then 400', async () => {
    const res = await send(world.app, 'POST', '/api/posts', adminOf(world, '/api/posts'), { title: 'x'.repeat(201), brandId: world.mine.brand });
    expect(res.status).toBe(400);
    const caption = await send(world.app, 'POST', '/api/posts', adminOf(world, '/api/posts'), { title: 'ok', caption: 'x'.repeat(10_001), brandId: world.mine.brand });
    expect(caption.status).toBe(400);
  });
});

describe('prototype pollution keys', () => {
  const payloads = [
    '{"__proto__": {"polluted": "yes", "isAdmin": true}}',
    '{"constructor": {"prototype": {"polluted": "yes"}}}',
    '{"prototype": {"polluted": "yes"}}',
    '{"name": "x", "title": "x", "__proto__": {"role": "superadmin"}}',
    '{"allowedMuseums": ["__proto__"], "brandIds": [1], "__proto__": []}',
  ];

  it('when JSON bodies on every state-changing route carry __proto__, constructor or prototype, then 4xx (unknown fields), never a 5xx, and no object gains a property', async () => {
    for (const { route, method } of writeRoutes()) {
      for (const body of payloads) {
        const res = await send(world.app, method, pathFor(route, world.mine), { ...adminOf(world, route.path), 'Content-Type': 'application/json' }, body);
        expect(res.status, `${method} ${route.path} ${body} → ${res.text.slice(0, 200)}`).toBeLessThan(500);
        if (takesBody(route.path, method)) expect(res.status, `${method} ${route.path} ${body}`).toBeGreaterThanOrEqual(400);
      }
    }
  });

  it('when query strings and cookies on every GET route carry them, then never a 5xx and no object gains a property', async () => {
    const queries = ['__proto__[polluted]=yes', 'constructor[prototype][polluted]=yes', '__proto__=x&prototype=y&constructor=z', 'museum[__proto__][polluted]=1', 'brandId[__proto__]=1'];
    for (const route of readRoutes()) {
      for (const query of queries) {
        const headers = { Authorization: `Bearer ${world.manager.token}`, Cookie: `${world.dashboardViewer}; __proto__=x; constructor=y` };
        const res = await send(world.app, 'GET', `${pathFor(route, world.mine)}?${query}`, headers);
        expectNoLeak(res, `GET ${route.path}?${query}`);
      }
    }
  });

  it('when an upload carries a field named __proto__, then 400 and nothing stored', async () => {
    const res = await request(world.app)
      .post('/api/assets')
      .set('Authorization', `Bearer ${world.superadmin.token}`)
      .field('__proto__', 'x')
      .field('brandId', String(world.mine.brand))
      .attach('files', pdf(), 'a.pdf');
    expect(res.status).toBe(400);
  });
});

describe('SQL and Airtable formula metacharacters', () => {
  it('when they stand in for an id in any path, then 400 or 404, never a 5xx', async () => {
    const raws = [...METACHARACTERS.map(encodeURIComponent), '0', '-1', '1.5', '1e3', '0x10', '99999999999999999999', '%00', '1%20OR%201%3D1'];
    for (const route of world.routes.filter((r) => r.path.includes(':id') || r.path.startsWith('/api/uploads'))) {
      for (const method of methodsOf(route)) {
        for (const raw of raws) {
          const path = pathFor(route, world.mine, raw);
          const res = await send(world.app, method, path, adminOf(world, route.path), method === 'PATCH' ? renameBody(route.path, 'x') : undefined);
          expectNoLeak(res, `${method} ${path}`);
          expect([400, 404, 405], `${method} ${path}`).toContain(res.status);
        }
      }
    }
  });

  it('when they are the values of query parameters on every GET route, then never a 5xx and nothing of another brand', async () => {
    const names = ['brandId', 'campaignId', 'status', 'scope', 'museum', 'channel', 'year', 'season', 'a', 'b', 'limit', 'offset', 'next', 'lang'];
    for (const route of readRoutes()) {
      for (const value of METACHARACTERS) {
        const query = names.map((n) => `${n}=${encodeURIComponent(value)}`).join('&');
        const res = await send(world.app, 'GET', `${pathFor(route, world.mine)}?${query}`, { Authorization: `Bearer ${world.manager.token}`, Cookie: world.dashboardViewer });
        expectNoLeak(res, `GET ${route.path}?${value}`);
      }
    }
  });

  it('when they are the text of a search, then 200 with nothing of another brand, the text matched as written', async () => {
    for (const value of METACHARACTERS) {
      const res = await send(world.app, 'GET', `/api/search?q=${encodeURIComponent(value)}`, { Authorization: `Bearer ${world.manager.token}` });
      expectNoLeak(res, `GET /api/search?q=${value}`);
      expect(res.status, `GET /api/search?q=${value}`).toBe(200);
      expect(res.body.results, `GET /api/search?q=${value}`).toEqual([]);
    }
  });

  it('when they are sent as a PIN, an email or a password, then refused (400, 401, or 429 once the throttle counts ten) and nobody is signed in', async () => {
    const refused = (res: HttpResponse, what: string) => {
      expect([400, 401, 429], what).toContain(res.status);
      expect(res.headers['set-cookie'], what).toBeUndefined();
      expect(res.body.token, what).toBeUndefined();
    };
    for (const value of METACHARACTERS) {
      refused(await request(world.app).post('/auth/login').send({ pin: value }), `pin ${value}`);
      refused(await request(world.app).post('/api/auth/login').send({ email: `${world.superadmin.email}${value}`, password: value }), `email ${value}`);
      refused(await request(world.app).post('/api/auth/login').send({ email: world.superadmin.email, password: value }), `password ${value}`);
    }
  });

  it('when they are names and titles of new records, then they are stored and read back exactly as sent, and no table is harmed', async () => {
    const as = { Authorization: `Bearer ${world.superadmin.token}` };
    const usersBefore = await rowCount(world.ws.stores.records.workspace, 'users');
    for (const value of METACHARACTERS) {
      const campaign = await send(world.app, 'POST', '/api/campaigns', as, { name: value, brandId: world.mine.brand });
      expect(campaign.status, value).toBe(201);
      expect((await send(world.app, 'GET', `/api/campaigns/${campaign.body.campaign.id}`, as)).body.campaign.name).toBe(value.trim());
      const post = await send(world.app, 'POST', '/api/posts', as, { title: value, caption: value, campaignId: campaign.body.campaign.id });
      expect(post.status, value).toBe(201);
      expect((await send(world.app, 'GET', `/api/posts/${post.body.post.id}`, as)).body.post).toMatchObject({ title: value.trim(), caption: value.trim() });
      const user = await send(world.app, 'POST', '/api/users', { Cookie: world.dashboardAdmin, 'Sec-Fetch-Site': 'same-origin' }, { name: value, pin: String(700_000 + METACHARACTERS.indexOf(value)), role: 'viewer' });
      expect(user.status, value).toBe(201);
      expect(user.body.user.name).toBe(value.trim());
    }
    expect(await rowCount(world.ws.stores.records.workspace, 'users')).toBe(usersBefore);
    expect((await send(world.app, 'GET', '/api/members', as)).status).toBe(200);
  });
});

describe('path traversal', () => {
  const secrets = /jwtSecret|sessionSecret|SQLite format|"devDependencies"|export function loadConfig|root:x:0/;

  it('when a stored file is asked for with a path that climbs out of the upload folder, then 400 or 404 and nothing of any file', async () => {
    const attempts = [
      '..%2fworkspace.db',
      '..%2F..%2Fsecrets.json',
      '%2e%2e%2f%2e%2e%2fsecrets.json',
      '..%5c..%5csecrets.json',
      '.%2e/.%2e/secrets.json',
      '..',
      '.partial',
      '%2fetc%2fpasswd',
      '....%2f%2f....%2f%2fsecrets.json',
      `${world.mine.fileKey}%00.png`,
      `${world.mine.fileKey}%2f..%2f..%2fsecrets.json`,
    ];
    for (const attempt of attempts) {
      for (const prefix of ['/api/uploads/', '/api/uploads/x/']) {
        const res = await request(world.app).get(`${prefix}${attempt}`).set('Authorization', `Bearer ${world.superadmin.token}`);
        expect([400, 404], `${prefix}${attempt}`).toContain(res.status);
        expect(res.text, `${prefix}${attempt}`).not.toMatch(secrets);
      }
    }
  });

  it('when static files are asked for with a path that climbs out of public/, then 4xx and nothing of any file', async () => {
    const attempts = [
      '/static/..%2f..%2fpackage.json',
      '/static/%2e%2e/%2e%2e/package.json',
      '/static/..%5c..%5cpackage.json',
      '/static/vendor/chart.js/..%2f..%2f..%2fpackage.json',
      '/static/js/..%2f..%2fsrc%2fconfig.ts',
      '/static/..%252f..%252fpackage.json',
      '/static/%00../package.json',
    ];
    for (const path of attempts) {
      const res = await request(world.app).get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.text, path).not.toMatch(secrets);
    }
  });

  it('when an uploaded file is named with folders, then only its base name is kept and the file lands in the upload folder under a generated key', async () => {
    const res = await request(world.app)
      .post('/api/assets')
      .set('Authorization', `Bearer ${world.superadmin.token}`)
      .field('brandId', String(world.mine.brand))
      .attach('files', pdf(), '../../../../etc/cron.d/evil.pdf');
    expect(res.status).toBe(201);
    expect(res.body.assets[0].name).toBe('evil.pdf');
    expect(res.body.assets[0].url).toMatch(/^\/api\/uploads\/[0-9a-f]{32}\.pdf$/);
  });

  it('when page redirects are given another site as `next`, then they stay on this server', async () => {
    for (const next of ['https://evil.example/', '//evil.example/', '/\\evil.example', '/dashboard/../../evil', 'javascript:alert(1)']) {
      const dashboard = await request(world.app).get(`/dashboard/login?next=${encodeURIComponent(next)}`).set('Cookie', world.dashboardAdmin);
      expect(dashboard.status, next).toBe(303);
      expect(dashboard.headers.location, next).toBe('/dashboard');
      if (world.routes.some((r) => key(r) === 'GET /login' && appOf(r.path) === 'workspace')) {
        const workspace = await request(world.app).get(`/login?next=${encodeURIComponent(next)}`).set('Cookie', world.workspaceCookie);
        expect(workspace.status, next).toBe(303);
        expect(workspace.headers.location, next).toBe('/workspace');
      }
    }
  });
});
