import { cookieFrom } from '../support/app';
import { request } from '../support/http';
import { describe, expect, it } from 'vitest';
import { SIGN_IN_TTL_MS } from '../../src/workspace/auth/service';
import { buildWorkspace, type TestUser, type TestWorkspace } from '../support/workspace';
import { finishProfile } from './browser-helpers';

const PAGES = [
  '/workspace',
  '/workspace/calendar',
  '/workspace/campaigns',
  '/workspace/assets',
  '/workspace/tasks',
  '/workspace/projects',
  '/workspace/budget',
  '/workspace/team',
  '/workspace/settings',
  '/workspace/profile',
];

/** A brand and a user of `role` whose profile is complete, signed in by cookie. */
async function ready(role: TestUser['role'], ws?: TestWorkspace) {
  const workspace = ws ?? (await buildWorkspace());
  const brand = await workspace.brand();
  const user = await workspace.user(role, { brandIds: [brand.id] });
  await finishProfile(workspace, user);
  const { cookie } = await workspace.signIn(user.email);
  return { ws: workspace, user, cookie: `${cookie}; lang=en` };
}

function page(ws: TestWorkspace, path: string, cookie?: string) {
  const req = request(ws.app).get(path).set('Accept', 'text/html');
  return cookie ? req.set('Cookie', cookie) : req;
}

