import { afterEach, describe, expect, it } from 'vitest';
import { SqlVisitRepository } from '../../src/dashboard/visits/repository';
import type { VisitRow } from '../../src/dashboard/domain';
import { serve } from '../support/browser';
import { image, pdf } from '../support/files';
import { buildWorkspace, PASSWORD, type TestUser } from '../support/workspace';

const CLIENTS = 50;
const BRANDS = 5;
const DURATION_MS = 6_000;
/** Rounds every client makes however long they take, so that a slow machine still sends the whole mix. */
const MIN_ROUNDS = 2;
const ADMIN_PIN = '999999';
const VIEWER_PINS = ['4101', '4102', '4103'];
const MUSEUMS = ['National Museum', 'Maritime Museum', 'Science Centre'];
/** The statuses a post is moved through, in order: a manager's, and a contributor's (who stops at review). */
const MOVES = { manager: ['draft', 'review', 'approved', 'scheduled'], contributor: ['draft', 'review'] } as const;

let closeServer: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

/** Two years of daily rows over three museums, two channels and two districts. */
function visits(): VisitRow[] {
  const rows: VisitRow[] = [];
  for (let day = 0; day < 730; day += 1) {
    const date = new Date(Date.UTC(2024, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
    for (const museum of MUSEUMS) {
      for (const channel of ['Online', 'Box office']) {
        for (const district of ['North', 'South']) rows.push({ date, museum, channel, district, visitors: (day % 50) + 1, revenue: (day % 50) * 10 });
      }
    }
  }
  return rows;
}

interface Acknowledged {
  posts: Map<number, { status: string; brandId: number }>;
  assets: Map<number, { size: number; url: string }>;
}

/** One fetch client: every answer's status is kept; any not expected fails the run. */
function client(base: string, unexpected: string[]) {
  return async (method: string, path: string, expected: number, init: { headers?: Record<string, string>; json?: object; form?: FormData } = {}) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(init.json ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
      body: init.form ?? (init.json ? JSON.stringify(init.json) : undefined),
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    if (res.status !== expected) unexpected.push(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
    return { status: res.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, any>) : {}, headers: res.headers };
  };
}

describe('50 clients at once on both applications', { timeout: 60_000 }, () => {
  it(`when they sign in, read the dashboard, sign in to the workspace, create and move posts and upload files for ${DURATION_MS / 1000} s (and at least ${MIN_ROUNDS} rounds each), then nothing fails and every acknowledged write is stored`, async () => {
    const ws = await buildWorkspace();
    await new SqlVisitRepository(ws.stores.records.dashboard).upsert(visits());
    for (const [i, pin] of VIEWER_PINS.entries()) {
      await ws.users.create({ name: `Viewer ${i}`, pin, role: 'viewer', allowedMuseums: JSON.stringify([MUSEUMS[i]]), allowedChannels: '[]' });
    }
    const brands = await Promise.all(Array.from({ length: BRANDS }, (_, i) => ws.brand(`Brand ${i}`)));
    const members: TestUser[] = [];
    // Managers and contributors in turn: reviews requested and approvals given under load too.
    for (let i = 0; i < CLIENTS; i += 1) members.push(await ws.user(i % 4 < 2 ? 'manager' : 'contributor', { brandIds: [brands[i % BRANDS].id] }));
    const admin = await ws.user('superadmin');
    const picture = await image('png', 120, 80);
    const server = await serve(ws.app);
    closeServer = server.close;

    const unexpected: string[] = [];
    const call = client(server.url, unexpected);
    const acked: Acknowledged = { posts: new Map(), assets: new Map() };
    const end = Date.now() + DURATION_MS;
    let summaries = 0;

    const run = async (i: number) => {
      const member = members[i];
      const brandId = member.brandIds[0];
      const pin = i % 4 === 0 ? ADMIN_PIN : VIEWER_PINS[i % VIEWER_PINS.length];
      const dashboard = async () => {
        const res = await call('POST', '/auth/login', 200, { json: { pin } });
        return { Cookie: res.headers.getSetCookie().find((c) => c.startsWith('service_session='))!.split(';')[0] };
      };
      let dashboardCookie = await dashboard();
      const signedIn = await call('POST', '/api/auth/login', 200, { json: { email: member.email, password: PASSWORD } });
      // Half the clients use the workspace's cookie session as its pages do, half the token.
      const auth: Record<string, string> =
        i % 2 === 0
          ? { Cookie: signedIn.headers.getSetCookie().find((c) => c.startsWith('workspace_session='))!.split(';')[0], 'Sec-Fetch-Site': 'same-origin' }
          : { Authorization: `Bearer ${signedIn.body.token}` };

      for (let n = 0; n < MIN_ROUNDS || Date.now() < end; n += 1) {
        if (n % 5 === 4) dashboardCookie = await dashboard();
        const summary = await call('GET', '/api/dashboard/summary?year=2025', 200, { headers: dashboardCookie });
        if (summary.status === 200) summaries += 1;

        // Dated: a manager's moves reach Scheduled, which needs a moment.
        const created = await call('POST', '/api/posts', 201, { headers: auth, json: { title: `Client ${i} post ${n}`, brandId, scheduledAt: '2026-06-01T10:00:00Z' } });
        if (created.status !== 201) continue;
        const id = created.body.post.id as number;
        acked.posts.set(id, { status: 'idea', brandId });
        const moves = MOVES[member.role === 'manager' ? 'manager' : 'contributor'];
        const status = moves[n % moves.length];
        const moved = await call('PATCH', `/api/posts/${id}`, 200, { headers: auth, json: { status } });
        if (moved.status === 200) acked.posts.set(id, { status, brandId });

        if (n % 3 === 0) {
          const file = n % 9 === 0 ? { data: picture, name: `c${i}-${n}.png` } : { data: pdf(8_000), name: `c${i}-${n}.pdf` };
          const form = new FormData();
          form.append('brandId', String(brandId));
          form.append('files', new Blob([new Uint8Array(file.data)]), file.name);
          const uploaded = await call('POST', '/api/assets', 201, { headers: auth, form });
          if (uploaded.status === 201) acked.assets.set(uploaded.body.assets[0].id, { size: file.data.length, url: uploaded.body.assets[0].url });
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => run(i)));

    expect(unexpected).toEqual([]);
    // Enough work was acknowledged for the run to mean something (each client's rounds were each a summary, a post, and every third an upload).
    expect(summaries).toBeGreaterThan(CLIENTS);
    expect(acked.posts.size).toBeGreaterThan(CLIENTS);
    expect(acked.assets.size).toBeGreaterThan(CLIENTS / 2);

    const check = client(server.url, unexpected);
    const asAdmin = { Authorization: `Bearer ${admin.token}` };
    for (const [id, post] of acked.posts) {
      const stored = await check('GET', `/api/posts/${id}`, 200, { headers: asAdmin });
      expect(stored.body.post, `post ${id}`).toMatchObject({ id, status: post.status, brandId: post.brandId });
    }
    for (const [id, asset] of acked.assets) {
      const stored = await check('HEAD', asset.url, 200, { headers: asAdmin });
      expect(Number(stored.headers.get('content-length')), `asset ${id}`).toBe(asset.size);
    }
    expect(unexpected).toEqual([]);
    // Nothing was written that was not acknowledged either.
    expect(ws.workspaceDb.prepare('SELECT count(*) FROM posts').pluck().get()).toBe(acked.posts.size);
    expect(ws.workspaceDb.prepare('SELECT count(*) FROM assets').pluck().get()).toBe(acked.assets.size);
  });
});
