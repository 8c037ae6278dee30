import { expect, it } from 'vitest';
import { toError } from '../../../src/platform/errors';
import { describeEngines, rowCount } from '../../support/records';
import { SqlSessionStore } from '../../../src/workspace/auth/repository';
import { ManualClock } from '../../../src/platform/clock';
import { NOW, repositories } from './fixtures';

describeEngines('SqlUserRepository', (kind) => {
  it('when a member is created, then every field reads back as written, with brands in id order', async () => {
    const r = await repositories(kind);
    const [b2, b1] = [await r.brand(), await r.brand()];
    const created = await r.users.create({
      name: 'Nour',
      email: 'nour@example.test',
      passwordHash: 'hash',
      role: 'manager',
      mustChangePassword: true,
      brandIds: [b1.id, b2.id, b1.id],
      createdAt: NOW,
    });
    expect(created).toMatchObject({
      name: 'Nour',
      email: 'nour@example.test',
      role: 'manager',
      mustChangePassword: true,
      language: 'en',
      tokenVersion: 0,
      avatar: null,
      profileCompletedAt: null,
      createdAt: NOW,
      brandIds: [b1.id, b2.id].sort((x, y) => x - y),
    });
    expect(await r.users.credentialsByEmail('nour@example.test')).toEqual({ id: (created as { id: number }).id, passwordHash: 'hash', tokenKey: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });

  it('when an email is taken, even in another case, then email-taken and no second member', async () => {
    const r = await repositories(kind);
    await r.member({ email: 'same@example.test' });
    expect(await r.users.create({ name: 'B', email: 'same@example.test', passwordHash: 'h', role: 'contributor', mustChangePassword: false, brandIds: [], createdAt: NOW })).toBe('email-taken');
    expect(await r.users.create({ name: 'C', email: 'SAME@example.test', passwordHash: 'h', role: 'contributor', mustChangePassword: false, brandIds: [], createdAt: NOW })).toBe('email-taken');
    expect(await r.users.count()).toBe(1);
  });

  it('when two members with one email are created at once, then exactly one is stored and the other gets email-taken', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const input = { name: 'Twin', email: 'twin@example.test', passwordHash: 'h', role: 'contributor' as const, mustChangePassword: false, brandIds: [brand.id], createdAt: NOW };
    const results = await Promise.all([r.users.create(input), r.users.create(input)]);
    expect(results.filter((x) => x === 'email-taken')).toHaveLength(1);
    expect(await r.users.count()).toBe(1);
    expect(await rowCount(r.records, 'user_brands')).toBe(1);
  });

  it('when a change takes an email that is taken, then email-taken and none of the change is kept (one transaction)', async () => {
    const r = await repositories(kind);
    const [b1, b2] = [await r.brand(), await r.brand()];
    await r.member({ email: 'taken@example.test' });
    const member = await r.member({ brandIds: [b1.id], name: 'Before' });
    expect(await r.users.update(member.id, { name: 'After', email: 'taken@example.test', brandIds: [b2.id] })).toBe('email-taken');
    expect(await r.users.get(member.id)).toMatchObject({ name: 'Before', brandIds: [b1.id] });
  });

  it('when a member is given a brand that does not exist, then the write fails and no member is left behind', async () => {
    const r = await repositories(kind);
    await expect(r.member({ brandIds: [999_999] })).rejects.toThrow();
    expect(await r.users.count()).toBe(0);
  });

  it('when members are listed, then by name, then id, and by brand when asked', async () => {
    const r = await repositories(kind);
    const [brand, other] = [await r.brand(), await r.brand()];
    const zed = await r.member({ name: 'Zed', brandIds: [brand.id] });
    const amal1 = await r.member({ name: 'Amal', brandIds: [other.id] });
    const amal2 = await r.member({ name: 'Amal', brandIds: [brand.id, other.id] });
    expect((await r.users.list(undefined)).map((m) => m.id)).toEqual([amal1.id, amal2.id, zed.id]);
    expect((await r.users.list([brand.id])).map((m) => m.id)).toEqual([amal2.id, zed.id]);
    expect(await r.users.list([])).toEqual([]);
  });

  it('when the last superadmin would lose the role or be deleted, then refused; with two, one may go', async () => {
    const r = await repositories(kind);
    const root = await r.member({ role: 'superadmin' });
    expect(await r.users.update(root.id, { role: 'manager' })).toBe('last-superadmin');
    expect(await r.users.delete(root.id)).toBe('last-superadmin');
    const second = await r.member({ role: 'superadmin' });
    expect(await r.users.update(second.id, { role: 'manager' })).toMatchObject({ role: 'manager' });
  });

  it('when both of two superadmins are removed at once, then one goes and the other stays', async () => {
    const r = await repositories(kind);
    const [a, b] = [await r.member({ role: 'superadmin' }), await r.member({ role: 'superadmin' })];
    const results = await Promise.all([r.users.delete(a.id), r.users.delete(b.id)]);
    expect(results.sort()).toEqual(['deleted', 'last-superadmin']);
    expect((await r.users.list(undefined)).filter((m) => m.role === 'superadmin')).toHaveLength(1);
  });

  it('when the same member is deleted twice at once, then one deletes them and the other finds nobody', async () => {
    const r = await repositories(kind);
    const member = await r.member();
    const results = await Promise.all([r.users.delete(member.id), r.users.delete(member.id)]);
    expect(results.sort()).toEqual(['deleted', undefined]);
  });

  it('when both of two superadmins are demoted at once, then one keeps the role', async () => {
    const r = await repositories(kind);
    const [a, b] = [await r.member({ role: 'superadmin' }), await r.member({ role: 'superadmin' })];
    const results = await Promise.all([r.users.update(a.id, { role: 'manager' }), r.users.update(b.id, { role: 'manager' })]);
    expect(results.filter((x) => x === 'last-superadmin')).toHaveLength(1);
    expect((await r.users.list(undefined)).filter((m) => m.role === 'superadmin')).toHaveLength(1);
  });

  it('when a member is deleted, then their brands and cookie sessions go and their content stays without an owner', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const member = await r.member({ brandIds: [brand.id] });
    const campaign = await r.campaign(brand.id, { ownerId: member.id });
    const store = new SqlSessionStore(r.records, new ManualClock(), 60_000);
    await new Promise<void>((resolve, reject) => store.set('sid-1', { userId: member.id, userKey: member.tokenKey, cookie: {} } as never, (err) => (err ? reject(toError(err)) : resolve())));
    expect(await r.users.delete(member.id)).toBe('deleted');
    expect(await r.users.get(member.id)).toBeUndefined();
    expect(await rowCount(r.records, 'user_brands')).toBe(0);
    expect(await rowCount(r.records, 'sessions')).toBe(0);
    expect((await r.campaigns.get(campaign.id))?.ownerId).toBeNull();
  });

  it('when a password is set, then the hash changes, the flag follows and the token version goes up by one', async () => {
    const r = await repositories(kind);
    const member = await r.member();
    const after = await r.users.setPassword(member.id, { passwordHash: 'new-hash', mustChangePassword: true });
    expect(after).toMatchObject({ mustChangePassword: true, tokenVersion: member.tokenVersion + 1 });
    expect(await r.users.passwordHash(member.id)).toBe('new-hash');
    await r.users.update(member.id, {}, { passwordHash: 'third', mustChangePassword: false });
    expect(await r.users.get(member.id)).toMatchObject({ mustChangePassword: false, tokenVersion: member.tokenVersion + 2 });
  });

  it('when profile moments are written, then they read back as the same ISO instants', async () => {
    const r = await repositories(kind);
    const member = await r.member();
    // Across a daylight-saving change in Europe and past midnight in the east: none of it may move the instant.
    const moments = { profileCompletedAt: '2026-03-29T01:30:00.123Z', onboardingCompletedAt: '2026-12-31T23:59:59.999Z' };
    expect(await r.users.update(member.id, moments)).toMatchObject(moments);
    expect(await r.users.findByAvatar('/none')).toBeUndefined();
  });
});
