import type { Express } from 'express';
import type { BrowserContext, Page } from 'playwright-core';
import { request, type HttpTest } from '../support/http';
import { afterEach, expect, it } from 'vitest';
import { SqlVisitRepository } from '../../src/dashboard/visits/repository';
import { SqlLinkTokens } from '../../src/workspace/auth/links';
import { cookieFrom } from '../support/app';
import { describeBrowser, serve } from '../support/browser';
import { pdf } from '../support/files';
import { buildWorkspace, type TestUser, type TestWorkspace } from '../support/workspace';
import { finishProfile, forbidNativeDialogs, settled, useBrowser } from '../workspace/browser-helpers';
import { isApi, routesOf } from './world';

/** What a stored-XSS attempt looks like; a page that runs any of it sets window.__xss or opens a dialog. */
const SCRIPT = `<script>window.__xss='script';alert(1)</script>`;
const IMG = `"><img src=x onerror="window.__xss='img';alert(2)">`;
const QUOTES = `'"\`</textarea><svg onload=alert(3)>&amp;`;

const text = {
  adminName: `Salma ${IMG}`,
  memberName: `Member ${QUOTES}`,
  jobTitle: `Writer ${SCRIPT}`,
  brand: `Brand ${SCRIPT}`,
  campaign: `Campaign ${IMG}`,
  track: `Track ${SCRIPT}`,
  post: `Post ${SCRIPT}`,
  caption: `Caption ${IMG}`,
  // File names lose any folder part, so no slash here.
  file: `File <img src=x onerror="window.__xss='file'"> 's.pdf`,
  task: `Task ${QUOTES}`,
  project: `Project ${SCRIPT}`,
  budget: `Budget ${IMG}`,
  dashboardAdmin: `Dash ${IMG}`,
  viewer: `Viewer ${SCRIPT}`,
  season: `Season ${IMG}`,
  museum: `Museum ${SCRIPT}`,
  channel: `Channel ${IMG}`,
  district: `District ${QUOTES}`,
};

/** Each page, the address it is opened at (a shared link's query, where the default period holds no seeded visit), and the stored text it shows once its data has loaded. */
const PAGES: Partial<Record<string, { shows: (keyof typeof text)[]; query?: string; at?: (ids: Seeded) => string }>> = {
  '/dashboard': { shows: ['dashboardAdmin', 'museum'] },
  '/dashboard/comparison': { shows: ['dashboardAdmin', 'museum'], query: 'against=year&from=2025-02-01&to=2025-02-28' },
  '/dashboard/settings': { shows: ['viewer', 'season'] },
  '/workspace': { shows: ['adminName', 'post'] },
  // The seeded post has no date: the calendar lists it under Unscheduled.
  '/workspace/calendar': { shows: ['post'] },
  '/workspace/campaigns': { shows: ['campaign'] },
  '/workspace/assets': { shows: ['file'] },
  '/workspace/tasks': { shows: ['task'] },
  '/workspace/projects': { shows: ['project'] },
  // A project's page: its name as the heading, its task on the list.
  '/workspace/projects/:id': { shows: ['project', 'task'], at: (ids) => `/workspace/projects/${ids.project}` },
  '/workspace/budget': { shows: ['budget'] },
  '/workspace/team': { shows: ['memberName'] },
  '/workspace/users': { shows: ['memberName', 'brand'] },
  '/workspace/settings': { shows: ['adminName'] },
  '/workspace/profile': { shows: ['adminName'] },
  // The outbox: subjects come from the locales and addresses are checked as such when stored.
  '/workspace/settings/mail': { shows: [] },
  // An invitation's page names the account by its address, which is checked as one when stored.
  '/invite/:token': { shows: [], at: (ids) => `/invite/${ids.invitation}` },
};

interface Seeded {
  project: number;
  /** A working invitation link's token. */
  invitation: string;
}

/**
 * Pages that show no stored record: sign-in pages, and the first-login steps, whose only
 * stored text (the user's own name) is checked on the others. Every other page must be in PAGES.
 */
const WITHOUT_RECORDS = ['/', '/dashboard/login', '/login', '/change-password', '/forgot-password', '/reset-password', '/workspace/welcome', '/api/docs'];

const getBrowser = useBrowser();
const contexts: BrowserContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

