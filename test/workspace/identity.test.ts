import jwt from 'jsonwebtoken';
import { request } from '../support/http';
import { describe, expect, it } from 'vitest';
import { buildWorkspace, PASSWORD, type TestWorkspace } from '../support/workspace';

const NEW_PASSWORD = 'Another-Horse-77';

/** A member created by `creator` through the API, signed in, past the forced password change. */
async function memberThroughApi(ws: TestWorkspace, creatorToken: string, email: string, brandId: number) {
  const created = await ws
    .as(creatorToken)
    .post('/api/members')
    .send({ name: email, email, password: PASSWORD, role: 'superadmin', brandIds: [brandId] });
  expect(created.status).toBe(201);
  const first = await ws.signIn(email);
  const changed = await ws
    .as(first.token)
    .post('/api/auth/password')
    .send({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
  expect(changed.status).toBe(200);
  const cookie = (await ws.signIn(email, NEW_PASSWORD)).cookie;
  return { id: created.body.member.id as number, token: changed.body.token as string, cookie };
}

describe('tokens and cookie sessions of deleted members', () => {
  it('when a member is deleted and another is created, then the newcomer gets a new id and the old token stays dead', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const root = await ws.user('superadmin', { brandIds: [brand.id] });
    const gone = await memberThroughApi(ws, root.token, 'gone@example.test', brand.id);
    expect(jwt.decode(gone.token)).toMatchObject({ sub: String(gone.id), ver: 1 });

    expect((await ws.as(root).delete(`/api/members/${gone.id}`)).status).toBe(200);
    expect((await ws.as(gone.token).get('/api/auth/me')).status).toBe(401);

    const next = await memberThroughApi(ws, root.token, 'next@example.test', brand.id);
    expect(next.id).toBeGreaterThan(gone.id);
    expect((await ws.as(gone.token).get('/api/auth/me')).status).toBe(401);
    expect((await ws.as(gone.token).post('/api/brands').send({ name: 'Hijacked' })).status).toBe(401);
    expect((await ws.withCookie(gone.cookie).get('/api/auth/me')).status).toBe(401);
    expect((await ws.as(next.token).get('/api/auth/me')).body.user.email).toBe('next@example.test');
  });

  it('when a row comes to hold a deleted member\'s id, then that member\'s token and cookie still do not speak for it', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const root = await ws.user('superadmin', { brandIds: [brand.id] });
    const gone = await memberThroughApi(ws, root.token, 'gone@example.test', brand.id);
    expect((await ws.as(root).delete(`/api/members/${gone.id}`)).status).toBe(200);
    // An id can come back by other roads than a new member (a restored backup, a hand-made row):
    // the token key still tells the two apart.
    await ws.stores.records.workspace.db
      .insertInto('users')
      .values({ id: gone.id, name: 'Later', email: 'later@example.test', password_hash: 'x', role: 'superadmin', token_version: 1, created_at: '2026-01-01T00:00:00.000Z', token_key: 'another-key' })
      .execute();
    expect((await ws.as(gone.token).get('/api/auth/me')).status).toBe(401);
    expect((await ws.withCookie(gone.cookie).get('/api/auth/me')).status).toBe(401);
  });

  it('when a token names the right id and version but not the member\'s key, or no key at all, then 401', async () => {
    const ws = await buildWorkspace();
    const user = await ws.user('manager');
    const iat = Math.floor(ws.clock.now() / 1000);
    const sign = (claims: object) => jwt.sign({ sub: String(user.id), role: 'manager', ver: 0, iat, ...claims }, ws.config.jwtSecret, { algorithm: 'HS256', expiresIn: 3600 });
    expect((await ws.as(sign({ key: user.record.tokenKey })).get('/api/auth/me')).status).toBe(200);
    expect((await ws.as(sign({ key: 'f'.repeat(32) })).get('/api/auth/me')).status).toBe(401);
    expect((await ws.as(sign({})).get('/api/auth/me')).status).toBe(401);
  });

  it('when members are listed or read, then no token key appears in any answer', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const root = await ws.user('superadmin', { brandIds: [brand.id] });
    const member = await ws.user('contributor', { brandIds: [brand.id] });
    const signIn = await request(ws.app).post('/api/auth/login').send({ email: member.email, password: PASSWORD });
    for (const res of [await ws.as(root).get('/api/members'), await ws.as(member).get('/api/auth/me'), signIn]) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(member.record.tokenKey);
      expect(res.text).not.toContain(root.record.tokenKey);
    }
  });

  it('when two members are created, then their token keys differ and are 32 hex digits', async () => {
    const ws = await buildWorkspace();
    const [a, b] = [await ws.user('contributor'), await ws.user('contributor')];
    expect(a.record.tokenKey).toMatch(/^[0-9a-f]{32}$/);
    expect(a.record.tokenKey).not.toBe(b.record.tokenKey);
  });
});
