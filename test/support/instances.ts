import path from 'node:path';
import { onTestFinished } from 'vitest';
import { createApp, type AppConfig } from '../../src/app';
import { ManualClock } from '../../src/platform/clock';
import { createLogger } from '../../src/platform/logger';
import { LocalNotices } from '../../src/platform/notices';
import { buildStores, type Stores } from '../../src/stores';
import { AuthService } from '../../src/workspace/auth/service';
import { SqlSessionStore } from '../../src/workspace/auth/repository';
import { SqlLinkTokens } from '../../src/workspace/auth/links';
import { MailQueue, workspaceOutbox } from '../../src/workspace/mail/queue';
import { createI18n } from '../../src/platform/i18n';
import { SqlBrandRepository } from '../../src/workspace/brands/repository';
import { MemberCache } from '../../src/workspace/members/cache';
import { hashPassword } from '../../src/workspace/members/passwords';
import { SqlUserRepository } from '../../src/workspace/members/repository';
import type { Role } from '../../src/workspace/domain';
import { tempDir, testConfig } from './app';
import { request } from './http';
import { withMigratedSqlite } from './sqlite-template';

/** The password of every member `seedMembers` makes. */
export const MEMBER_PASSWORD = 'Instances-share-1';
let passwordHash: Promise<string> | undefined;

export interface Instance {
  app: ReturnType<typeof createApp>;
  stores: Stores;
  config: AppConfig;
}

/**
 * A server instance as server.ts builds one (its stores from the settings in `env`, the app
 * over them) inside this process, with an upload folder of its own; closed after the test.
 * Instances given the same DATABASE_URL, REDIS_URL and S3_* share them as servers behind one
 * address do. `adjust` may replace a store, to play a failure only this instance sees.
 */
export async function instance(env: Record<string, string>, adjust: (stores: Stores) => Stores = (s) => s): Promise<Instance> {
  const base = testConfig({ UPLOAD_DIR: path.join(tempDir(), 'uploads'), ...env });
  if (!base.database) withMigratedSqlite(base.dataDir);
  const config: AppConfig = Object.freeze({ ...base, jwtSecret: base.jwtSecret!, sessionSecret: base.sessionSecret! });
  const logger = createLogger('silent');
  const built = await buildStores(config, { logger, clock: new ManualClock() });
  onTestFinished(() => built.close());
  const stores = adjust(built);
  return { app: createApp({ config, clock: new ManualClock(), logger, stores }), stores, config };
}

export interface SeededMember {
  id: number;
  email: string;
  token: string;
}

/**
 * Workspace records written straight into an instance's database (the first start's work
 * is not run in process): a brand, and members of it with bearer tokens that every instance
 * on the same database and secrets accepts.
 */
export async function seedMembers(on: Instance, roles: Role[]): Promise<{ brandId: number; members: SeededMember[] }> {
  const records = on.stores.records.workspace;
  const notices = new LocalNotices();
  const users = new SqlUserRepository(records, new MemberCache(notices), notices);
  const clock = new ManualClock();
  const auth = new AuthService({
    users,
    sessions: new SqlSessionStore(records, clock, 0),
    clock,
    jwtSecret: on.config.jwtSecret,
    links: new SqlLinkTokens(records),
    mail: new MailQueue({ outbox: workspaceOutbox(records), i18n: createI18n(), now: () => clock.now() }),
  });
  const brand = await new SqlBrandRepository(records, notices).create(`Brand ${Date.now()}`, new Date().toISOString());
  const hash = await (passwordHash ??= hashPassword(MEMBER_PASSWORD));
  const members: SeededMember[] = [];
  for (const [i, role] of roles.entries()) {
    const created = await users.create({
      name: `${role} ${i}`,
      email: `${role}${i}-${Date.now()}@instances.test`,
      passwordHash: hash,
      role,
      mustChangePassword: false,
      brandIds: [brand.id],
      createdAt: new Date().toISOString(),
    });
    if (created === 'email-taken') throw new Error('test email reused');
    members.push({ id: created.id, email: created.email, token: auth.issueToken(created) });
  }
  return { brandId: brand.id, members };
}

/** A request with a bearer token. */
export function bearer(on: Instance, method: 'get' | 'post' | 'patch' | 'delete', route: string, token: string) {
  return request(on.app)[method](route).set('Authorization', `Bearer ${token}`);
}

/** A request as a page sends it: its cookie, and the header that tells the CSRF check it is same-origin. */
export function asPage(on: Instance, method: 'get' | 'post' | 'patch' | 'delete', route: string, cookie: string) {
  return request(on.app)[method](route).set('Cookie', cookie).set('Sec-Fetch-Site', 'same-origin');
}

/** Answers how long `send` took along with what it answered. */
export async function timed<T>(send: () => PromiseLike<T>): Promise<{ res: T; ms: number }> {
  const started = Date.now();
  const res = await send();
  return { res, ms: Date.now() - started };
}
