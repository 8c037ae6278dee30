import path from 'node:path';
import { expect, it } from 'vitest';
import type { Browser, Page, Response } from 'playwright-core';
import { createI18n } from '../../src/platform/i18n';
import { tempDir } from '../support/app';
import { describeBrowser, seriousViolations } from '../support/browser';
import { describeNginx, startNginx } from '../support/nginx';
import { describePostgres, migratedDatabase } from '../support/postgres';
import { freePort } from '../support/postgres-server';
import { describeRedis, freshRedis } from '../support/redis';
import { callServer, useServerProcesses, type ServerProcess } from '../support/workspace';
import { forbidNativeDialogs, settled, useBrowser, type Lang } from './browser-helpers';

const ADMIN = { email: 'admin@live-pages.test', password: 'First-start-2026' };
const PASSWORD = 'Live-pages-2026';
const START_MS = 60_000;

const start = useServerProcesses();
const i18n = createI18n();
const say = (lang: Lang, key: string, vars: Record<string, string> = {}) => i18n.getFixedT(lang)(`workspace.${key}`, vars);

/** Two server processes on one PostgreSQL and one Redis, behind Debian's nginx as the README configures it. */
async function cluster() {
  const [database, redis] = await Promise.all([migratedDatabase(), freshRedis()]);
  const ports = [await freePort(), await freePort()];
  const env = (port: number) => {
    const dir = tempDir();
    return {
      DATABASE_URL: database,
      REDIS_URL: redis.url,
      PORT: String(port),
      DATA_DIR: path.join(dir, 'data'),
      UPLOAD_DIR: path.join(dir, 'uploads'),
      DEFAULT_ADMIN_EMAIL: ADMIN.email,
      DEFAULT_ADMIN_PASSWORD: ADMIN.password,
      JWT_SECRET: '',
      SESSION_SECRET: '',
      TRUST_PROXY: '1',
    };
  };
  const [a, b] = await Promise.all(ports.map((port) => start(env(port), START_MS)));
  const nginx = await startNginx(ports);
  const servers = new Map<string, ServerProcess>([
    [`127.0.0.1:${ports[0]}`, a],
    [`127.0.0.1:${ports[1]}`, b],
  ]);
  return { nginx, servers };
}

type Cluster = Awaited<ReturnType<typeof cluster>>;

/** A signed-in token of `email`, whose first sign-in asks for a new password. */
async function firstSignIn(url: string, email: string, password: string) {
  const login = await callServer(url, 'POST', '/api/auth/login', undefined, { email, password });
  expect(login.status).toBe(200);
  const changed = await callServer(url, 'POST', '/api/auth/password', login.body.token as string, { currentPassword: password, newPassword: PASSWORD });
  expect(changed.status).toBe(200);
  return changed.body.token as string;
}

/** A brand with a manager and a contributor in it, each past the first-login steps. */
async function team(c: Cluster) {
  const { url } = c.nginx;
  const admin = await firstSignIn(url, ADMIN.email, ADMIN.password);
  const brand = (await callServer(url, 'POST', '/api/brands', admin, { name: 'Museum of Art' })).body.brand as { id: number };
  const member = async (name: string, email: string, role: string, jobTitle: string) => {
    const made = await callServer(url, 'POST', '/api/members', admin, { name, email, password: 'Temporary-2026', role, brandIds: [brand.id] });
    expect(made.status).toBe(201);
    const token = await firstSignIn(url, email, 'Temporary-2026');
    expect((await callServer(url, 'PATCH', '/api/auth/me', token, { jobTitle })).status).toBe(200);
    expect((await callServer(url, 'POST', '/api/auth/onboarding', token, { completed: true })).status).toBe(200);
    return { email, token };
  };
  const manager = await member('Omar Khalil', 'omar@live-pages.test', 'manager', 'Campaign manager');
  const contributor = await member('Lina Farah', 'lina@live-pages.test', 'contributor', 'Content writer');
  return { brand, manager, contributor };
}