async function seedHostileData(ws: TestWorkspace): Promise<{ admin: TestUser; dashboardPin: string } & Seeded> {
  const app: Express = ws.app;
  const brand = await ws.brand(text.brand);
  const admin = await ws.user('superadmin', { brandIds: [brand.id], name: text.adminName });
  await finishProfile(ws, admin, { jobTitle: text.jobTitle });
  await ws.members.update(admin.id, { avatar: `/x"onerror="window.__xss='avatar'` });
  const member = await ws.user('contributor', { brandIds: [brand.id], name: text.memberName });
  await finishProfile(ws, member, { jobTitle: text.jobTitle });

  const as = (method: 'post' | 'patch', path: string) => request(app)[method](path).set('Authorization', `Bearer ${admin.token}`);
  const made = async (req: HttpTest) => {
    const res = await req;
    expect(res.status, res.text).toBe(201);
    return res.body;
  };
  const campaign = (await made(as('post', '/api/campaigns').send({ name: text.campaign, brandId: brand.id, description: SCRIPT }))).campaign;
  await made(as('post', `/api/campaigns/${campaign.id}/tracks`).send({ name: text.track }));
  const post = (await made(as('post', '/api/posts').send({ title: text.post, caption: text.caption, campaignId: campaign.id }))).post;
  await made(as('post', '/api/assets').field('postId', String(post.id)).attach('files', pdf(), text.file));
  const project = (await made(as('post', '/api/projects').send({ name: text.project, brandId: brand.id, description: IMG }))).project;
  await made(as('post', '/api/tasks').send({ title: text.task, description: SCRIPT, brandId: brand.id, projectId: project.id, assigneeId: admin.id }));
  await made(as('post', '/api/budget-entries').send({ campaignId: campaign.id, category: text.budget, description: QUOTES, amount: 150_000, currency: 'EUR' }));

  const dashboardPin = '5555';
  await ws.users.create({ name: text.dashboardAdmin, pin: dashboardPin, role: 'admin', allowedMuseums: '[]', allowedChannels: '[]' });
  await ws.users.create({ name: text.viewer, pin: '5556', role: 'viewer', allowedMuseums: JSON.stringify([text.museum]), allowedChannels: '[]' });
  const rows = [];
  for (let day = 1; day <= 28; day += 1) {
    const date = `2025-02-${String(day).padStart(2, '0')}`;
    rows.push({ date, museum: text.museum, channel: text.channel, district: text.district, visitors: 10 + day, revenue: 100 });
    rows.push({ date: date.replace('2025', '2024'), museum: text.museum, channel: text.channel, district: text.district, visitors: day, revenue: 50 });
  }
  await new SqlVisitRepository(ws.stores.records.dashboard).upsert(rows);
  const dashboard = `service_session=${cookieFrom(await request(app).post('/auth/login').send({ pin: dashboardPin }), 'service_session')}`;
  const season = await request(app).post('/api/seasons').set({ Cookie: dashboard, 'Sec-Fetch-Site': 'same-origin' }).send({ name: text.season, startDate: '2025-02-01', endDate: '2025-02-28' });
  expect(season.status, season.text).toBe(201);
  const invited = (await made(as('post', '/api/members').send({ name: `Invited ${SCRIPT}`, email: 'invited@xss.test', role: 'contributor', brandIds: [brand.id] }))).member;
  const invitation = await new SqlLinkTokens(ws.stores.records.workspace).issue(invited.id, 'invitation', ws.clock.now(), 3600_000);
  return { admin, dashboardPin, project: project.id, invitation };
}

