import { request, type HttpTest, type HttpResponse } from '../support/http';
import { beforeEach, describe, expect, it } from 'vitest';
import { setCookieLine } from '../support/app';
import { adminOf, appOf, buildWorld, isApi, methodsOf, pathFor, renameBody, send, type World } from './world';

let world: World;
beforeEach(async () => {
  world = await buildWorld();
  // Pages need a profile that is complete; the API does not mind.
  const done = await request(world.app).patch('/api/auth/me').set('Authorization', `Bearer ${world.superadmin.token}`).send({ name: 'Head Admin', jobTitle: 'Director' });
  expect(done.status).toBe(200);
}, 60_000);

/** helmet's headers, as every answer of either application must carry them. */
const HELMET: Record<string, string | RegExp> = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** The classic script at the top of a page's head, which lists the browser's locales. */
const LOCALE_LISTS = /<script src="\/static\/boot\/locale-lists-[A-Za-z0-9]+\.js"><\/script>/;

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name, values]),
  );
}

function expectSecurityHeaders(res: HttpResponse, what: string) {
  for (const [name, value] of Object.entries(HELMET)) expect(res.headers[name], `${what}: ${name}`).toEqual(value);
  expect(res.headers['x-powered-by'], what).toBeUndefined();
  const csp = directives(res.headers['content-security-policy'] ?? '');
  expect(csp.get('default-src'), what).toEqual(["'self'"]);
  expect(csp.get('script-src'), what).toEqual(["'self'"]);
  expect(csp.get('script-src-attr'), what).toEqual(["'none'"]);
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.get('base-uri'), what).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'self'"]);
  expect(csp.get('form-action'), what).toEqual(["'self'"]);
  for (const values of csp.values()) expect(values, what).not.toContain("'unsafe-inline'");
}

/** Credentials that reach a route: the dashboard admin for A, the superadmin's cookie for B's pages. */
function signedIn(world: World, path: string): Record<string, string> {
  if (isApi(path)) return adminOf(world, path);
  return { Cookie: appOf(path) === 'dashboard' ? world.dashboardAdmin : world.workspaceCookie };
}

describe('security headers on every answer', () => {
  it('when any route of either application answers a signed-in request, whatever the status, then it carries helmet’s headers and a CSP that allows no inline script', async () => {
    for (const route of world.routes) {
      for (const method of methodsOf(route)) {
        const res = await send(world.app, method, pathFor(route, world.mine), signedIn(world, route.path), method === 'PATCH' ? renameBody(route.path, 'Renamed') : undefined);
        expectSecurityHeaders(res, `${method} ${route.path} (${res.status})`);
        // A mail's unsubscribe link opens a page that asks before anything changes (RFC 8058's GET).
        const page = `${method} ${route.path}` === 'GET /api/mail/unsubscribe';
        if (isApi(route.path) && !page && res.status !== 204 && !route.path.includes('download') && !route.path.includes('export') && route.path !== '/api/uploads/:key') {
          expect(res.headers['content-type'], `${method} ${route.path}`).toMatch(/^application\/json; charset=utf-8/);
        }
      }
    }
  });

  it('when answers are refusals, errors, redirects or static files, then they carry the same headers', async () => {
    const answers: [string, HttpTest][] = [
      ['401', request(world.app).get('/api/posts')],
      ['404 of the API', request(world.app).get('/api/no-such-route')],
      ['404 page', request(world.app).get('/no-such-page').set('Accept', 'text/html')],
      ['malformed JSON', request(world.app).post('/api/posts').set('Content-Type', 'application/json').send('{')],
      ['dashboard redirect', request(world.app).get('/dashboard')],
      ['workspace redirect', request(world.app).get('/workspace')],
      ['stylesheet', request(world.app).get('/static/css/app.css')],
      ['chart.js', request(world.app).get('/static/vendor/chart.js/chart.umd.js')],
      ['health check', request(world.app).get('/healthz')],
    ];
    for (const [what, req] of answers) {
      const res = await req;
      expectSecurityHeaders(res, `${what} (${res.status})`);
    }
  });

  it('when a stored file is served, then with its stored type, nosniff, and as an attachment unless it is shown in the page', async () => {
    const as = { Authorization: `Bearer ${world.superadmin.token}` };
    const file = await send(world.app, 'GET', `/api/uploads/${world.mine.fileKey}`, as);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    const download = await send(world.app, 'GET', `/api/assets/${world.mine.asset}/download`, as);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="Mine file\.pdf"/);
  });
});

