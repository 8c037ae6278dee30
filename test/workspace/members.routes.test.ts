import { request } from '../support/http';
import { describe, expect, it } from 'vitest';
import { buildWorkspace, PASSWORD, snapshot } from '../support/workspace';

const NEW_PASSWORD = 'Welcome-team-2026';

describe('GET /api/members', () => {
  it('when a superadmin asks, then every user is listed, without any password hash', async () => {
    const ws = await buildWorkspace();
    const [a, b] = [await ws.brand(), await ws.brand()];
    const admin = await ws.user('superadmin');
    const m = await ws.user('manager', { brandIds: [a.id] });
    const c = await ws.user('contributor', { brandIds: [b.id] });
    const loner = await ws.user('contributor');
    const res = await ws.as(admin).get('/api/members');
    expect(res.status).toBe(200);
    expect(res.body.members.map((u: { id: number }) => u.id).sort()).toEqual([admin.id, m.id, c.id, loner.id].sort());
    expect(JSON.stringify(res.body)).not.toMatch(/hash|\$2b\$|tokenVersion/i);
  });

  it.each(['manager', 'contributor'] as const)('when a %s asks, then only members sharing a brand (and oneself) are listed', async (role) => {
    const ws = await buildWorkspace();
    const [a, b] = [await ws.brand(), await ws.brand()];
    const me = await ws.user(role, { brandIds: [a.id] });
    const teammate = await ws.user('contributor', { brandIds: [a.id, b.id] });
    await ws.user('manager', { brandIds: [b.id] });
    await ws.user('superadmin');
    const res = await ws.as(me).get('/api/members');
    expect(res.status).toBe(200);
    expect(res.body.members.map((u: { id: number }) => u.id).sort()).toEqual([me.id, teammate.id].sort());
  });

  it('when not signed in, then 401', async () => {
    const ws = await buildWorkspace();
    expect((await request(ws.app).get('/api/members')).status).toBe(401);
  });
});

