import type { Express } from 'express';
import { request, type HttpTest, type HttpResponse } from '../support/http';
import type { IncomingMessage, Server } from 'node:http';
import { expect } from 'vitest';
import { isApiPath } from '../../src/platform/errors';
import { createHttpServer } from '../../src/platform/http-server';
import { routesOf as routeTable } from '../../src/platform/route-table';
import { cookieFrom } from '../support/app';
import { image, pdf } from '../support/files';
import { buildWorkspace, type TestUser, type TestWorkspace } from '../support/workspace';

/**
 * Every route both applications serve, read from the app's route table (the one the API
 * description uses), so that a route added later is covered by every check of this suite
 * without being listed anywhere.
 */
export interface Route {
  /** Upper case; 'ALL' for a route that answers every method. */
  method: string;
  /** As declared, mount paths included, e.g. `/api/posts/:id`; a RegExp route by its `describedAs` name. */
  path: string;
}

export function routesOf(app: Express): Route[] {
  return routeTable(app.router).map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
}

export const key = (r: Route) => `${r.method} ${r.path}`;

/** The paths of neither application: the home page, the probes and the metrics. */
const PLATFORM = new Set(['/', '/healthz', '/livez', '/metrics']);

/** The token the world's app opens GET /metrics with: without it, /metrics answers 401 like any API route. */
export const METRICS_TOKEN = 'world-metrics-token-0123456789abcdef0123';

/** Which application a path belongs to. */
export function appOf(path: string): 'dashboard' | 'workspace' | 'platform' {
  if (PLATFORM.has(path)) return 'platform';
  if (/^\/(auth|dashboard)(\/|$)/.test(path) || /^\/api\/(users|dashboard|seasons|audit)(\/|$)/.test(path)) return 'dashboard';
  return 'workspace';
}

export const isApi = (path: string) => isApiPath(path) || (PLATFORM.has(path) && path !== '/');
export const isWrite = (method: string) => !['GET', 'HEAD'].includes(method);

/** Methods sent to a route: an ALL route is tried with the methods that change things. */
export function methodsOf(route: Route): string[] {
  return route.method === 'ALL' ? ['POST', 'PUT', 'PATCH', 'DELETE'] : [route.method];
}

/**
 * Routes that answer without any sign-in, and what they answer to an empty request. Every
 * other API route answers 401, every other page redirects to its sign-in page.
 */
export const PUBLIC: Partial<Record<string, number>> = {
  'GET /': 200,
  'GET /healthz': 200,
  'GET /livez': 200,
  'POST /auth/login': 400,
  'GET /auth/check': 200,
  'POST /auth/logout': 200,
  'GET /dashboard/login': 200,
  'POST /api/auth/login': 400,
  'POST /api/auth/logout': 200,
  'POST /api/auth/password-reset': 400,
  'POST /api/auth/password-reset/confirm': 400,
  'GET /login': 200,
  'GET /forgot-password': 200,
  // Without a token there is no link to honour.
  'GET /reset-password': 410,
  'GET /invite/:token': 410,
  'POST /api/auth/invitations/accept': 400,
  // A mail's one-click unsubscribe link: the signed token in it decides, no sign-in (RFC 8058).
  'GET /api/mail/unsubscribe': 404,
  'POST /api/mail/unsubscribe': 400,
  // The API's description and its page for people: route names and schemas, nobody's data.
  'GET /api/openapi.json': 200,
  'GET /api/docs': 200,
  'GET /static/vendor/chart.js/chart.umd.js': 200,
  'GET /static/vendor/chart.js/chart.umd.js.map': 200,
};

/** Uploaded files are read-only: any other method answers 405 whoever asks. */
export const READ_ONLY_UPLOADS = 'ALL /api/uploads/*path';

/** The ids a route's parameters are filled with. */
export interface Ids {
  dashboardUser: number;
  season: number;
  member: number;
  brand: number;
  campaign: number;
  track: number;
  post: number;
  asset: number;
  task: number;
  project: number;
  entry: number;
  comment: number;
  /** A stored file's key, for /api/uploads/<key>. */
  fileKey: string;
  /** A profile picture's key, for /api/avatars/<key>. */
  avatarKey: string;
}