describe('rendered pages', () => {
  it('when every page of both applications is rendered, then it has no inline script, a page with scripts lists the locales ahead of every stylesheet, and there is no inline event handler and no javascript: URL', async () => {
    const pages = world.routes.filter((r) => r.method === 'GET' && !isApi(r.path) && !r.path.startsWith('/static/'));
    expect(pages.length).toBeGreaterThan(12);
    // Someone new to the workspace, whose pages are the first-login ones.
    const newcomer = (await world.ws.signIn(world.manager.email)).cookie;
    const visitors: Record<string, string>[] = [{}, { Cookie: world.dashboardAdmin }, { Cookie: world.dashboardViewer }, { Cookie: world.workspaceCookie }, { Cookie: newcomer }];
    for (const route of pages) {
      let rendered = 0;
      for (const [lang, headers] of visitors.flatMap((v) => [['en', v], ['ar', v]] as const)) {
        const res = await send(world.app, 'GET', `${pathFor(route, world.mine)}?lang=${lang}`, headers);
        // A page saying a link is gone (410) is a page all the same.
        if (res.status !== 200 && res.status !== 410) continue;
        rendered += 1;
        expect(res.headers['content-type'], route.path).toMatch(/^text\/html/);
        const [head, ...more] = res.text.split(LOCALE_LISTS);
        // Only a page with scripts of its own formats anything.
        const linksScripts = /<script type="module" src="\/static\//.test(res.text);
        expect(more, `${route.path}: the locale lists once, on a page with scripts`).toHaveLength(linksScripts ? 1 : 0);
        // Before the first paint: after a stylesheet, the browser would hold it until the sheet had loaded.
        if (linksScripts) expect(head, route.path).not.toMatch(/rel="stylesheet"/);
        for (const tag of res.text.match(/<script\b[^>]*>/gi) ?? []) {
          expect(/\bsrc="\/static\//.test(tag) || /\btype="application\/json"/.test(tag), `${route.path}: ${tag}`).toBe(true);
        }
        expect(res.text, route.path).not.toMatch(/<[^>]+\son[a-z]+\s*=/i);
        expect(res.text, route.path).not.toMatch(/javascript:/i);
      }
      expect(rendered, `${route.path} was never rendered`).toBeGreaterThan(0);
    }
  });
});

describe('cookie attributes', () => {
  const attributes = (line: string | undefined) => (line ?? '').split(';').map((p) => p.trim().toLowerCase());

  it('when the dashboard signs in and out, then service_session is HttpOnly, SameSite=Lax, Path=/, 7 days, on this host only, and cleared the same way', async () => {
    const login = await request(world.app).post('/auth/login').send({ pin: '999999' });
    const set = attributes(setCookieLine(login, 'service_session'));
    expect(set[0]).toMatch(/^service_session=[0-9a-f]{64}$/);
    expect(set).toEqual(expect.arrayContaining(['max-age=604800', 'path=/', 'httponly', 'samesite=lax']));
    expect(set.some((a) => a.startsWith('domain='))).toBe(false);
    expect(set).not.toContain('secure');
    const logout = await request(world.app).post('/auth/logout').set('Cookie', setCookieLine(login, 'service_session')!.split(';')[0]);
    const cleared = attributes(setCookieLine(logout, 'service_session'));
    expect(cleared).toEqual(expect.arrayContaining(['service_session=', 'path=/', 'httponly', 'samesite=lax', 'expires=thu, 01 jan 1970 00:00:00 gmt']));
  });

  it('when the workspace signs in, then workspace_session is HttpOnly, SameSite=Lax, Path=/, about 7 days, on this host only', async () => {
    const res = await request(world.app).post('/api/auth/login').send({ email: world.manager.email, password: 'Correct-Horse-9' });
    const set = attributes(setCookieLine(res, 'workspace_session'));
    expect(set).toEqual(expect.arrayContaining(['path=/', 'httponly', 'samesite=lax']));
    expect(set.some((a) => a.startsWith('domain='))).toBe(false);
    const expires = Date.parse(set.find((a) => a.startsWith('expires='))!.slice('expires='.length));
    expect(Math.abs(expires - (Date.now() + 7 * 24 * 3600 * 1000))).toBeLessThan(24 * 3600 * 1000);
  });

  it('when the language is chosen, then the lang cookie is SameSite=Lax on Path=/', async () => {
    const set = attributes(setCookieLine(await request(world.app).get('/?lang=ar'), 'lang'));
    expect(set).toEqual(expect.arrayContaining(['lang=ar', 'path=/', 'samesite=lax']));
  });

  it('when COOKIE_SECURE is on behind an HTTPS proxy, then every cookie is Secure and HSTS is sent', async () => {
    const secure = await buildWorld({ env: { COOKIE_SECURE: 'true', TRUST_PROXY: '1' } });
    const https = { 'X-Forwarded-Proto': 'https' };
    const dashboard = await request(secure.app).post('/auth/login').set(https).send({ pin: '999999' });
    const workspace = await request(secure.app).post('/api/auth/login').set(https).send({ email: secure.manager.email, password: 'Correct-Horse-9' });
    const lang = await request(secure.app).get('/?lang=en').set(https);
    for (const line of [setCookieLine(dashboard, 'service_session'), setCookieLine(workspace, 'workspace_session'), setCookieLine(lang, 'lang')]) {
      expect(attributes(line), line).toContain('secure');
    }
    expect(dashboard.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(directives(dashboard.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);
  });
});
