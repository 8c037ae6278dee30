// The workspace board's first paint in a real browser (Debian's chromium): from asking for
// /workspace until every card is on the page and nothing is busy, for a brand with 1,000
// posts against a brand with 10 in the same run, alternating, median of 7 each; and that the
// 1,000-post board stays one window tall, its columns scrolling on their own.
// Runs on dist/ (built by `npm run bench`).
/* global document, requestAnimationFrame -- the functions handed to page.evaluate run in the browser */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { benchApp, benchEnv } from './app.mjs';
import { request, timedServer } from './lib.mjs';

const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');
const { hashPassword } = require('../dist/workspace/members/passwords.js');
const { SqlUserRepository } = require('../dist/workspace/members/repository.js');
const { MemberCache } = require('../dist/workspace/members/cache.js');
const { SqlBrandRepository } = require('../dist/workspace/brands/repository.js');
const { SqlPostRepository } = require('../dist/workspace/posts/repository.js');
const { POST_STATUSES } = require('../dist/workspace/domain.js');

const BIG = 1_000;
const SMALL = 10;
const RUNS = 7;
/** Goal: the 1,000-post board paints within this many times the 10-post one. */
const GOAL_RATIO = 4;
const PASSWORD = 'Bench-password-2026';
const VIEWPORT = { width: 1440, height: 900 };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-board-bench-'));
const { app, stores } = await benchApp(benchEnv(dir));
const records = stores.records.workspace;
const now = new Date().toISOString();
const brands = new SqlBrandRepository(records, stores.notices);
const [small, big] = [await brands.create('Ten posts', now), await brands.create('A thousand posts', now)];
const users = new SqlUserRepository(records, new MemberCache(stores.notices), stores.notices);
const admin = await users.create({ name: 'Bench admin', email: 'admin@bench.test', passwordHash: await hashPassword(PASSWORD), role: 'superadmin', mustChangePassword: false, brandIds: [small.id, big.id], createdAt: now });
await users.update(admin.id, { profileCompletedAt: now, onboardingCompletedAt: now, jobTitle: 'Bench' });
const posts = new SqlPostRepository(records);
for (const [brand, count] of [[small, SMALL], [big, BIG]]) {
  for (let i = 0; i < count; i += 1) {
    await posts.create({
      brandId: brand.id,
      campaignId: null,
      title: `Post ${i + 1} of ${brand.name}`,
      caption: 'A caption of a usual length, with a line or two of text about the museum.',
      platform: 'instagram',
      status: POST_STATUSES[i % POST_STATUSES.length],
      scheduledAt: i % 3 === 0 ? now : null,
      publicationUrl: POST_STATUSES[i % POST_STATUSES.length] === 'published' ? 'https://museum.example/p/1' : null,
      ownerId: admin.id,
      attachments: [],
      createdAt: now,
    });
  }
}

const server = await timedServer(app);
const login = await request(`${server.base}/api/auth/login`, {
  method: 'POST',
  agent: server.agent,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ email: 'admin@bench.test', password: PASSWORD }),
});
if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
const cookie = String(login.headers['set-cookie']).match(/workspace_session=([^;]+)/)[1];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addCookies([{ name: 'workspace_session', value: cookie, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' }]);
  const page = await context.newPage();

  /** Milliseconds from asking for the board of `brand` to its `count` cards painted. */
  const firstPaint = async (brand, count) => {
    const start = performance.now();
    await page.goto(`${server.base}/workspace?brandId=${brand.id}`);
    await page.waitForFunction(
      (n) => document.querySelectorAll('.post-card').length === n && !document.querySelector('[aria-busy="true"]'),
      count,
      { polling: 'raf', timeout: 60_000 },
    );
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));
    return performance.now() - start;
  };

  await firstPaint(small, SMALL);
  await firstPaint(big, BIG);
  const times = { small: [], big: [] };
  for (let run = 0; run < RUNS; run += 1) {
    times.small.push(await firstPaint(small, SMALL));
    times.big.push(await firstPaint(big, BIG));
  }
  /** The page's height and its longest column's, as the board now shown draws them. */
  const shapeOf = () =>
    page.evaluate(() => {
      const lists = [...document.querySelectorAll('.kanban-cards')];
      return { page: document.documentElement.scrollHeight, tallest: Math.max(...lists.map((l) => l.scrollHeight)), shown: Math.max(...lists.map((l) => l.clientHeight)) };
    });
  const shape = await shapeOf();
  await firstPaint(small, SMALL);
  const baseline = await shapeOf();
  const ratio = median(times.big) / median(times.small);

  console.log(`Board first paint, chromium ${browser.version()}, ${VIEWPORT.width}×${VIEWPORT.height}, median of ${RUNS}`);
  console.log('| board | first paint | × 10-post board |');
  console.log('|---|---|---|');
  console.log(`| ${SMALL} posts (baseline) | ${median(times.small).toFixed(0)} ms | 1.00× |`);
  console.log(`| ${BIG.toLocaleString('en')} posts | ${median(times.big).toFixed(0)} ms | ${ratio.toFixed(2)}× (goal ≤ ${GOAL_RATIO}×: ${ratio <= GOAL_RATIO ? 'met' : 'NOT met'}) |`);
  console.log(
    `Page height: ${shape.page} px with ${BIG.toLocaleString('en')} posts, ${baseline.page} px with ${SMALL} (window ${VIEWPORT.height} px): ${shape.page <= baseline.page ? 'the board does not grow the page' : 'the board grows the page'}; the longest column scrolls ${shape.tallest} px inside ${shape.shown} px.`,
  );
} finally {
  await browser.close();
  server.close();
  await stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
