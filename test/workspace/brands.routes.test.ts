import { request } from '../support/http';
import { describe, expect, it } from 'vitest';
import { buildWorkspace, snapshot } from '../support/workspace';

describe('GET /api/brands', () => {
  it('when a superadmin asks, then every brand is listed', async () => {
    const ws = await buildWorkspace();
    const [a, b] = [await ws.brand('Alpha'), await ws.brand('Beta')];
    const admin = await ws.user('superadmin');
    const res = await ws.as(admin).get('/api/brands');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ brands: [a, b] });
  });

  it.each(['manager', 'contributor'] as const)('when a %s asks, then only their own brands are listed', async (role) => {
    const ws = await buildWorkspace();
    const [a] = [await ws.brand('Alpha'), await ws.brand('Beta')];
    const user = await ws.user(role, { brandIds: [a.id] });
    const res = await ws.as(user).get('/api/brands');
    expect(res.body).toEqual({ brands: [a] });
  });

  it("when a non-superadmin reads another brand by id, then 404 like a missing one", async () => {
    const ws = await buildWorkspace();
    const [mine, other] = [await ws.brand(), await ws.brand()];
    const user = await ws.user('manager', { brandIds: [mine.id] });
    expect((await ws.as(user).get(`/api/brands/${mine.id}`)).body).toEqual({ brand: mine });
    const hidden = await ws.as(user).get(`/api/brands/${other.id}`);
    const missing = await ws.as(user).get('/api/brands/999');
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(missing.body);
  });

  it('when not signed in, then 401', async () => {
    const ws = await buildWorkspace();
    expect((await request(ws.app).get('/api/brands')).status).toBe(401);
  });
});

describe('POST /api/brands', () => {
  it('when a superadmin creates a brand, then 201 {brand}', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    const res = await ws.as(admin).post('/api/brands').send({ name: '  Louvre Abu Dhabi ' });
    expect(res.status).toBe(201);
    expect(res.body.brand).toEqual({ id: expect.any(Number), name: 'Louvre Abu Dhabi', createdAt: expect.any(String) });
  });

  it.each(['manager', 'contributor'] as const)('when a %s creates a brand, then 403 and nothing is stored', async (role) => {
    const ws = await buildWorkspace();
    const user = await ws.user(role);
    const before = await snapshot(ws);
    const res = await ws.as(user).post('/api/brands').send({ name: 'Mine' });
    expect(res.status).toBe(403);
    expect(await snapshot(ws)).toBe(before);
  });

  it.each([
    ['no name', {}],
    ['an empty name', { name: '   ' }],
    ['a name of 201 characters', { name: 'b'.repeat(201) }],
    ['an unknown field', { name: 'X', color: 'red' }],
  ])('when the body has %s, then 400', async (_label, body) => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    const res = await ws.as(admin).post('/api/brands').send(body);
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });
});

describe('PATCH /api/brands/:id', () => {
  it('when a superadmin renames a brand, then 200 {brand}', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand('Old');
    const admin = await ws.user('superadmin');
    const res = await ws.as(admin).patch(`/api/brands/${brand.id}`).send({ name: 'New' });
    expect(res.status).toBe(200);
    expect(res.body.brand).toMatchObject({ id: brand.id, name: 'New' });
  });

  it('when a manager renames their own brand, then 403', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand('Old');
    const manager = await ws.user('manager', { brandIds: [brand.id] });
    expect((await ws.as(manager).patch(`/api/brands/${brand.id}`).send({ name: 'New' })).status).toBe(403);
  });

  it('when the brand does not exist, then 404', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    expect((await ws.as(admin).patch('/api/brands/999').send({ name: 'New' })).status).toBe(404);
  });
});

describe('DELETE /api/brands/:id', () => {
  it('when the brand is empty, then {ok:true} and its members lose it', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const admin = await ws.user('superadmin');
    const member = await ws.user('contributor', { brandIds: [brand.id] });
    const res = await ws.as(admin).delete(`/api/brands/${brand.id}`);
    expect(res.body).toEqual({ ok: true });
    expect((await ws.as(member).get('/api/auth/me')).body.user.brandIds).toEqual([]);
  });

  it('when the brand still has campaigns or posts, then 409 BRAND_IN_USE and it stays', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const admin = await ws.user('superadmin');
    await ws.as(admin).post('/api/posts').send({ title: 'Kept', brandId: brand.id });
    const res = await ws.as(admin).delete(`/api/brands/${brand.id}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('BRAND_IN_USE');
    expect((await ws.as(admin).get(`/api/brands/${brand.id}`)).status).toBe(200);
  });

  it.each(['manager', 'contributor'] as const)('when a %s deletes a brand, then 403', async (role) => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const user = await ws.user(role, { brandIds: [brand.id] });
    expect((await ws.as(user).delete(`/api/brands/${brand.id}`)).status).toBe(403);
  });

  it('when the brand does not exist, then 404', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    expect((await ws.as(admin).delete('/api/brands/999')).status).toBe(404);
  });
});
