import { request } from '../support/http';
import sharp from 'sharp';
import { beforeEach, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { describeBrowser } from '../support/browser';
import type { TestUser } from '../support/workspace';
import { checkAndShoot, closeAll, finishProfile, forbidNativeDialogs, seed, settled, signedIn, useBrowser, WIDTHS, type Lang, type Seeded } from './browser-helpers';

const PAGES = ['board', 'calendar', 'campaigns', 'assets', 'tasks', 'projects', 'budget', 'team', 'users', 'settings', 'profile'] as const;
const path = (name: (typeof PAGES)[number]) => (name === 'board' ? '/workspace' : `/workspace/${name}`);
/** Pages opened on their data: the budget of the exhibition, the calendar's February 2026, where the posts are. */
const query = (name: (typeof PAGES)[number], exhibitionId: number) =>
  name === 'budget' ? `?campaignId=${exhibitionId}` : name === 'calendar' ? '?date=2026-02-01' : '';

async function image(r: number, g: number, b: number): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 400, channels: 3, background: { r, g, b } } })
    .composite([{ input: Buffer.from(`<svg width="640" height="400"><circle cx="320" cy="200" r="120" fill="rgba(255,255,255,0.35)"/></svg>`) }])
    .jpeg()
    .toBuffer();
}

/** A workspace in use: campaigns with tracks, posts in every column, files, tasks, a project and a budget. */
async function workspaceInUse(app: Seeded) {
  const as = (user: TestUser) => app.ws.as(user);
  const [exhibition, family] = await Promise.all(
    [
      { name: 'Ceramics of the Silk Road', status: 'active', startDate: '2026-02-01', endDate: '2026-04-30', description: 'The spring exhibition: 120 pieces from nine collections.' },
      { name: 'Family Saturdays', status: 'planned', startDate: '2026-03-07' },
    ].map(async (body) => (await as(app.manager).post('/api/campaigns').send({ ...body, brandId: app.brand.id })).body.campaign),
  );
  await as(app.manager).post(`/api/campaigns/${exhibition.id}/tracks`).send({ name: 'Instagram stories', channel: 'Instagram', startDate: '2026-02-01', endDate: '2026-03-15', goal: 'Two stories a week from the galleries.' });
  await as(app.manager).post(`/api/campaigns/${exhibition.id}/tracks`).send({ name: 'Newsletter', channel: 'Email' });
  const uploaded = await request(app.ws.app)
    .post('/api/assets')
    .set('Authorization', `Bearer ${app.contributor.token}`)
    .field('campaignId', String(exhibition.id))
    .attach('files', await image(14, 147, 132), { filename: 'blue-bowl.jpg', contentType: 'image/jpeg' })
    .attach('files', await image(181, 71, 8), { filename: 'gallery-view.jpg', contentType: 'image/jpeg' })
    .attach('files', Buffer.from('%PDF-1.4\n%%EOF\n'), { filename: 'press-kit.pdf', contentType: 'application/pdf' });
  expect(uploaded.status).toBe(201);
  const [bowl, gallery] = uploaded.body.assets;
  const posts: [TestUser, object][] = [
    [app.contributor, { title: 'Meet the curator', status: 'idea', platform: 'instagram', campaignId: exhibition.id }],
    [app.manager, { title: 'Saturday workshop sign-up', status: 'draft', platform: 'facebook', campaignId: family.id, scheduledAt: '2026-03-02T09:00:00Z' }],
    [app.contributor, { title: 'The blue bowl, up close', status: 'review', platform: 'instagram', campaignId: exhibition.id, attachments: [bowl.id], scheduledAt: '2026-02-20T16:00:00Z' }],
    [app.manager, { title: 'Opening hours in Ramadan', status: 'approved', platform: 'x', brandId: app.brand.id }],
    [app.contributor, { title: 'A walk through the galleries', status: 'scheduled', platform: 'youtube', campaignId: exhibition.id, attachments: [gallery.id], scheduledAt: '2026-02-14T18:30:00Z' }],
    [app.manager, { title: 'Exhibition opens', status: 'published', platform: 'linkedin', campaignId: exhibition.id, publicationUrl: 'https://www.linkedin.com/posts/museum-opening' }],
  ];
  for (const [user, body] of posts) {
    // A contributor's post goes past review as it does in use: written by them, moved on by a manager.
    const { status, ...rest } = body as { status: string };
    const approvedByManager = user === app.contributor && !['idea', 'draft', 'review'].includes(status);
    const made = await as(user).post('/api/posts').send(approvedByManager ? { ...rest, status: 'review' } : body);
    expect(made.status).toBe(201);
    if (approvedByManager) expect((await as(app.manager).patch(`/api/posts/${made.body.post.id}`).send({ status })).status).toBe(200);
  }
  const project = (await as(app.manager).post('/api/projects').send({ name: 'New visitor guide', brandId: app.brand.id, status: 'active', startDate: '2026-01-10', endDate: '2026-05-31', description: 'Printed and online guide in Arabic and English.' })).body.project;
  const tasks = [
    { title: 'Write the Arabic labels', assigneeId: app.admin.id, priority: 'high', dueDate: '2026-01-20', projectId: project.id },
    { title: 'Book the photographer', assigneeId: app.admin.id, priority: 'medium', dueDate: '2026-02-02', campaignId: exhibition.id, status: 'doing' },
    { title: 'Check the print proofs', assigneeId: app.contributor.id, priority: 'urgent', dueDate: '2026-01-12', projectId: project.id },
    { title: 'Send the press release', assigneeId: app.admin.id, priority: 'low', status: 'done', brandId: app.brand.id },
  ];
  for (const body of tasks) expect((await as(app.manager).post('/api/tasks').send({ brandId: app.brand.id, ...body })).status).toBe(201);
  const entries = [
    { kind: 'planned', category: 'Printing', amount: 1_200_000 },
    { kind: 'planned', category: 'Online ads', amount: 800_000 },
    { kind: 'planned', category: 'Photography', amount: 450_000 },
    { kind: 'spent', category: 'Printing', amount: 730_050, description: 'Posters, first run' },
    { kind: 'spent', category: 'Online ads', amount: 910_000 },
    { kind: 'spent', category: 'Photography', amount: 300_000, date: '2026-01-05' },
  ];
  for (const body of entries) expect((await as(app.manager).post('/api/budget-entries').send({ campaignId: exhibition.id, currency: 'QAR', ...body })).status).toBe(201);
  const colleague = await app.ws.user('contributor', { brandIds: [app.brand.id], name: 'Yusuf Amin' });
  await finishProfile(app.ws, colleague, { jobTitle: 'Photographer' });
  return { exhibition };
}