describe('GET /workspace pages without a session', () => {
  it.each(PAGES)('when %s is asked for without a cookie, then 303 to /login with the page as next', async (path) => {
    const ws = await buildWorkspace();
    const res = await page(ws, path);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/login?next=${encodeURIComponent(path)}`);
  });

  it('when the session has expired, then the page sends the user to /login', async () => {
    const { ws, cookie } = await ready('manager');
    expect((await page(ws, '/workspace', cookie)).status).toBe(200);
    ws.clock.advance(SIGN_IN_TTL_MS + 1000);
    const res = await page(ws, '/workspace', cookie);
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/login\?next=/);
  });

  it('when the cookie names no session, then the page sends the user to /login', async () => {
    const ws = await buildWorkspace();
    const res = await page(ws, '/workspace/team', 'workspace_session=s%3Aforged.signature');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login?next=%2Fworkspace%2Fteam');
  });

  it('when the user signs out, then the old cookie no longer opens a page', async () => {
    const { ws, cookie } = await ready('contributor');
    await request(ws.app).post('/api/auth/logout').set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin').send({});
    expect((await page(ws, '/workspace', cookie)).status).toBe(303);
  });
});

describe('GET /login', () => {
  it('when nobody is signed in, then the sign-in form renders with its labels', async () => {
    const ws = await buildWorkspace();
    const res = await page(ws, '/login?next=/workspace/tasks');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<label for="login-email">');
    expect(res.text).toContain('<label for="login-password">');
    expect(res.text).toContain('data-next="/workspace/tasks"');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each(['https://evil.example/', '//evil.example', '/dashboard', '/workspace/../api/members', 'javascript:alert(1)'])(
    'when next is %s, then the form goes to /workspace instead',
    async (next) => {
      const ws = await buildWorkspace();
      const res = await page(ws, `/login?next=${encodeURIComponent(next)}`);
      expect(res.text).toContain('data-next="/workspace"');
    },
  );

  it('when already signed in, then /login goes on to the workspace', async () => {
    const { ws, cookie } = await ready('manager');
    const res = await page(ws, '/login?next=/workspace/campaigns', cookie);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/workspace/campaigns');
  });
});

describe('the first-login path', () => {
  it('when the password must be changed, then every workspace page goes to /change-password, which renders', async () => {
    const ws = await buildWorkspace();
    const user = await ws.user('contributor', { mustChangePassword: true });
    const { cookie } = await ws.signIn(user.email);
    for (const path of [...PAGES, '/workspace/welcome']) {
      const res = await page(ws, path, cookie);
      expect(res.status, path).toBe(303);
      expect(res.headers.location).toBe('/change-password');
    }
    const form = await page(ws, '/change-password', cookie);
    expect(form.status).toBe(200);
    expect(form.text).toContain('data-after="/workspace/welcome"');
    expect(form.text).toContain('aria-current="step"');
  });

  it('when the profile is not complete, then workspace pages go to /workspace/welcome, which renders the profile form', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const user = await ws.user('manager', { brandIds: [brand.id] });
    const { cookie } = await ws.signIn(user.email);
    for (const path of PAGES) {
      const res = await page(ws, path, cookie);
      expect(res.headers.location, path).toBe('/workspace/welcome');
    }
    const welcome = await page(ws, '/workspace/welcome', `${cookie}; lang=en`);
    expect(welcome.status).toBe(200);
    expect(welcome.text).toContain('<label for="pf-job">');
    expect(welcome.text).not.toContain('ws-sidebar');
  });

  it('when the profile is complete, then /workspace/welcome goes on to the board', async () => {
    const { ws, cookie } = await ready('contributor');
    const res = await page(ws, '/workspace/welcome', cookie);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/workspace');
  });
});

describe('GET /workspace/calendar', () => {
  it.each(['superadmin', 'manager', 'contributor'] as const)('when a %s opens it, then 200 with the calendar, its script, and its sidebar entry right after the board', async (role) => {
    const { ws, cookie } = await ready(role);
    const res = await page(ws, '/workspace/calendar?view=week&date=2026-06-10', cookie);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('data-calendar');
    expect(res.text).toMatch(/<script type="module" src="\/static\/js\/workspace\/calendar-[A-Z0-9]+\.js" fetchpriority="low"><\/script>/);
    expect(res.text).toMatch(/data-nav="board"[\s\S]*data-nav="calendar" aria-current="page"[\s\S]*data-nav="campaigns"/);
    expect(res.text).toContain('<label for="filter-campaign">Campaign</label>');
  });

  it('when asked for in Arabic, then the page is right-to-left and its strings are Arabic', async () => {
    const { ws, cookie } = await ready('manager');
    const res = await page(ws, '/workspace/calendar?lang=ar', cookie);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="ar" dir="rtl">');
    expect(res.text).toContain('<h1>التقويم</h1>');
  });
});

describe('GET /workspace/users', () => {
  it.each(['manager', 'contributor'] as const)('when a %s asks for it, then 403 and the error page', async (role) => {
    const { ws, cookie } = await ready(role);
    const res = await page(ws, '/workspace/users', cookie);
    expect(res.status).toBe(403);
    expect(res.text).toContain('You do not have access to this page.');
  });

  it('when a superadmin asks for it, then 200', async () => {
    const { ws, cookie } = await ready('superadmin');
    expect((await page(ws, '/workspace/users', cookie)).status).toBe(200);
  });
});

describe('the sidebar of the workspace pages', () => {
  it.each([
    ['superadmin', true],
    ['manager', false],
    ['contributor', false],
  ] as const)('when a %s opens the board, then the Users link shown is %s, with name, role badge and sign-out', async (role, shown) => {
    const { ws, user, cookie } = await ready(role);
    const res = await page(ws, '/workspace', cookie);
    expect(res.status).toBe(200);
    expect(res.text.includes('href="/workspace/users"')).toBe(shown);
    expect(res.text).toContain(`<span class="ws-user-name">${user.record.name}</span>`);
    expect(res.text).toContain(`role-badge role-${role}`);
    expect(res.text).toContain('data-ws-logout');
    expect(res.text).toMatch(/<nav id="ws-sidebar" class="ws-sidebar" aria-label="Workspace">/);
  });

  it('when the page data is rendered, then it holds no hash, token or token version', async () => {
    const { ws, cookie } = await ready('manager');
    const res = await page(ws, '/workspace', cookie);
    expect(res.text).not.toMatch(/\$2b\$|tokenVersion|passwordHash|"token"/);
  });

  it('when a name holds markup, then it is escaped in the page', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const user = await ws.user('manager', { brandIds: [brand.id], name: '<img src=x onerror=alert(1)>' });
    await finishProfile(ws, user);
    const { cookie } = await ws.signIn(user.email);
    const res = await page(ws, '/workspace', cookie);
    expect(res.text).not.toContain('<img src=x');
    expect(res.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('the language of the workspace pages', () => {
  it('when the browser has no language cookie and the profile says Arabic, then the page switches to Arabic and remembers it', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const user = await ws.user('contributor', { brandIds: [brand.id] });
    await finishProfile(ws, user);
    await ws.members.update(user.id, { language: 'ar' });
    const { cookie } = await ws.signIn(user.email);
    const first = await page(ws, '/workspace/tasks', cookie);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/workspace/tasks?lang=ar');
    const arabic = await page(ws, '/workspace/tasks?lang=ar', cookie);
    expect(arabic.text).toContain('<html lang="ar" dir="rtl">');
    expect(cookieFrom(arabic, 'lang')).toBe('ar');
  });

  it('when the browser already chose a language, then that choice wins over the profile', async () => {
    const { ws, user, cookie } = await ready('manager');
    await ws.members.update(user.id, { language: 'ar' });
    const res = await page(ws, '/workspace', cookie);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="en" dir="ltr">');
  });
});
