import { expect, it } from 'vitest';
import { EVERYTHING, LocalNotices } from '../../src/platform/notices';
import type { EngineKind } from '../../src/platform/db/engine';
import { SqlBrandRepository } from '../../src/workspace/brands/repository';
import { MemberCache } from '../../src/workspace/members/cache';
import { MEMBER_TOPIC } from '../../src/workspace/shared/member';
import { SqlUserRepository } from '../../src/workspace/members/repository';
import { describeEngines, testRecords } from '../support/records';

const NOW = '2026-11-25T10:00:00.000Z';

/** Two instances' repositories over one database, hearing each other's notices as over Redis. */
async function twoInstances(kind: EngineKind) {
  const records = (await testRecords(kind)).workspace;
  const notices = new LocalNotices();
  const instance = () => ({ users: new SqlUserRepository(records, new MemberCache(notices), notices), brands: new SqlBrandRepository(records, notices) });
  return { records, notices, a: instance(), b: instance() };
}

async function member(users: SqlUserRepository, brandIds: number[] = [], role: 'contributor' | 'manager' | 'superadmin' = 'contributor') {
  const created = await users.create({ name: `M ${Math.random()}`, email: `${Math.random()}@example.test`, passwordHash: 'h', role, mustChangePassword: false, brandIds, createdAt: NOW });
  if (created === 'email-taken') throw new Error('email reused');
  return created;
}

// Every signed-in request reads its member, so records are kept once read; these tests prove
// that no change made through any instance is served stale by another.
describeEngines('SqlUserRepository, kept records', (kind) => {
  it('when one instance changes a member, then the other reads the change at once', async () => {
    const { a, b } = await twoInstances(kind);
    const user = await member(a.users);
    expect((await b.users.get(user.id))?.name).toBe(user.name);
    await a.users.update(user.id, { name: 'Renamed', role: 'manager' });
    expect(await b.users.get(user.id)).toMatchObject({ name: 'Renamed', role: 'manager' });
  });

  it('when one instance changes a password, then the other reads the new token version', async () => {
    const { a, b } = await twoInstances(kind);
    const user = await member(a.users);
    await b.users.get(user.id);
    await a.users.setPassword(user.id, { passwordHash: 'new', mustChangePassword: false });
    expect((await b.users.get(user.id))?.tokenVersion).toBe(user.tokenVersion + 1);
    await a.users.bumpTokenVersion(user.id);
    expect((await b.users.get(user.id))?.tokenVersion).toBe(user.tokenVersion + 2);
  });

  it('when a brand is deleted on one instance and the cascade removes the membership, then the other no longer lists the brand', async () => {
    const { a, b } = await twoInstances(kind);
    const [kept, gone] = [await a.brands.create('Kept', NOW), await a.brands.create('Gone', NOW)];
    const user = await member(a.users, [kept.id, gone.id]);
    expect((await b.users.get(user.id))?.brandIds).toEqual([kept.id, gone.id].sort((x, y) => x - y));
    expect(await a.brands.delete(gone.id)).toBe('deleted');
    expect((await b.users.get(user.id))?.brandIds).toEqual([kept.id]);
  });

  it('when a member is deleted on one instance, then the other finds nobody', async () => {
    const { a, b } = await twoInstances(kind);
    await member(a.users, [], 'superadmin');
    const user = await member(a.users);
    await b.users.get(user.id);
    expect(await a.users.delete(user.id)).toBe('deleted');
    expect(await b.users.get(user.id)).toBeUndefined();
  });

  it('when a row changes behind the repositories, then the kept record stays until a notice of everything, which drops it', async () => {
    const { records, notices, b } = await twoInstances(kind);
    const user = await member(b.users);
    await b.users.get(user.id);
    await records.db.updateTable('users').set({ name: 'Behind' }).where('id', '=', user.id).execute();
    expect((await b.users.get(user.id))?.name).toBe(user.name);
    await notices.publish({ topic: EVERYTHING });
    expect((await b.users.get(user.id))?.name).toBe('Behind');
  });

  it('when a notice arrives while a record is being read, then what that read found is not kept', async () => {
    const notices = new LocalNotices();
    const cache = new MemberCache(notices);
    const stale = { id: 1, name: 'Stale' } as never;
    const fresh = { id: 1, name: 'Fresh' } as never;
    await cache.read(1, async () => {
      await notices.publish({ topic: MEMBER_TOPIC, id: 1 });
      return stale;
    });
    expect(await cache.read(1, async () => fresh)).toBe(fresh);
  });

  it('when two demotions of the last two superadmins run at once, then one is refused and a superadmin remains', async () => {
    const { a, b } = await twoInstances(kind);
    const [first, second] = [await member(a.users, [], 'superadmin'), await member(a.users, [], 'superadmin')];
    const results = await Promise.all([a.users.update(first.id, { role: 'manager' }), b.users.update(second.id, { role: 'manager' })]);
    expect(results.filter((r) => r === 'last-superadmin')).toHaveLength(1);
    expect((await a.users.list(undefined)).filter((u) => u.role === 'superadmin')).toHaveLength(1);
  });

  it('when two members are created with one email at once, then one gets email-taken', async () => {
    const { a, b } = await twoInstances(kind);
    const input = { name: 'Twin', email: 'twin@example.test', passwordHash: 'h', role: 'contributor' as const, mustChangePassword: false, brandIds: [], createdAt: NOW };
    const results = await Promise.all([a.users.create(input), b.users.create(input)]);
    expect(results.filter((r) => r === 'email-taken')).toHaveLength(1);
  });

  it('when a caller tries to change a record it was given, then that throws and the next reader is unaffected', async () => {
    const { a } = await twoInstances(kind);
    const brand = await a.brands.create('Mine', NOW);
    const user = await member(a.users, [brand.id], 'manager');
    const read = (await a.users.get(user.id))!;
    expect(() => {
      (read as { role: string }).role = 'superadmin';
    }).toThrow(TypeError);
    expect(() => read.brandIds.push(999)).toThrow(TypeError);
    const again = (await a.users.get(user.id))!;
    expect(again.role).toBe('manager');
    expect(again.brandIds).toEqual([brand.id]);
  });
});