describe('POST /api/members', () => {
  it('when a superadmin adds a manager, then 201 {member} and the new member must change the password at first sign-in', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const admin = await ws.user('superadmin', { brandIds: [brand.id] });
    const res = await ws.as(admin).post('/api/members').send({ name: 'Huda', email: 'Huda@Museum.test', password: NEW_PASSWORD, role: 'manager', brandIds: [brand.id] });
    expect(res.status).toBe(201);
    expect(res.body.member).toMatchObject({ name: 'Huda', email: 'huda@museum.test', role: 'manager', brandIds: [brand.id], mustChangePassword: true });
    expect(JSON.stringify(res.body)).not.toMatch(/hash|Welcome-team/i);

    const login = await ws.signIn('huda@museum.test', NEW_PASSWORD);
    expect(login.res.status).toBe(200);
    expect(login.res.body.user.mustChangePassword).toBe(true);
    expect((await ws.as(login.token).get('/api/campaigns')).body.code).toBe('PASSWORD_CHANGE_REQUIRED');
  });

  it('when a superadmin adds another superadmin, then 201', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    const res = await ws.as(admin).post('/api/members').send({ name: 'Second', email: 'second@museum.test', password: NEW_PASSWORD, role: 'superadmin', brandIds: [] });
    expect(res.status).toBe(201);
    expect(res.body.member.role).toBe('superadmin');
  });

  it('when the email is already used in another case, then 409 EMAIL_TAKEN and nothing is stored', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin', { email: 'taken@museum.test' });
    const before = await snapshot(ws);
    const res = await ws.as(admin).post('/api/members').send({ name: 'Copy', email: 'TAKEN@museum.test', password: NEW_PASSWORD, role: 'contributor' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: expect.any(String), code: 'EMAIL_TAKEN' });
    expect(await snapshot(ws)).toBe(before);
  });

  it("when a manager adds a contributor without brands, then it gets the manager's brands", async () => {
    const ws = await buildWorkspace();
    const [a, b] = [await ws.brand(), await ws.brand()];
    const manager = await ws.user('manager', { brandIds: [a.id, b.id] });
    const res = await ws.as(manager).post('/api/members').send({ name: 'New', email: 'new@museum.test', password: NEW_PASSWORD, role: 'contributor' });
    expect(res.status).toBe(201);
    expect(res.body.member).toMatchObject({ role: 'contributor', brandIds: [a.id, b.id], mustChangePassword: true });
  });

  it.each(['manager', 'superadmin'] as const)('when a manager adds a %s, then 403', async (role) => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const manager = await ws.user('manager', { brandIds: [brand.id] });
    const before = await snapshot(ws);
    const res = await ws.as(manager).post('/api/members').send({ name: 'X', email: 'x@museum.test', password: NEW_PASSWORD, role });
    expect(res.status).toBe(403);
    expect(await snapshot(ws)).toBe(before);
  });

  it("when a manager adds a contributor to a brand that is not the manager's, then 403", async () => {
    const ws = await buildWorkspace();
    const [mine, other] = [await ws.brand(), await ws.brand()];
    const manager = await ws.user('manager', { brandIds: [mine.id] });
    const res = await ws.as(manager).post('/api/members').send({ name: 'X', email: 'x@museum.test', password: NEW_PASSWORD, role: 'contributor', brandIds: [mine.id, other.id] });
    expect(res.status).toBe(403);
  });

  it('when a manager without brands adds a contributor, then 400 BRAND_REQUIRED', async () => {
    const ws = await buildWorkspace();
    const manager = await ws.user('manager');
    const res = await ws.as(manager).post('/api/members').send({ name: 'X', email: 'x@museum.test', password: NEW_PASSWORD, role: 'contributor' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('BRAND_REQUIRED');
  });

  it('when a contributor adds anyone, then 403', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const contributor = await ws.user('contributor', { brandIds: [brand.id] });
    const res = await ws.as(contributor).post('/api/members').send({ name: 'X', email: 'x@museum.test', password: NEW_PASSWORD, role: 'contributor' });
    expect(res.status).toBe(403);
  });

  it('when a brand does not exist, then 404 and nothing is stored', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    const before = await snapshot(ws);
    const res = await ws.as(admin).post('/api/members').send({ name: 'X', email: 'x@museum.test', password: NEW_PASSWORD, role: 'contributor', brandIds: [999] });
    expect(res.status).toBe(404);
    expect(await snapshot(ws)).toBe(before);
  });

  it.each([
    ['a short password', { password: 'short' }],
    ['a malformed email', { email: 'not-an-email' }],
    ['an unknown role', { role: 'owner' }],
    ['an unknown field', { team: 'blue' }],
    ['a name of 201 characters', { name: 'n'.repeat(201) }],
    ['brand ids that are not integers', { brandIds: ['1'] }],
  ])('when the body has %s, then 400', async (_label, change) => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    const res = await ws.as(admin).post('/api/members').send({ name: 'X', email: 'x@museum.test', password: NEW_PASSWORD, role: 'contributor', ...change });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });
});

describe('PATCH /api/members/:id', () => {
  it('when a superadmin changes name, email, role and brands, then 200 {member}', async () => {
    const ws = await buildWorkspace();
    const [a, b] = [await ws.brand(), await ws.brand()];
    const admin = await ws.user('superadmin');
    const member = await ws.user('contributor', { brandIds: [a.id] });
    const res = await ws.as(admin).patch(`/api/members/${member.id}`).send({ name: 'Renamed', email: 'Renamed@Museum.test', role: 'manager', brandIds: [b.id] });
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ id: member.id, name: 'Renamed', email: 'renamed@museum.test', role: 'manager', brandIds: [b.id] });
    expect((await ws.as(member).get('/api/auth/me')).body.user.role).toBe('manager');
  });

  it('when the new email belongs to someone else, then 409 EMAIL_TAKEN', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin', { email: 'boss@museum.test' });
    const member = await ws.user('contributor');
    const res = await ws.as(admin).patch(`/api/members/${member.id}`).send({ email: 'BOSS@museum.test' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('EMAIL_TAKEN');
  });

  it('when the last superadmin would be demoted, then 409 LAST_SUPERADMIN; with a second one, it works', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    const refused = await ws.as(admin).patch(`/api/members/${admin.id}`).send({ role: 'manager' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('LAST_SUPERADMIN');
    await ws.user('superadmin');
    expect((await ws.as(admin).patch(`/api/members/${admin.id}`).send({ role: 'manager' })).status).toBe(200);
  });

  it('when a superadmin resets the password, then the member is signed out everywhere and must change it', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    const member = await ws.user('contributor');
    const { cookie } = await ws.signIn(member.email);
    const res = await ws.as(admin).patch(`/api/members/${member.id}`).send({ password: NEW_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.member.mustChangePassword).toBe(true);
    expect((await ws.as(member).get('/api/auth/me')).status).toBe(401);
    expect((await ws.withCookie(cookie).get('/api/auth/me')).status).toBe(401);
    expect((await ws.signIn(member.email, NEW_PASSWORD)).res.body.user.mustChangePassword).toBe(true);
  });

  it.each(['manager', 'contributor'] as const)('when a %s changes a member, then 403', async (role) => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const actor = await ws.user(role, { brandIds: [brand.id] });
    const member = await ws.user('contributor', { brandIds: [brand.id] });
    const res = await ws.as(actor).patch(`/api/members/${member.id}`).send({ name: 'X' });
    expect(res.status).toBe(403);
  });

  it('when the member does not exist, then 404; when the body is empty, then 400', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    expect((await ws.as(admin).patch('/api/members/999').send({ name: 'X' })).status).toBe(404);
    expect((await ws.as(admin).patch(`/api/members/${admin.id}`).send({})).status).toBe(400);
  });
});

