// Workspace at scale, each figure against a baseline measured in the same run:
// - POST /api/assets with 100 files of 1 MB in one request, against writing the same bytes
//   straight to disk with fs (and, for reference, 100 pictures of about 1 MB with their
//   thumbnails);
// - GET /api/posts over 100,000 posts, against a bare SQL select of the same page.
// Runs on dist/ (built by `npm run bench`).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { benchApp, benchEnv } from './app.mjs';
import { request, timedServer } from './lib.mjs';

const require = createRequire(import.meta.url);
const sharp = require('sharp');
const { hashPassword } = require('../dist/workspace/members/passwords.js');
const { SqlUserRepository } = require('../dist/workspace/members/repository.js');
const { MemberCache } = require('../dist/workspace/members/cache.js');
const { SqlBrandRepository } = require('../dist/workspace/brands/repository.js');

const FILES = 100;
const FILE_BYTES = 1024 * 1024;
const UPLOAD_RUNS = 9;
const IMAGE_RUNS = 3;
const POSTS = 100_000;
const BRANDS = 4;
const CAMPAIGNS = 200;
const LIST_RUNS = 301;
const WARMUP = 30;
const PASSWORD = 'Bench-password-2026';

const pct = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (v) => `${v.toFixed(2)} ms`;

/** A multipart body as a list of buffers (nothing copied), and its length. */
function multipart(fields, files) {
  const boundary = `bench-${randomBytes(8).toString('hex')}`;
  /** @type {Buffer[]} */
  const parts = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { parts, length: parts.reduce((n, p) => n + p.length, 0), type: `multipart/form-data; boundary=${boundary}` };
}

/** 1 MB documents: a PDF header, then incompressible bytes. */
function documents() {
  return Array.from({ length: FILES }, (_, i) => {
    const data = randomBytes(FILE_BYTES);
    data.write('%PDF-1.7\n', 0, 'latin1');
    return { name: `report-${i}.pdf`, data };
  });
}

