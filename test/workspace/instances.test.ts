import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createLogger } from '../../src/platform/logger';
import { request } from '../support/http';
import { buildWorkspace, PASSWORD, type TestUser, type TestWorkspace } from '../support/workspace';

/**
 * A second instance: its own app, caches and services over the same database and the same
 * notices, as two servers behind one address share PostgreSQL and Redis.
 */
function secondInstance(ws: TestWorkspace) {
  const app = createApp({ config: ws.config, clock: ws.clock, logger: createLogger('silent'), stores: ws.stores });
  return { me: (user: TestUser | string) => request(app).get('/api/auth/me').set('Authorization', `Bearer ${typeof user === 'string' ? user : user.token}`) };
}

async function twoInstances() {
  const ws = await buildWorkspace();
  const [brand, other] = [await ws.brand(), await ws.brand()];
  const admin = await ws.user('superadmin');
  const member = await ws.user('contributor', { brandIds: [brand.id, other.id] });
  const b = secondInstance(ws);
  // The second instance has read, and keeps, the member's record before anything changes.
  expect((await b.me(member)).body.user).toMatchObject({ role: 'contributor' });
  return { ws, brand, other, admin, member, b };
}

describe('several instances over one database', () => {
  it("when a member's role and brands change through one instance, then the other answers with the change", async () => {
    const { ws, brand, admin, member, b } = await twoInstances();
    expect((await ws.as(admin).patch(`/api/members/${member.id}`).send({ role: 'manager', brandIds: [brand.id] })).status).toBe(200);
    expect((await b.me(member)).body.user).toMatchObject({ role: 'manager', brandIds: [brand.id] });
  });

  it("when a brand is deleted through one instance, then the other no longer counts it among the member's brands", async () => {
    const { ws, brand, other, admin, member, b } = await twoInstances();
    expect((await ws.as(admin).delete(`/api/brands/${other.id}`)).status).toBe(200);
    expect((await b.me(member)).body.user.brandIds).toEqual([brand.id]);
  });

  it('when a member is deleted through one instance, then the other refuses their token', async () => {
    const { ws, admin, member, b } = await twoInstances();
    expect((await ws.as(admin).delete(`/api/members/${member.id}`)).status).toBe(200);
    expect((await b.me(member)).status).toBe(401);
  });

  it('when a password is changed or the member signs out through one instance, then the other refuses the older tokens', async () => {
    const { ws, member, b } = await twoInstances();
    const changed = await ws.as(member).post('/api/auth/password').send({ currentPassword: PASSWORD, newPassword: 'Another-horse-10' });
    expect(changed.status).toBe(200);
    expect((await b.me(member)).status).toBe(401);
    expect((await b.me(changed.body.token as string)).status).toBe(200);
    expect((await ws.as(changed.body.token as string).post('/api/auth/logout')).status).toBe(200);
    expect((await b.me(changed.body.token as string)).status).toBe(401);
  });

  it('when a profile is changed through one instance, then the other shows it', async () => {
    const { ws, member, b } = await twoInstances();
    expect((await ws.as(member).patch('/api/auth/me').send({ name: 'New name', language: 'ar' })).status).toBe(200);
    expect((await b.me(member)).body.user).toMatchObject({ name: 'New name', language: 'ar' });
  });
});
