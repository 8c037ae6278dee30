// Lighthouse (the npm package, its default mobile profile: simulated slow 4G and a 4× slower
// CPU) on every page of both applications, signed in, in English and Arabic, against a fresh
// `node dist/server.js` with the demo data; the Dashboard again on 1,000,000 visit rows (a
// second fresh server) and the board again at 1,000 posts. Prints one table with the machine's
// load average before and after, since Lighthouse's simulation scales the CPU time it sees.
// Runs on dist/ (built by `npm run bench`); alone: `npm run build && node bench/pages.bench.mjs`
// (`--only board,dashboard` keeps the pages whose path contains one of the words).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const ADMIN_PIN = '999999';
const ADMIN_EMAIL = 'admin@workspace.local';
const FIRST_PASSWORD = 'ChangeMe-2026';
const PASSWORD = 'Bench-password-2026';
const MILLION = 1_000_000;
const BIG_BOARD = 1_000;
const GOALS = { performance: 0.98, lcpMs: 1500, tbtMs: 50, cls: 0.02, jsKiB: 120 };

const only = (() => {
  const at = process.argv.indexOf('--only');
  return at > 0 ? process.argv[at + 1].split(',') : undefined;
})();
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** `node dist/server.js` on a fresh DATA_DIR, as `npm start` runs it; resolves once it listens. */
async function startServer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-pages-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, UPLOAD_DIR: path.join(dir, 'uploads'), ADMIN_PIN, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      if (tries > 600) throw new Error('the server did not start within a minute');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop() {
      child.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function call(url, method, route, { token, cookie, body, type = 'application/json' } = {}) {
  const headers = { 'Sec-Fetch-Site': 'same-origin' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (cookie) headers.Cookie = cookie;
  if (body !== undefined) headers['Content-Type'] = type;
  const res = await fetch(`${url}${route}`, { method, headers, body: body === undefined ? undefined : type === 'application/json' ? JSON.stringify(body) : body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`);
  return { json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const cookieOf = (headers, name) => headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith(`${name}=`));

/** Runs `work` over `items`, `width` at a time. */
async function pool(items, width, work) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

/**
 * The default superadmin through its first sign-in (new password, profile, tour), a working
 * brand with campaigns, posts in every column, tasks, a project and a budget, and a second
 * brand of 1,000 posts. Answers the workspace cookie and the brand ids.
 */
async function seedWorkspace(url) {
  let { json } = await call(url, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: FIRST_PASSWORD } });
  ({ json } = await call(url, 'POST', '/api/auth/password', { token: json.token, body: { currentPassword: FIRST_PASSWORD, newPassword: PASSWORD } }));
  const token = json.token;
  await call(url, 'PATCH', '/api/auth/me', { token, body: { jobTitle: 'Head of marketing' } });
  await call(url, 'POST', '/api/auth/onboarding', { token, body: { completed: true } });
  const [brand] = (await call(url, 'GET', '/api/brands', { token })).json.brands;
  const big = (await call(url, 'POST', '/api/brands', { token, body: { name: 'A thousand posts' } })).json.brand;
  const campaigns = [];
  for (const [name, status] of [['Ceramics of the Silk Road', 'active'], ['Family Saturdays', 'planned'], ['Ramadan nights', 'active']]) {
    campaigns.push((await call(url, 'POST', '/api/campaigns', { token, body: { name, status, brandId: brand.id, startDate: '2026-11-01', endDate: '2027-01-31' } })).json.campaign);
  }
  const statuses = ['idea', 'draft', 'review', 'approved', 'scheduled', 'published'];
  const day = (i) => new Date(Date.UTC(2026, 10, 1 + (i % 28), 9 + (i % 8))).toISOString();
  const post = (brandId, i, campaignId = null) => ({
    title: `Post ${i + 1}: the collection up close`,
    caption: 'A caption of a usual length, with a line or two of text about the museum and its visitors.',
    platform: ['instagram', 'facebook', 'x', 'linkedin'][i % 4],
    status: statuses[i % statuses.length],
    brandId,
    campaignId,
    ...(statuses[i % statuses.length] === 'scheduled' ? { scheduledAt: day(i) } : {}),
    ...(statuses[i % statuses.length] === 'published' ? { publicationUrl: 'https://museum.example/p/1', scheduledAt: day(i) } : {}),
  });
  const withoutBrandWhenCampaign = (body) => (body.campaignId ? { ...body, brandId: undefined } : body);
  await pool(Array.from({ length: 36 }, (_, i) => i), 4, (i) => call(url, 'POST', '/api/posts', { token, body: withoutBrandWhenCampaign(post(brand.id, i, campaigns[i % 3].id)) }));
  await pool(Array.from({ length: BIG_BOARD }, (_, i) => i), 8, (i) => call(url, 'POST', '/api/posts', { token, body: post(big.id, i) }));
  const project = (await call(url, 'POST', '/api/projects', { token, body: { name: 'New visitor guide', brandId: brand.id, status: 'active', startDate: '2026-11-01', endDate: '2027-03-31' } })).json.project;
  const me = (await call(url, 'GET', '/api/auth/me', { token })).json.user;
  for (let i = 0; i < 12; i += 1) {
    await call(url, 'POST', '/api/tasks', { token, body: { title: `Task ${i + 1}`, brandId: brand.id, assigneeId: me.id, priority: ['low', 'medium', 'high', 'urgent'][i % 4], dueDate: day(i).slice(0, 10), ...(i % 2 ? { projectId: project.id } : {}) } });
  }
  for (const [kind, category, amount] of [['planned', 'Printing', 1_200_000], ['planned', 'Online ads', 800_000], ['spent', 'Printing', 730_050], ['spent', 'Online ads', 910_000]]) {
    await call(url, 'POST', '/api/budget-entries', { token, body: { campaignId: campaigns[0].id, currency: 'QAR', kind, category, amount } });
  }
  const signIn = await call(url, 'POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: PASSWORD } });
  return { cookie: cookieOf(signIn.headers, 'workspace_session'), brand, big, campaign: campaigns[0] };
}

async function dashboardCookie(url) {
  const { headers } = await call(url, 'POST', '/auth/login', { body: { pin: ADMIN_PIN } });
  return cookieOf(headers, 'service_session');
}

/** 1,000,000 daily rows (8 museums × 4 channels × 30 districts a day), imported as CSV as an administrator would. */
async function importMillion(url, cookie) {
  const museums = ['National Museum', 'Museum of Islamic Art', 'Natural History Museum', 'Maritime Museum', 'Heritage Village', 'Contemporary Art Gallery', 'Science Centre', 'Photography House'];
  const channels = ['Online', 'Box office', 'Partner', 'School groups'];
  const lines = ['date,museum,channel,district,visitors,revenue'];
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const first = Date.UTC(2026, 10, 1) / 86_400_000 - Math.ceil(MILLION / 960);
  for (let day = first; lines.length <= MILLION; day += 1) {
    const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
    for (const museum of museums) for (const channel of channels) for (let d = 1; d <= 30 && lines.length <= MILLION; d += 1) {
      const visitors = Math.floor(next() * 120);
      lines.push(`${date},${museum},${channel},District ${String(d).padStart(2, '0')},${visitors},${(visitors * 25).toFixed(2)}`);
    }
  }
  const { json } = await call(url, 'POST', '/api/dashboard/import', { cookie, body: `${lines.join('\n')}\n`, type: 'text/csv' });
  if (json.imported !== MILLION) throw new Error(`imported ${json.imported} rows`);
}

/** One Lighthouse run of `url` with the cookies; the table's figures. */
async function audit(port, url, cookie) {
  const { lhr } = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], extraHeaders: { Cookie: cookie } });
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
  const finalUrl = lhr.finalDisplayedUrl ?? lhr.finalUrl;
  if (new URL(finalUrl).pathname !== new URL(url).pathname) throw new Error(`${url} ended at ${finalUrl}: not signed in?`);
  const requests = lhr.audits['network-requests'].details.items;
  const js = requests.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + r.transferSize, 0);
  const chains = lhr.audits['critical-request-chains']?.displayValue ?? '';
  return {
    performance: lhr.categories.performance.score,
    fcp: lhr.audits['first-contentful-paint'].numericValue,
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    jsKiB: js / 1024,
    requests: requests.length,
    chains,
  };
}

const ms = (v) => `${(v / 1000).toFixed(2)} s`;
const met = (r) =>
  r.performance >= GOALS.performance && r.lcp <= GOALS.lcpMs && r.tbt <= GOALS.tbtMs && r.cls <= GOALS.cls && r.jsKiB <= GOALS.jsKiB;

async function main() {
  const loadBefore = load();
  const debuggingPort = await freePort();
  const browser = await chromium.launch({ executablePath: CHROME, headless: true, args: [`--remote-debugging-port=${debuggingPort}`, '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const rows = [];
  const servers = [];
  try {
    const demo = await startServer();
    servers.push(demo);
    const ws = await seedWorkspace(demo.url);
    const dashboard = await dashboardCookie(demo.url);
    const both = `${ws.cookie}; ${dashboard}`;
    const pages = [
      ['Dashboard (demo data)', `${demo.url}/dashboard`, dashboard],
      ['Dashboard comparison', `${demo.url}/dashboard/comparison`, dashboard],
      ['Dashboard settings', `${demo.url}/dashboard/settings`, dashboard],
      ['Board', `${demo.url}/workspace?brandId=${ws.brand.id}`, both],
      [`Board, ${BIG_BOARD.toLocaleString('en')} posts`, `${demo.url}/workspace?brandId=${ws.big.id}`, both],
      ['Calendar', `${demo.url}/workspace/calendar`, both],
      ['Campaigns', `${demo.url}/workspace/campaigns`, both],
      ['Assets', `${demo.url}/workspace/assets`, both],
      ['Tasks', `${demo.url}/workspace/tasks`, both],
      ['Projects', `${demo.url}/workspace/projects`, both],
      ['Budget', `${demo.url}/workspace/budget?campaignId=${ws.campaign.id}`, both],
      ['Team', `${demo.url}/workspace/team`, both],
      ['Users', `${demo.url}/workspace/users`, both],
      ['Settings', `${demo.url}/workspace/settings`, both],
      ['Mail', `${demo.url}/workspace/settings/mail`, both],
      ['Profile', `${demo.url}/workspace/profile`, both],
    ];
    let million;
    if (!only || only.some((w) => 'dashboard'.includes(w))) {
      million = await startServer();
      servers.push(million);
      const cookie = await dashboardCookie(million.url);
      const started = Date.now();
      await importMillion(million.url, cookie);
      console.log(`(1,000,000 rows imported in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
      pages.splice(1, 0, ['Dashboard (1,000,000 rows)', `${million.url}/dashboard`, cookie]);
    }
    for (const [name, url, cookie] of pages) {
      if (only && !only.some((w) => url.includes(w) || name.toLowerCase().includes(w))) continue;
      for (const lang of ['en', 'ar']) {
        const result = await audit(debuggingPort, url, `${cookie}; lang=${lang}`);
        rows.push({ name, lang, path: new URL(url).pathname, ...result });
        console.log(`  ${name} (${lang}): ${result.performance.toFixed(2)}, LCP ${ms(result.lcp)}, TBT ${result.tbt.toFixed(0)} ms, load ${load()}`);
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) server.stop();
  }
  console.log(`\nLighthouse ${JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')).version}, mobile profile (simulated slow 4G, 4× CPU slowdown), ${CHROME}, Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'})`);
  console.log(`Load average (1, 5, 15 min): ${loadBefore} before, ${load()} after`);
  console.log(`Goals: performance ≥ ${GOALS.performance}, LCP ≤ ${GOALS.lcpMs / 1000} s, TBT ≤ ${GOALS.tbtMs} ms, CLS ≤ ${GOALS.cls}, JavaScript ≤ ${GOALS.jsKiB} KiB compressed\n`);
  console.log('| page | lang | performance | FCP | LCP | TBT | CLS | JS (compressed) | requests | goals |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(`| ${r.name} | ${r.lang} | ${r.performance.toFixed(2)} | ${ms(r.fcp)} | ${ms(r.lcp)} | ${r.tbt.toFixed(0)} ms | ${r.cls.toFixed(3)} | ${r.jsKiB.toFixed(1)} KiB | ${r.requests} | ${met(r) ? 'met' : 'NOT met'} |`);
  }
  const missed = rows.filter((r) => !met(r));
  console.log(missed.length === 0 ? '\nEvery page meets every goal.' : `\n${missed.length} of ${rows.length} runs miss a goal.`);
  if (missed.length > 0) process.exitCode = 1;
}

await main();