async function openMenuIfNarrow(page: Page, width: number) {
  if (width > 900) return;
  await page.click('[data-ws-menu]');
  await page.locator('.ws-sidebar.is-open').waitFor();
}

describeBrowser('every workspace page, in both languages and at 390 and 1440 px, in a browser', () => {
  // Each test seeds its own app: the temporary stores are closed after every test.
  const browser = useBrowser();
  let app: Seeded;
  let exhibitionId: number;
  beforeEach(async () => {
    app = await seed();
    onTestFinished(() => app.close());
    exhibitionId = (await workspaceInUse(app)).exhibition.id;
  });

  for (const lang of ['en', 'ar'] as Lang[]) {
    for (const width of WIDTHS) {
      it(`when a superadmin opens every page in ${lang} at ${width} px, then each renders its data, has no serious axe violation and is captured`, async () => {
        const { context, page, dialogs } = await signedIn(browser(), app, app.admin, { lang, width });
        try {
          for (const name of PAGES) {
            const response = await page.goto(`${app.url}${path(name)}${query(name, exhibitionId)}`);
            expect(response?.status(), name).toBe(200);
            await settled(page);
            expect(await page.getAttribute('html', 'lang')).toBe(lang);
            expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
            expect(await page.locator('.ws-state:not(:empty)').count(), `${name} shows a state message`).toBe(0);
            expect(await page.locator(`.ws-sidebar a[data-nav="${name}"]`).getAttribute('aria-current')).toBe('page');
            await checkAndShoot(page, `workspace-${name}-${lang}-${width}`);
          }
          await openMenuIfNarrow(page, width);
          await checkAndShoot(page, `workspace-sidebar-${lang}-${width}`);
          await closeAll(context, dialogs);
        } catch (err) {
          await context.close();
          throw err;
        }
      }, 90_000);
    }
  }

  it('when the page is Arabic, then it is right-to-left and the sidebar sits on the right of the page, and on the left in English', { timeout: 60_000 }, async () => {
    for (const lang of ['ar', 'en'] as Lang[]) {
      const { context, page, dialogs } = await signedIn(browser(), app, app.manager, { lang, width: 1440 });
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      const nav = (await page.locator('nav.ws-sidebar').boundingBox())!;
      const main = (await page.locator('main.ws-main').boundingBox())!;
      if (lang === 'ar') {
        expect(nav.x).toBeGreaterThan(main.x + main.width - 1);
        expect(nav.x + nav.width).toBeCloseTo(1440, -1);
        const idea = (await page.locator('[data-status="idea"]').boundingBox())!;
        const published = (await page.locator('[data-status="published"]').boundingBox())!;
        expect(idea.x).toBeGreaterThan(published.x);
      } else {
        expect(nav.x + nav.width).toBeLessThanOrEqual(main.x + 1);
        expect(nav.x).toBe(0);
      }
      await closeAll(context, dialogs);
    }
    const { context, page, dialogs } = await signedIn(browser(), app, app.manager, { lang: 'ar', width: 390 });
    await page.goto(`${app.url}/workspace`);
    await settled(page);
    expect(await page.isVisible('nav.ws-sidebar')).toBe(false);
    await page.click('[data-ws-menu]');
    expect(await page.getAttribute('[data-ws-menu]', 'aria-expanded')).toBe('true');
    const drawer = (await page.locator('nav.ws-sidebar').boundingBox())!;
    expect(drawer.x + drawer.width).toBeCloseTo(390, 0);
    await page.keyboard.press('Escape');
    expect(await page.isVisible('nav.ws-sidebar')).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.hasAttribute('data-ws-menu'))).toBe(true);
    await closeAll(context, dialogs);
  });

  it('when each role signs in, then only the superadmin has the Users link, and the others get a 403 page there', { timeout: 60_000 }, async () => {
    for (const user of [app.admin, app.manager, app.contributor]) {
      const { context, page, dialogs } = await signedIn(browser(), app, user);
      await page.goto(`${app.url}/workspace`);
      await settled(page);
      const usersLinks = await page.locator('nav.ws-sidebar a[href="/workspace/users"]').count();
      expect(usersLinks, user.role).toBe(user.role === 'superadmin' ? 1 : 0);
      expect(await page.locator('.ws-user .role-badge').textContent()).toBe({ superadmin: 'Superadmin', manager: 'Manager', contributor: 'Contributor' }[user.role]);
      expect(await page.locator('nav.ws-sidebar [data-ws-logout]').count()).toBe(1);
      const response = await page.goto(`${app.url}/workspace/users`);
      expect(response?.status()).toBe(user.role === 'superadmin' ? 200 : 403);
      if (user.role === 'superadmin') {
        await settled(page);
        const ownRow = page.locator(`tr[data-user-id="${user.id}"]`);
        expect(await ownRow.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
        expect(await page.locator(`tr[data-user-id="${app.manager.id}"]`).getByRole('button', { name: /^Delete/ }).count()).toBe(1);
      } else {
        await checkAndShoot(page, `workspace-users-forbidden-${user.role}-en-1440`);
      }
      await closeAll(context, dialogs);
    }
  });

  it('when nobody is signed in, then the sign-in page passes axe and is captured in both languages at both widths', { timeout: 60_000 }, async () => {
    for (const lang of ['en', 'ar'] as Lang[]) {
      for (const width of WIDTHS) {
        const context = await browser().newContext({ viewport: { width, height: 900 } });
        const page = await context.newPage();
        const dialogs = forbidNativeDialogs(page);
        await page.goto(`${app.url}/login?lang=${lang}`);
        expect(await page.getAttribute('html', 'dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        await checkAndShoot(page, `workspace-login-${lang}-${width}`);
        await closeAll(context, dialogs);
      }
    }
  });

  it('when a new user is on the password and profile steps, then both pages pass axe and are captured in both languages at both widths', async () => {
    const fresh = await app.ws.user('contributor', { brandIds: [app.brand.id], mustChangePassword: true, name: 'New Colleague' });
    const incomplete = await app.ws.user('contributor', { brandIds: [app.brand.id], name: 'Almost Ready' });
    for (const lang of ['en', 'ar'] as Lang[]) {
      for (const width of WIDTHS) {
        for (const [user, view] of [
          [fresh, 'change-password'],
          [incomplete, 'welcome'],
        ] as const) {
          const { context, page, dialogs } = await signedIn(browser(), app, user, { lang, width });
          await page.goto(`${app.url}/workspace`);
          expect(new URL(page.url()).pathname).toBe(view === 'welcome' ? '/workspace/welcome' : '/change-password');
          await checkAndShoot(page, `workspace-${view}-${lang}-${width}`);
          await closeAll(context, dialogs);
        }
      }
    }
  }, 60_000);
});
