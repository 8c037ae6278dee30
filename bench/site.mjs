// What the browser benchmarks (pages, interactions) start from: `node dist/server.js` on a
// fresh DATA_DIR, as `npm start` runs it, with the demo data, a workspace in use seeded through
// the API, and, on demand, 1,000,000 visit rows imported as an administrator would.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const ADMIN_PIN = '999999';
const ADMIN_EMAIL = 'admin@workspace.local';
const FIRST_PASSWORD = 'ChangeMe-2026';
const PASSWORD = 'Bench-password-2026';
export const MILLION = 1_000_000;
export const BIG_BOARD = 1_000;
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

export function freePort() {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * `node dist/server.js` on a fresh DATA_DIR, as `npm start` runs it, from this checkout or
 * from `root` (another one's build, for a baseline); resolves once it listens.
 */
export async function startServer(root = ROOT) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-pages-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: root,
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
export async function seedWorkspace(url, { bigBoard = true } = {}) {
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
  /** @param {number} i */
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
  if (bigBoard) await pool(Array.from({ length: BIG_BOARD }, (_, i) => i), 8, (i) => call(url, 'POST', '/api/posts', { token, body: post(big.id, i) }));
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

export async function dashboardCookie(url) {
  const { headers } = await call(url, 'POST', '/auth/login', { body: { pin: ADMIN_PIN } });
  return cookieOf(headers, 'service_session');
}

/** 1,000,000 daily rows (8 museums × 4 channels × 30 districts a day), imported as CSV as an administrator would. */
export async function importMillion(url, cookie) {
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
  // node:http rather than fetch, which sends its own Sec-Fetch-Site.
  const body = Buffer.from(`${lines.join('\n')}\n`);
  const answer = await new Promise((resolve, reject) => {
    const req = http.request(`${url}/api/dashboard/import`, { method: 'POST', headers: { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'text/csv', 'Content-Length': String(body.length) } }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
  if (answer.status !== 200 || JSON.parse(answer.text).imported !== MILLION) throw new Error(`the import answered ${answer.status}: ${answer.text.slice(0, 300)}`);
}

