import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request, type HttpTest, type HttpResponse } from './http';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, expect, inject, vi } from 'vitest';
import { AuthService } from '../../src/workspace/auth/service';
import { SqlLinkTokens } from '../../src/workspace/auth/links';
import { MailQueue, workspaceOutbox } from '../../src/workspace/mail/queue';
import { createI18n } from '../../src/platform/i18n';
import { hashPassword } from '../../src/workspace/members/passwords';
import { SqlSessionStore } from '../../src/workspace/auth/repository';
import { SqlBrandRepository, type Brand } from '../../src/workspace/brands/repository';
import { MemberCache } from '../../src/workspace/members/cache';
import { SqlUserRepository, type UserRecord } from '../../src/workspace/members/repository';
import { WORKSPACE_TABLE_NAMES } from '../../src/workspace/tables';
import type { Role } from '../../src/workspace/domain';
import type { EngineKind } from '../../src/platform/db/engine';
import type { Logger } from '../../src/platform/logger';
import { buildApp, cookieFrom, type TestDashboard } from './app';

/** The password of every user the helpers make. */
export const PASSWORD = 'Correct-Horse-9';

// bcrypt is slow on purpose: hash the shared password once per test file.
let passwordHash: Promise<string> | undefined;
const sharedHash = () => (passwordHash ??= hashPassword(PASSWORD));

export interface TestUser {
  id: number;
  email: string;
  role: Role;
  brandIds: number[];
  token: string;
  record: UserRecord;
}

type Method = 'get' | 'post' | 'patch' | 'delete';
export type Client = Record<Method, (path: string) => HttpTest>;

export interface TestWorkspace extends TestDashboard {
  auth: AuthService;
  members: SqlUserRepository;
  brand(name?: string): Promise<Brand>;
  /** A user stored directly (no bcrypt per user) with a fresh bearer token. */
  user(role: Role, opts?: { brandIds?: number[]; mustChangePassword?: boolean; email?: string; name?: string }): Promise<TestUser>;
  /** Requests with the user's bearer token. */
  as(user: TestUser | string): Client;
  /** A real sign-in through the API; the cookie header to send back. */
  signIn(email: string, password?: string): Promise<{ res: HttpResponse; cookie: string; token: string }>;
  /** Requests with a cookie, sent the way the workspace's own pages send them. */
  withCookie(cookie: string): Client;
}

let serial = 0;

export async function buildWorkspace(opts: { env?: Record<string, string>; logger?: Logger; engine?: EngineKind } = {}): Promise<TestWorkspace> {
  const base = await buildApp({ env: opts.env, logger: opts.logger, engine: opts.engine });
  const records = base.stores.records.workspace;
  // Writes through these reach the app's caches as any instance's would.
  const { notices } = base.stores;
  const users = new SqlUserRepository(records, new MemberCache(notices), notices);
  const brands = new SqlBrandRepository(records, notices);
  const auth = new AuthService({
    users,
    sessions: new SqlSessionStore(records, base.clock, 0),
    clock: base.clock,
    jwtSecret: base.config.jwtSecret,
    links: new SqlLinkTokens(records),
    mail: new MailQueue({ outbox: workspaceOutbox(records), i18n: createI18n(), now: () => base.clock.now() }),
  });
  const hash = await sharedHash();

  const client = (headers: Record<string, string>): Client => {
    const make = (method: Method) => (path: string) => request(base.app)[method](path).set(headers);
    return { get: make('get'), post: make('post'), patch: make('patch'), delete: make('delete') };
  };

  return {
    ...base,
    auth,
    members: users,
    brand: (name = `Brand ${++serial}`) => brands.create(name, new Date(base.clock.now()).toISOString()),
    async user(role, o = {}) {
      const created = await users.create({
        name: o.name ?? `${role} ${++serial}`,
        email: o.email ?? `${role}${++serial}@example.test`,
        passwordHash: hash,
        role,
        mustChangePassword: o.mustChangePassword ?? false,
        brandIds: o.brandIds ?? [],
        createdAt: new Date(base.clock.now()).toISOString(),
      });
      if (created === 'email-taken') throw new Error('test email reused');
      return { id: created.id, email: created.email, role, brandIds: created.brandIds, token: auth.issueToken(created), record: created };
    },
    as: (user) => client({ Authorization: `Bearer ${typeof user === 'string' ? user : user.token}` }),
    async signIn(email, password = PASSWORD) {
      const res = await request(base.app).post('/api/auth/login').send({ email, password });
      return { res, cookie: `workspace_session=${cookieFrom(res, 'workspace_session')}`, token: res.body.token };
    },
    withCookie: (cookie) => client({ Cookie: cookie, 'Sec-Fetch-Site': 'same-origin' }),
  };
}

