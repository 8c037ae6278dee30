import { systemClock, type Clock } from '../platform/clock';
import type { Logger } from '../platform/logger';
import { LocalNotices } from '../platform/notices';
import { hashPassword } from './members/passwords';
import { SqlBrandRepository } from './brands/repository';
import { MemberCache } from './members/cache';
import { SqlUserRepository } from './members/repository';
import type { WorkspaceRecords } from './records';
import { isoTime } from './shared/values';

export const DEFAULT_ADMIN_NAME = 'Administrator';
export const DEFAULT_BRAND_NAME = 'Default brand';

/**
 * First-start work for application B, run by server.ts before it listens: on an empty
 * users table, the default superadmin (who must change the password at first sign-in)
 * and a default brand it belongs to.
 */
export async function prepareWorkspace(
  records: WorkspaceRecords,
  defaultAdmin: { email: string; password: string },
  logger: Logger,
  clock: Clock = systemClock,
): Promise<void> {
  // Nothing is cached yet, so nobody needs to hear of these writes.
  const notices = new LocalNotices();
  const users = new SqlUserRepository(records, new MemberCache(notices), notices);
  if ((await users.count()) > 0) return;
  const brands = new SqlBrandRepository(records, notices);
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
  if (admin === 'email-taken') {
    // Another instance started at the same moment and won: its brand is the default one.
    if (existing.length === 0) await brands.delete(brand.id);
    return;
  }
  logger.info({ email: defaultAdmin.email }, 'Created the workspace superadmin; its password must be changed at first sign-in');
}