describe('DELETE /api/members/:id', () => {
  it.each(['superadmin', 'manager', 'contributor'] as const)('when a %s deletes their own account, then 400 CANNOT_DELETE_SELF', async (role) => {
    const ws = await buildWorkspace();
    const me = await ws.user(role);
    await ws.user('superadmin');
    const res = await ws.as(me).delete(`/api/members/${me.id}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('CANNOT_DELETE_SELF');
  });

  it("when a superadmin deletes a member, then {ok:true} and the member's campaigns and posts stay with no owner", async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const admin = await ws.user('superadmin');
    const member = await ws.user('manager', { brandIds: [brand.id] });
    const campaign = await ws.as(member).post('/api/campaigns').send({ name: 'Spring', brandId: brand.id });
    const post = await ws.as(member).post('/api/posts').send({ title: 'Hello', campaignId: campaign.body.campaign.id });
    expect(post.status).toBe(201);

    const res = await ws.as(admin).delete(`/api/members/${member.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await ws.as(admin).get(`/api/campaigns/${campaign.body.campaign.id}`)).body.campaign.ownerId).toBeNull();
    expect((await ws.as(admin).get(`/api/posts/${post.body.post.id}`)).body.post.ownerId).toBeNull();
    expect((await ws.signIn(member.email)).res.status).toBe(401);
  });

  it('when a superadmin deletes another superadmin, then it works, and the one left cannot be removed', async () => {
    const ws = await buildWorkspace();
    const a = await ws.user('superadmin');
    const b = await ws.user('superadmin');
    expect((await ws.as(a).delete(`/api/members/${b.id}`)).status).toBe(200);
    expect(await ws.members.delete(a.id)).toBe('last-superadmin');
    expect((await ws.as(a).get('/api/auth/me')).status).toBe(200);
  });

  it.each(['manager', 'contributor'] as const)('when a %s deletes a member, then 403', async (role) => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const actor = await ws.user(role, { brandIds: [brand.id] });
    const member = await ws.user('contributor', { brandIds: [brand.id] });
    expect((await ws.as(actor).delete(`/api/members/${member.id}`)).status).toBe(403);
    expect((await ws.as(member).get('/api/auth/me')).status).toBe(200);
  });

  it('when the member does not exist, then 404; when the id is not a number, then 400', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    expect((await ws.as(admin).delete('/api/members/999')).status).toBe(404);
    expect((await ws.as(admin).delete('/api/members/abc')).status).toBe(400);
  });
});

describe('a member added by a manager', () => {
  it('when the new member signs in, then only the password given at creation works', async () => {
    const ws = await buildWorkspace();
    const brand = await ws.brand();
    const manager = await ws.user('manager', { brandIds: [brand.id] });
    await ws.as(manager).post('/api/members').send({ name: 'Omar', email: 'omar@museum.test', password: NEW_PASSWORD, role: 'contributor' });
    expect((await ws.signIn('omar@museum.test', PASSWORD)).res.status).toBe(401);
    expect((await ws.signIn('omar@museum.test', NEW_PASSWORD)).res.status).toBe(200);
  });
});