const PARAMETERS: [RegExp, (ids: Ids) => string | number][] = [
  [/^\/api\/users\/:id/, (ids) => ids.dashboardUser],
  [/^\/api\/seasons\/:id/, (ids) => ids.season],
  [/^\/api\/members\/:id/, (ids) => ids.member],
  [/^\/api\/brands\/:id/, (ids) => ids.brand],
  [/^\/api\/campaigns\/:id/, (ids) => ids.campaign],
  [/^\/api\/tracks\/:id/, (ids) => ids.track],
  [/^\/api\/posts\/:id/, (ids) => ids.post],
  [/^\/api\/assets\/:id/, (ids) => ids.asset],
  [/^\/api\/tasks\/:id/, (ids) => ids.task],
  [/^\/api\/projects\/:id/, (ids) => ids.project],
  [/^\/workspace\/projects\/:id/, (ids) => ids.project],
  [/^\/api\/budget-entries\/:id/, (ids) => ids.entry],
  [/^\/api\/comments\/:id/, (ids) => ids.comment],
  [/^\/api\/uploads\//, (ids) => ids.fileKey],
  [/^\/api\/avatars\/:key/, (ids) => ids.avatarKey],
  // The dashboard's saved views, notes and reports: any id stands for one (their rules have their own suites).
  [/^\/api\/dashboard\/(views|annotations|reports)\/:id/, () => 1],
  // Mail is nobody's record but the superadmins': any id stands for one.
  [/^\/api\/mail\/:id/, () => 1],
  // An invitation link is a token nobody holds here: the page says it no longer works.
  [/^\/invite\/:token/, () => 'no-such-invitation'],
];

/** A concrete path for a route, its parameter filled with `ids` (or with `raw` as sent). */
export function pathFor(route: Route, ids: Ids, raw?: string): string {
  const fill = PARAMETERS.find(([pattern]) => pattern.test(route.path));
  if (route.path.startsWith('/api/uploads/')) return `/api/uploads/${raw ?? fill![1](ids)}`;
  if (!route.path.includes(':')) return route.path;
  if (!fill) throw new Error(`The security suite has no sample id for ${key(route)}: add one to PARAMETERS in test/security/world.ts`);
  return route.path.replace(/:(id|key|token)\b/, () => raw ?? String(fill[1](ids)));
}

/**
 * Routes that name their records in the body instead of the path (a bulk delete), with the
 * body that names the records of `ids`. Every checked-by-id rule covers them as well.
 */
export const IDS_IN_BODY: Partial<Record<string, (ids: Ids) => object>> = {
  'DELETE /api/assets': (ids) => ({ ids: [ids.asset] }),
  'DELETE /api/posts': (ids) => ({ ids: [ids.post] }),
  'PATCH /api/posts': (ids) => ({ ids: [ids.post], status: 'draft' }),
};

/** A change a PATCH to a route's record would accept: its name or title. */
export function renameBody(path: string, value: string): Record<string, string> {
  if (path.endsWith('/comments')) return { body: value };
  if (/^\/api\/(posts|tasks)\//.test(path)) return { title: value };
  if (path.startsWith('/api/budget-entries/')) return { category: value };
  return { name: value };
}

/** Names of the other brand's records carry this, so a leak shows in any answer. */
export const SECRET = 'THEIRS-SECRET';

export interface World {
  ws: TestWorkspace;
  app: Express;
  routes: Route[];
  /** The dashboard's administrator and a restricted viewer, signed in (cookie header values). */
  dashboardAdmin: string;
  dashboardViewer: string;
  superadmin: TestUser;
  manager: TestUser;
  contributor: TestUser;
  /** A manager of the other brand. */
  rival: TestUser;
  /** The superadmin signed in through the API: the workspace cookie header value. */
  workspaceCookie: string;
  /** Records of the brand the manager and contributor belong to, and of the other one. */
  mine: Ids;
  theirs: Ids;
}

const sameOrigin = { 'Sec-Fetch-Site': 'same-origin' };

/** Records of one brand, made through the API as `owner`; names of the other brand carry SECRET. */
async function records(app: Express, owner: TestUser, brandId: number, label: string): Promise<Omit<Ids, 'dashboardUser' | 'season' | 'member'>> {
  const as = (method: 'post' | 'patch', path: string) => request(app)[method](path).set('Authorization', `Bearer ${owner.token}`);
  const created = async (req: HttpTest, name: string) => {
    const res = await req;
    expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(201);
    return res.body;
  };
  const campaign = (await created(as('post', '/api/campaigns').send({ name: `${label} campaign`, brandId }), 'campaign')).campaign.id;
  const track = (await created(as('post', `/api/campaigns/${campaign}/tracks`).send({ name: `${label} track` }), 'track')).track.id;
  const post = (await created(as('post', '/api/posts').send({ title: `${label} post`, campaignId: campaign }), 'post')).post.id;
  const upload = await created(as('post', '/api/assets').field('postId', String(post)).attach('files', pdf(), `${label} file.pdf`), 'asset');
  const project = (await created(as('post', '/api/projects').send({ name: `${label} project`, brandId }), 'project')).project.id;
  const task = (await created(as('post', '/api/tasks').send({ title: `${label} task`, brandId, projectId: project, visibility: 'brand' }), 'task')).task.id;
  const entry = (await created(as('post', '/api/budget-entries').send({ campaignId: campaign, category: `${label} budget`, amount: 1000, currency: 'EUR' }), 'entry')).entry.id;
  const comment = (await created(as('post', `/api/posts/${post}/comments`).send({ body: `${label} comment` }), 'comment')).comment.id;
  const avatar = await as('post', '/api/auth/me/avatar').attach('file', await image('png'), `${label}.png`);
  expect(avatar.status, JSON.stringify(avatar.body)).toBe(200);
  const avatarKey = String(avatar.body.user.avatar).split('/').pop()!;
  return { brand: brandId, campaign, track, post, asset: upload.assets[0].id, fileKey: String(upload.assets[0].url).split('/').pop()!, avatarKey, task, project, entry, comment };
}

export async function buildWorld(opts: { env?: Record<string, string> } = {}): Promise<World> {
  const ws = await buildWorkspace({ env: { METRICS_TOKEN, ...opts.env } });
  const app = ws.app;
  const mineBrand = await ws.brand('Mine');
  const theirsBrand = await ws.brand(`${SECRET} brand`);
  const superadmin = await ws.user('superadmin', { brandIds: [mineBrand.id, theirsBrand.id] });
  const manager = await ws.user('manager', { brandIds: [mineBrand.id] });
  const contributor = await ws.user('contributor', { brandIds: [mineBrand.id] });
  const rival = await ws.user('manager', { brandIds: [theirsBrand.id], name: `${SECRET} manager`, email: 'rival@theirs.test' });

  const viewerRecord = await ws.users.create({ name: 'Restricted viewer', pin: '4321', role: 'viewer', allowedMuseums: '["Alpha Museum"]', allowedChannels: '[]' });
  if (viewerRecord === 'pin-taken') throw new Error('PIN taken');
  const pinLogin = async (pin: string) => {
    const res = await request(app).post('/auth/login').send({ pin });
    expect(res.status).toBe(200);
    return `service_session=${cookieFrom(res, 'service_session')}`;
  };
  const dashboardAdmin = await pinLogin('999999');
  const dashboardViewer = await pinLogin('4321');
  const season = await request(app).post('/api/seasons').set({ Cookie: dashboardAdmin, ...sameOrigin }).send({ name: 'Summer', startDate: '2025-06-01', endDate: '2025-08-31' });
  expect(season.status).toBe(201);

  const mineRecords = await records(app, manager, mineBrand.id, 'Mine');
  const theirsRecords = await records(app, rival, theirsBrand.id, SECRET);
  const signedIn = await ws.signIn(superadmin.email);
  expect(signedIn.res.status).toBe(200);

  const shared = { dashboardUser: viewerRecord.id, season: season.body.season.id as number };
  return {
    ws,
    app,
    routes: routesOf(app),
    dashboardAdmin,
    dashboardViewer,
    superadmin,
    manager,
    contributor,
    rival,
    workspaceCookie: signedIn.cookie,
    mine: { ...shared, ...mineRecords, member: contributor.id },
    theirs: { ...shared, ...theirsRecords, member: rival.id },
  };
}

/** Credentials of the right application for a route, with the full rights of its administrators. */
export function adminOf(world: World, path: string): Record<string, string> {
  return appOf(path) === 'dashboard'
    ? { Cookie: world.dashboardAdmin, ...sameOrigin }
    : { Authorization: `Bearer ${world.superadmin.token}` };
}

const servers = new WeakMap<Express, Server>();

/**
 * The app on the HTTP server that server.ts uses, whose requests are built differently from
 * Node's own; supertest listens and closes it around each request.
 */
function serverOf(app: Express): Server {
  let server = servers.get(app);
  if (!server) servers.set(app, (server = createHttpServer(app)));
  return server;
}

/** The live event streams, which stay open: their answer is taken at its first block. */
const STREAMS = new Set(['/api/events', '/api/dashboard/events']);

/** Reads an answer as supertest would, but stops an event stream after its first block. */
function untilFirstBlock(res: IncomingMessage & { text?: string }, done: (err: Error | null, body: unknown) => void): void {
  let text = '';
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    res.text = text;
    let parsed: unknown = text;
    if ((res.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(text) as unknown;
    done(null, parsed);
  };
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    text += chunk;
    if ((res.headers['content-type'] ?? '').startsWith('text/event-stream') && text.includes('\n\n')) {
      res.destroy();
      finish();
    }
  });
  res.on('end', finish);
}

/** Sends `method path` with headers and an optional body (JSON unless a string is given with its type). */
export function send(app: Express, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): HttpTest {
  const req = request(serverOf(app))[method.toLowerCase() as 'get'](path).set(headers);
  if (STREAMS.has(path.split('?')[0])) void req.buffer(true).parse(untilFirstBlock as unknown as Parameters<HttpTest['parse']>[0]);
  return body === undefined ? req : req.send(body as object);
}

/** An answer's body as text, or '' for a binary one: supertest leaves `text` unset then, though its type says string. */
export const textOf = ({ text }: { text?: string }): string => text ?? '';

/** An answer that is neither a server error nor carries anything of the other brand. */
export function expectNoLeak(res: HttpResponse, what: string): void {
  expect(res.status, `${what}: ${res.status} ${textOf(res).slice(0, 200)}`).toBeLessThan(500);
  expect(textOf(res), what).not.toContain(SECRET);
}