/** A page that records Content-Security-Policy violations, as a blocked injection would cause. */
async function watchedPage(context: BrowserContext): Promise<{ page: Page; dialogs: string[] }> {
  const page = await context.newPage();
  await page.addInitScript(() => {
    const w = window as unknown as { __csp: string[] };
    w.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => w.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`));
  });
  return { page, dialogs: forbidNativeDialogs(page) };
}

describeBrowser('stored XSS: hostile names, titles and file names on every page', () => {
  it(
    'when every page of both applications shows records named with <script>, an onerror image and quotes, then no script runs, no dialog opens, no element is injected, no CSP violation happens, and the text is shown as written',
    async () => {
      const ws = await buildWorkspace();
      const pageRoutes = routesOf(ws.app).filter((r) => r.method === 'GET' && !isApi(r.path) && !r.path.startsWith('/static/')).map((r) => r.path);
      expect(pageRoutes.filter((path) => !WITHOUT_RECORDS.includes(path) && !PAGES[path]), 'pages the XSS check does not visit').toEqual([]);
      const { admin, dashboardPin, ...seeded } = await seedHostileData(ws);
      const server = await serve(ws.app);
      try {
        const host = new URL(server.url).hostname;
        const dashboardLogin = await request(ws.app).post('/auth/login').send({ pin: dashboardPin });
        const { cookie } = await ws.signIn(admin.email);
        const context = await getBrowser().newContext({ viewport: { width: 1440, height: 900 } });
        contexts.push(context);
        await context.addCookies([
          { name: 'service_session', value: cookieFrom(dashboardLogin, 'service_session')!, domain: host, path: '/', httpOnly: true, sameSite: 'Lax' },
          { name: 'workspace_session', value: cookie.slice('workspace_session='.length), domain: host, path: '/', httpOnly: true, sameSite: 'Lax' },
        ]);
        // Arabic for the two busiest pages: the same scripts, mirrored.
        const visits = [...Object.keys(PAGES).map((path) => [path, 'en']), ['/workspace', 'ar'], ['/dashboard', 'ar']];
        for (const [route, lang] of visits) {
          const { page, dialogs } = await watchedPage(context);
          const { shows, query, at } = PAGES[route]!;
          const path = at?.(seeded) ?? route;
          await page.goto(`${server.url}${path}?lang=${lang}${query ? `&${query}` : ''}`);
          await settled(page);
          const where = `${path} (${lang})`;
          expect(new URL(page.url()).pathname, where).toBe(path);
          const found = await page.evaluate(() => ({
            xss: (window as unknown as { __xss?: string }).__xss,
            csp: (window as unknown as { __csp: string[] }).__csp,
            injected: [...document.querySelectorAll('img[src="x"], [onerror], [onload], [onfocus], textarea ~ svg')].map((e) => e.outerHTML),
            scripts: [...document.scripts].filter((s) => !s.src.includes('/static/') && s.type !== 'application/json').map((s) => s.outerHTML),
            text: document.body.innerText,
          }));
          expect(found.xss, where).toBeUndefined();
          expect(found.csp, where).toEqual([]);
          expect(found.injected, where).toEqual([]);
          expect(found.scripts, where).toEqual([]);
          for (const name of shows) expect(found.text, `${where}: ${name}`).toContain(text[name]);
          expect(dialogs, where).toEqual([]);
          await page.close();
        }
      } finally {
        await server.close();
      }
    },
    180_000,
  );

  it(
    'when the search box of the top bar lists records named with <script>, an onerror image and quotes, then no script runs, nothing is injected and the names read as written',
    async () => {
      const ws = await buildWorkspace();
      const { admin } = await seedHostileData(ws);
      const server = await serve(ws.app);
      try {
        const { cookie } = await ws.signIn(admin.email);
        const context = await getBrowser().newContext({ viewport: { width: 1440, height: 900 } });
        contexts.push(context);
        const host = new URL(server.url).hostname;
        await context.addCookies([{ name: 'workspace_session', value: cookie.slice('workspace_session='.length), domain: host, path: '/', httpOnly: true, sameSite: 'Lax' }]);
        const { page, dialogs } = await watchedPage(context);
        await page.goto(`${server.url}/workspace/projects?lang=en`);
        await settled(page);
        const searches: [string, (keyof typeof text)[]][] = [
          ['<script>', ['post', 'project']],
          ['onerror', ['campaign', 'file']],
          ['</textarea>', ['task']],
        ];
        for (const [q, shows] of searches) {
          const answered = page.waitForResponse((res) => new URL(res.url()).searchParams.get('q') === q);
          await page.fill('#ws-search-input', q);
          await answered;
          await page.waitForSelector('#ws-search-input:not([aria-busy])');
          const found = await page.evaluate(() => ({
            xss: (window as unknown as { __xss?: string }).__xss,
            csp: (window as unknown as { __csp: string[] }).__csp,
            injected: [...document.querySelectorAll('img[src="x"], [onerror], [onload], [onfocus], textarea ~ svg, #ws-search-results script')].map((e) => e.outerHTML),
            titles: [...document.querySelectorAll('#ws-search-results .ws-search-title')].map((e) => e.textContent),
          }));
          expect(found.xss, q).toBeUndefined();
          expect(found.csp, q).toEqual([]);
          expect(found.injected, q).toEqual([]);
          for (const name of shows) expect(found.titles, `${q}: ${name}`).toContain(text[name]);
        }
        expect(dialogs).toEqual([]);
      } finally {
        await server.close();
      }
    },
    120_000,
  );
});
