import { systemClock, type Clock } from '../platform/clock';
import type { Logger } from '../platform/logger';
import type { Db } from '../platform/sqlite';
import { isoTime } from './access';
import { hashPassword } from './members/passwords';
import { SqliteBrandRepository } from './brands/repository';
import { SqliteUserRepository } from './members/repository';

export const DEFAULT_ADMIN_NAME = 'Administrator';
export const DEFAULT_BRAND_NAME = 'Default brand';

/**
 * First-start work for application B, run by server.ts before it listens: on an empty
 * users table, the default superadmin (who must change the password at first sign-in)
 * and a default brand it belongs to.
 */
export async function prepareWorkspace(
  db: Db,
  defaultAdmin: { email: string; password: string },
  logger: Logger,
  clock: Clock = systemClock,
): Promise<void> {
  const users = new SqliteUserRepository(db);
  if ((await users.count()) > 0) return;
  const brands = new SqliteBrandRepository(db);
  const createdAt = isoTime(clock.now());
  const existing = await brands.list(undefined);
  const brand = existing[0] ?? (await brands.create(DEFAULT_BRAND_NAME, createdAt));
  const admin = await users.create({
    name: DEFAULT_ADMIN_NAME,
    email: defaultAdmin.email,
    passwordHash: await hashPassword(defaultAdmin.password),
    role: 'superadmin',
    mustChangePassword: true,
    brandIds: [brand.id],
    createdAt,
  });
  if (admin === 'email-taken') return;
  logger.info({ email: defaultAdmin.email }, 'Created the workspace superadmin; its password must be changed at first sign-in');
}