/** Two brands ("Mine" and "Theirs"), a superadmin, and a manager and two contributors of the first. */
export async function buildTeam() {
  const ws = await buildWorkspace();
  const [brand, other] = [await ws.brand('Mine'), await ws.brand('Theirs')];
  const admin = await ws.user('superadmin');
  const manager = await ws.user('manager', { brandIds: [brand.id] });
  const contributor = await ws.user('contributor', { brandIds: [brand.id] });
  const colleague = await ws.user('contributor', { brandIds: [brand.id] });
  return { ws, brand, other, admin, manager, contributor, colleague };
}

/** The content and people tables: every table of the workspace but its sessions. */
const SNAPSHOT_TABLES = WORKSPACE_TABLE_NAMES.filter((t) => t !== 'sessions');

/** Every stored row of the content and people tables, on either engine, to prove a refused request changed nothing. */
export async function snapshot(ws: Pick<TestWorkspace, 'stores'>): Promise<string> {
  const { db } = ws.stores.records.workspace;
  const tables: [string, string[]][] = [];
  for (const table of SNAPSHOT_TABLES) {
    const rows = await db.selectFrom(table).selectAll().execute();
    tables.push([table, rows.map((row) => JSON.stringify(row)).sort()]);
  }
  return JSON.stringify(tables);
}

// ## The real server process

const ROOT = path.resolve(__dirname, '..', '..');

/** The build takes some 20 s alone and took over 120 s beside three Chromiums on two cores. */
const BUILD_MS = 300_000;
/** For a beforeAll that calls buildDist: the build, and a wait for another file's. */
export const BUILD_HOOK_MS = BUILD_MS + 60_000;

/**
 * Builds dist/ once per run: the first file to ask builds it while the others wait for its
 * mark, since each build costs a busy machine most of a minute.
 */
export async function buildDist(): Promise<void> {
  const runId = inject('runId');
  const mark = path.join(ROOT, 'dist', '.built-for-run');
  const built = () => fs.existsSync(mark) && fs.readFileSync(mark, 'utf8') === runId;
  if (built()) return;
  try {
    fs.mkdirSync(path.join(os.tmpdir(), `museum-build-${runId}`));
  } catch {
    // Another file of this run is building: the mark appears when it is done.
    await vi.waitFor(() => expect(built(), 'dist/ built by another test file').toBe(true), { timeout: BUILD_MS + 30_000, interval: 250 });
    return;
  }
  try {
    // Not execFileSync: a worker whose event loop stands still for the build's minute cannot
    // answer the test runner, which then reports its own calls as timed out.
    await promisify(execFile)('npm', ['run', 'build', '--silent'], { cwd: ROOT, timeout: BUILD_MS });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`npm run build failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: err });
  }
  fs.writeFileSync(mark, runId);
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  /** Resolves once the process has exited, however it ended. */
  exited: Promise<void>;
}

/** Runs `node dist/server.js` on a free port and resolves once its "Listening on" line names the port. */
export function startServer(env: Record<string, string>, timeoutMs = 15_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['dist/server.js'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('timed out waiting for "Listening on"')), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${err.message}\n${output}`));
    };
    const early = (code: number | null, signal: string | null) => fail(new Error(`server exited early (${code ?? signal})`));
    child.once('exit', early);
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      output += d;
      const line = output.split('\n').find((l) => l.includes('"Listening on'));
      if (!line) return;
      clearTimeout(timer);
      child.off('exit', early);
      const { port } = JSON.parse(line) as { port: number };
      resolve({ child, url: `http://127.0.0.1:${port}`, output: () => output, exited });
    });
  });
}

/**
 * For a test file that runs the real server: builds dist/ once, and kills (SIGKILL) every
 * server its tests started as each test ends. Returns what starts one.
 */
export function useServerProcesses(): (env: Record<string, string>, timeoutMs?: number) => Promise<ServerProcess> {
  let running: ServerProcess[] = [];
  beforeAll(buildDist, BUILD_HOOK_MS);
  afterEach(async () => {
    for (const server of running) server.child.kill('SIGKILL');
    await Promise.all(running.map((s) => s.exited));
    running = [];
  });
  return async (env, timeoutMs) => {
    const server = await startServer(env, timeoutMs);
    running.push(server);
    return server;
  };
}

/** One JSON (or multipart, given FormData) request to a server process, with a bearer token when given. */
export async function callServer(url: string, method: string, route: string, token?: string, body?: object | FormData) {
  const res = await fetch(`${url}${route}`, {
    method,
    headers: { ...(body && !(body instanceof FormData) ? { 'Content-Type': 'application/json' } : {}), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/**
 * Stops a server process gracefully, then opens its workspace database read-only and checks
 * that SQLite finds it intact, with every foreign key holding; `more` may look further.
 */
export async function expectIntactAfterStop(server: ServerProcess, dataDir: string, more?: (db: Database.Database) => void): Promise<void> {
  server.child.kill('SIGTERM');
  await server.exited;
  const db = new Database(path.join(dataDir, 'workspace.db'), { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(db.pragma('foreign_key_check')).toEqual([]);
    more?.(db);
  } finally {
    db.close();
  }
}