/** Pictures of about 1 MB: noise compresses badly, so a 1000×1000 JPEG stays large. */
async function pictures() {
  const noise = await sharp(randomBytes(1000 * 1000 * 3), { raw: { width: 1000, height: 1000, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
  return Array.from({ length: FILES }, (_, i) => ({ name: `photo-${i}.jpg`, data: noise }));
}

/** The same bytes written straight to disk, file by file, as the server writes them. */
async function rawWrite(dir, files) {
  const target = fs.mkdtempSync(path.join(dir, 'raw-'));
  const start = performance.now();
  for (const [i, file] of files.entries()) await fs.promises.writeFile(path.join(target, `f${i}`), file.data);
  const elapsed = performance.now() - start;
  fs.rmSync(target, { recursive: true, force: true });
  return elapsed;
}

/** 100,000 posts over a few brands and campaigns, a fifth with attachments. */
function seedPosts(db, brandIds, ownerId) {
  const start = Date.UTC(2024, 0, 1);
  db.transaction(() => {
    const campaign = db.prepare("INSERT INTO campaigns (brand_id, name, status, owner_id, created_at, updated_at) VALUES (?, ?, 'active', ?, ?, ?) RETURNING id");
    const campaigns = Array.from({ length: CAMPAIGNS }, (_, i) => {
      const at = new Date(start).toISOString();
      return { id: campaign.get(brandIds[i % BRANDS], `Campaign ${i}`, ownerId, at, at).id, brandId: brandIds[i % BRANDS] };
    });
    const post = db.prepare(
      "INSERT INTO posts (brand_id, campaign_id, title, caption, platform, status, owner_id, created_at, updated_at) VALUES (?, ?, ?, ?, 'instagram', 'draft', ?, ?, ?) RETURNING id",
    );
    const asset = db.prepare(
      "INSERT INTO assets (brand_id, uploaded_by, name, mime_type, size, file_key, thumbnail_key, created_at) VALUES (?, ?, ?, 'image/jpeg', 1000, ?, ?, ?) RETURNING id",
    );
    const attach = db.prepare('INSERT INTO post_attachments (post_id, asset_id, position) VALUES (?, ?, ?)');
    for (let i = 0; i < POSTS; i += 1) {
      const c = campaigns[i % CAMPAIGNS];
      const at = new Date(start + i * 60_000).toISOString();
      const { id } = post.get(c.brandId, c.id, `Post ${i}`, `Caption of post ${i}`, ownerId, at, at);
      if (i % 5 === 0) {
        for (let k = 0; k < 2; k += 1) {
          const key = randomBytes(16).toString('hex');
          const a = asset.get(c.brandId, ownerId, `p${i}-${k}.jpg`, `${key}.jpg`, `${key}.thumb.webp`, at).id;
          attach.run(id, a, k);
        }
      }
    }
  })();
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-bench-ws-'));
  const { app, stores } = await benchApp(benchEnv(dir, { ADMIN_PIN: '999999', UPLOAD_MAX_FILES: String(FILES), UPLOAD_MAX_MB: '2' }));
  // The raw handle under the records seeds 100,000 posts quickly and times the bare SQL baseline.
  const records = stores.records.workspace;
  const db = records.handle;
  const now = new Date().toISOString();
  const brandRepo = new SqlBrandRepository(records, stores.notices);
  const brandIds = [];
  for (let b = 0; b < BRANDS; b += 1) brandIds.push((await brandRepo.create(`Brand ${b}`, now)).id);
  const users = new SqlUserRepository(records, new MemberCache(stores.notices), stores.notices);
  const passwordHash = await hashPassword(PASSWORD);
  const admin = await users.create({ name: 'Bench admin', email: 'admin@bench.test', passwordHash, role: 'superadmin', mustChangePassword: false, brandIds, createdAt: now });
  await users.create({ name: 'Bench member', email: 'member@bench.test', passwordHash, role: 'contributor', mustChangePassword: false, brandIds: [brandIds[1]], createdAt: now });

  const server = await timedServer(app);
  const { base, agent, serverTimes } = server;
  const signIn = async (email) => {
    const res = await request(`${base}/api/auth/login`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
    if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
    return `Bearer ${JSON.parse(res.text).token}`;
  };
  const adminAuth = await signIn('admin@bench.test');
  const memberAuth = await signIn('member@bench.test');

  // ## Uploads
  /** @param {{ name: string, data: Buffer }[]} files @param {number} runs */
  const timeUploads = async (files, runs) => {
    const body = multipart({ brandId: brandIds[0] }, files);
    const upload = [];
    const raw = [];
    for (let run = 0; run < runs; run += 1) {
      global.gc?.();
      raw.push(await rawWrite(dir, files));
      const start = performance.now();
      const res = await request(`${base}/api/assets`, {
        method: 'POST',
        agent,
        headers: { Authorization: adminAuth, 'Content-Type': body.type, 'Content-Length': String(body.length) },
        body: body.parts,
      });
      upload.push(performance.now() - start);
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text.slice(0, 300)}`);
      const assets = JSON.parse(res.text).assets;
      if (assets.length !== files.length || assets[0].size !== files[0].data.length) throw new Error('unexpected upload answer');
      for (const a of assets) await request(`${base}/api/assets/${a.id}`, { method: 'DELETE', agent, headers: { Authorization: adminAuth } });
    }
    const megabytes = files.reduce((n, f) => n + f.data.length, 0) / (1024 * 1024);
    return { upload, raw, megabytes };
  };
  const docs = await timeUploads(documents(), UPLOAD_RUNS);
  const images = await timeUploads(await pictures(), IMAGE_RUNS);

  // ## Post list
  seedPosts(db, brandIds, admin.id);
  db.pragma('optimize');
  // The seed holds this process's event loop for longer than the server's keep-alive timeout,
  // so the server's overdue timer would close the idle connection just as the next request is
  // written on it (ECONNRESET): the post lists run on a connection of their own.
  const listAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const timeRoute = async (url, auth) => {
    for (let i = 0; i < WARMUP; i += 1) await request(`${base}${url}`, { agent: listAgent, headers: { Authorization: auth } });
    serverTimes.length = 0;
    let last;
    const start = performance.now();
    for (let i = 0; i < LIST_RUNS; i += 1) last = await request(`${base}${url}`, { agent: listAgent, headers: { Authorization: auth } });
    const perSecond = LIST_RUNS / ((performance.now() - start) / 1000);
    if (last.status !== 200) throw new Error(`${url} answered ${last.status}`);
    return { times: [...serverTimes], perSecond, body: JSON.parse(last.text) };
  };
  const timeSql = (sql, params) => {
    const statement = db.prepare(sql);
    for (let i = 0; i < WARMUP; i += 1) statement.all(...params);
    const times = [];
    let rows;
    for (let i = 0; i < LIST_RUNS; i += 1) {
      const start = performance.now();
      rows = statement.all(...params);
      times.push(performance.now() - start);
    }
    return { times, rows, perSecond: LIST_RUNS / (times.reduce((a, b) => a + b, 0) / 1000) };
  };
  const campaignId = db.prepare('SELECT id FROM campaigns WHERE brand_id = ? ORDER BY id LIMIT 1').pluck().get(brandIds[1]);
  const brandsRun = await timeRoute('/api/brands', memberAuth);
  const lists = [
    {
      name: 'superadmin, first page of 50 (all brands)',
      route: await timeRoute('/api/posts', adminAuth),
      bare: timeSql('SELECT * FROM posts ORDER BY created_at DESC, id DESC LIMIT 50', []),
    },
    {
      name: 'contributor of one brand, first page of 50',
      route: await timeRoute('/api/posts', memberAuth),
      bare: timeSql('SELECT * FROM posts WHERE brand_id IN (?) ORDER BY created_at DESC, id DESC LIMIT 50', [brandIds[1]]),
    },
    {
      name: 'contributor, one campaign, first page of 50',
      route: await timeRoute(`/api/posts?campaignId=${campaignId}`, memberAuth),
      bare: timeSql('SELECT * FROM posts WHERE brand_id IN (?) AND campaign_id = ? ORDER BY created_at DESC, id DESC LIMIT 50', [brandIds[1], campaignId]),
    },
  ];
  for (const list of lists) {
    const got = list.route.body.posts.map((p) => p.id);
    const want = list.bare.rows.map((r) => r.id);
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${list.name}: the route and the bare select disagree`);
  }

  // ## Report
  console.log(`\nWorkspace benchmark: Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} CPUs`);
  console.log(`\n| upload of ${FILES} files in one request | p50 | p99 | requests/s (p50) | throughput (p50) | × raw disk write (p50) |`);
  console.log('|---|---|---|---|---|---|');
  /** @type {[string, { upload: number[], raw: number[], megabytes: number }][]} */
  const uploads = [
    [`${FILES} documents of 1 MB (POST /api/assets, ${UPLOAD_RUNS} runs)`, docs],
    [`${FILES} JPEG pictures of ${(images.megabytes / FILES).toFixed(2)} MB with thumbnails (${IMAGE_RUNS} runs)`, images],
  ];
  for (const [name, run] of uploads) {
    const p50 = pct(run.upload, 50);
    console.log(`| ${name} | ${ms(p50)} | ${ms(pct(run.upload, 99))} | ${(1000 / p50).toFixed(1)} | ${(run.megabytes / (p50 / 1000)).toFixed(0)} MB/s | ${(p50 / pct(run.raw, 50)).toFixed(2)}× |`);
  }
  const rawP50 = pct(docs.raw, 50);
  console.log(`| baseline: the same ${FILES} MB written with fs.writeFile, file by file | ${ms(rawP50)} | ${ms(pct(docs.raw, 99))} | ${(1000 / rawP50).toFixed(1)} | ${(docs.megabytes / (rawP50 / 1000)).toFixed(0)} MB/s | 1× |`);

  const perSecond = (run) => Math.round(run.perSecond).toLocaleString('en');
  console.log(`\n| GET /api/posts over ${POSTS.toLocaleString('en')} posts (${LIST_RUNS} runs, one connection) | server p50 | server p99 | requests/s | bare select p50 | bare select p99 | bare selects/s | × bare (p50) |`);
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(`| for reference: GET /api/brands, the fixed cost of a signed-in request | ${ms(pct(brandsRun.times, 50))} | ${ms(pct(brandsRun.times, 99))} | ${perSecond(brandsRun)} | — | — | — | — |`);
  for (const list of lists) {
    const r50 = pct(list.route.times, 50);
    const b50 = pct(list.bare.times, 50);
    console.log(`| ${list.name} | ${ms(r50)} | ${ms(pct(list.route.times, 99))} | ${perSecond(list.route)} | ${ms(b50)} | ${ms(pct(list.bare.times, 99))} | ${perSecond(list.bare)} | ${(r50 / b50).toFixed(1)}× |`);
  }

  listAgent.destroy();
  server.close();
  await stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((/** @type {unknown} */ err) => {
  console.error(err);
  process.exit(1);
});