/** A browser context signed in as `email` through `url` (its cookie session), in `lang`. */
async function signedInAt(browser: Browser, url: string, email: string, lang: Lang, width: number) {
  const res = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  expect(res.status).toBe(200);
  const [name, value] = res.headers.getSetCookie().map((line) => line.split(';')[0]).find((pair) => pair.startsWith('workspace_session='))!.split('=');
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
  await context.addCookies([
    { name, value, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' },
    { name: 'lang', value: lang, domain: '127.0.0.1', path: '/' },
  ]);
  const page = await context.newPage();
  return { context, page, dialogs: forbidNativeDialogs(page) };
}

const isStream = (res: Response) => new URL(res.url()).pathname === '/api/events';
const card = (page: Page, title: string) => page.locator('.post-card', { hasText: title });
const column = (page: Page, title: string, status: string) => card(page, title).locator(`xpath=ancestor::section[@data-status="${status}"]`);

describeBrowser('Live pages across two instances behind nginx', { timeout: 180_000 }, () => {
  describeRedis('on Redis', () => {
    describeNginx('behind Debian’s nginx', () => {
      describePostgres('on PostgreSQL', () => {
        const browser = useBrowser();

        it.each([
          ['en', 1440],
          ['ar', 390],
        ] as const)(
          'when a manager on one instance moves a card and comments with a mention (%s, %i px), then the contributor’s page, its stream held by the other through nginx, follows; when that instance stops, her page moves to the other and misses nothing',
          async (lang, width) => {
            const c = await cluster();
            const { brand, manager, contributor } = await team(c);
            const made = await callServer(c.nginx.url, 'POST', '/api/posts', contributor.token, { title: 'Opening night', status: 'review', brandId: brand.id });
            expect(made.status).toBe(201);
            const post = made.body.post as { id: number; title: string };

            // Her page through nginx; the instance that holds her stream is the one nginx names.
            const lina = await signedInAt(browser(), c.nginx.url, contributor.email, lang, width);
            const streaming = lina.page.waitForResponse(isStream);
            await lina.page.goto(`${c.nginx.url}/workspace`);
            const stream = await streaming;
            expect(stream.status()).toBe(200);
            const holder = (await stream.allHeaders())['x-upstream'];
            const other = [...c.servers].find(([address]) => address !== holder)![1];
            await settled(lina.page);

            // His page on the other instance: every change he makes starts there.
            const omar = await signedInAt(browser(), other.url, manager.email, lang, 1440);
            await omar.page.goto(`${other.url}/workspace`);
            await settled(omar.page);
            await card(omar.page, post.title).locator('.post-move').click();
            await omar.page.getByRole('menuitem', { name: say(lang, 'board.moveTo', { status: say(lang, 'status.approved') }) }).click();

            await column(lina.page, post.title, 'approved').waitFor();
            expect(await card(lina.page, post.title).getAttribute('class')).toContain('is-live-change');
            expect(await seriousViolations(lina.page)).toEqual([]);
            const count = lina.page.locator(`${width < 900 ? '.ws-mobilebar' : '.ws-user'} [data-notifications-count]`);
            await expect.poll(() => count.isVisible()).toBe(true);

            await card(lina.page, post.title).locator('.post-open').click();
            await lina.page.locator('dialog.modal[open] .comment-list[aria-busy="false"]').waitFor({ state: 'attached' });
            await card(omar.page, post.title).locator('.post-open').click();
            await omar.page.locator('dialog.modal[open] textarea.comment-input').fill('@Lina Farah add the time, please');
            await omar.page.locator('dialog.modal[open] .comment-send').click();
            await lina.page.locator('dialog.modal[open] .comment', { hasText: 'add the time' }).waitFor();
            const before = await count.textContent();

            // The instance holding her stream stops: her browser reconnects through nginx to the
            // other, naming the last event it had, and is told what it missed meanwhile.
            // Her reconnection waits until the change is made, so that it can only come as missed.
            let changed = () => {};
            const madeMeanwhile = new Promise<void>((resolve) => (changed = resolve));
            await lina.page.route((url) => url.pathname === '/api/events', async (route) => {
              await madeMeanwhile;
              await route.continue();
            });
            const moved = lina.page.waitForResponse((res) => isStream(res) && res.headers()['x-upstream'] !== holder);
            c.servers.get(holder)!.child.kill('SIGTERM');
            await lina.page.waitForRequest((req) => new URL(req.url()).pathname === '/api/events');
            const said = await callServer(other.url, 'POST', `/api/posts/${post.id}/comments`, manager.token, { body: 'See you at seven' });
            expect(said.status).toBe(201);
            const renamed = await callServer(other.url, 'PATCH', `/api/posts/${post.id}`, manager.token, { title: 'Opening night at seven' });
            expect(renamed.status).toBe(200);
            changed();
            // Only a replay brings what was missed into the open panel (a reset would read the
            // board and the thread again, not tell the panel its post changed).
            expect((await moved).status()).toBe(200);
            const panel = lina.page.locator('dialog.modal[open]');
            await panel.locator('.comment', { hasText: 'See you at seven' }).waitFor();
            await panel.locator('.modal-title', { hasText: 'Opening night at seven' }).waitFor();
            // Whatever the server made of the edit, the panel says it as the post now is.
            const status = renamed.body.post.status as string;
            expect(await panel.locator('.live-notice').textContent()).toBe(say(lang, 'live.postShown', { title: 'Opening night at seven', status: say(lang, `status.${status}`) }));
            await expect.poll(() => count.textContent()).not.toBe(before);
            await panel.locator('.modal-close').click();
            await column(lina.page, 'Opening night at seven', status).waitFor();

            await omar.context.close();
            await lina.context.close();
            expect([...lina.dialogs, ...omar.dialogs]).toEqual([]);
          },
        );
      });
    });
  });
});
