import { describe, expect, it } from 'vitest';
import { digestOf } from '../../src/workspace/auth/links';
import { loggedUrl } from '../../src/platform/logger';
import { RESENDS_PER_MEMBER } from '../../src/workspace/members/routes';
import { cookieFrom } from '../support/app';
import { request } from '../support/http';
import { captureLogs } from '../support/logs';
import { linkIn, mailFor, type TestMail } from '../support/mail';
import type { Received } from '../support/smtp';
import { buildTeam, buildWorkspace, snapshot, type TestUser, type TestWorkspace } from '../support/workspace';

const OWN_PASSWORD = 'Lantern-Harbour-42';
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

const invite = (ws: TestWorkspace, actor: TestUser, body: Record<string, unknown> = {}) =>
  ws.as(actor).post('/api/members').send({ name: 'Nadia Saleh', email: 'nadia@museum.test', role: 'contributor', ...body });

const accept = (ws: TestWorkspace, token: string, password = OWN_PASSWORD) => request(ws.app).post('/api/auth/invitations/accept').send({ token, password });

const linkOf = (ws: TestWorkspace, mail: Received) => linkIn(mail, `${ws.config.mail.publicUrl}/invite/`);

/** The token of an invitation link: the last step of its path. */
const tokenOf = (link: string) => new URL(link).pathname.split('/').pop()!;

/** `user` with a token issued now: one from before the clock moved a week has expired. */
const renewed = (ws: TestWorkspace, user: TestUser): TestUser => ({ ...user, token: ws.auth.issueToken(user.record) });

/** The team, a test SMTP server, and Salma, a superadmin with a name the mail can show. */
async function setup() {
  const team = await buildTeam();
  const mail = await mailFor(team.ws);
  const salma = await team.ws.user('superadmin', { name: 'Salma Haddad', email: 'salma@museum.test', brandIds: [team.brand.id] });
  return { ...team, mail, salma };
}

/** Invites Nadia as `actor` and answers her member id and the token of the link she was mailed. */
async function invited(ws: TestWorkspace, mail: TestMail, actor: TestUser, body: Record<string, unknown> = {}) {
  const res = await invite(ws, actor, body);
  expect(res.status).toBe(201);
  const [sent, ...more] = await mail.deliver();
  expect(more).toEqual([]);
  return { id: res.body.member.id as number, token: tokenOf(linkOf(ws, sent)), sent };
}

describe('POST /api/members without a password (an invitation)', () => {
  it('when a superadmin invites, then 201 with the invitation, and one mail in the inviter\'s language names who invited them, their brand and role, and links /invite/<token> kept only as a digest', async () => {
    const { ws, mail, salma, brand, other } = await setup();
    const res = await invite(ws, salma, { brandIds: [brand.id] });
    expect(res.status).toBe(201);
    const now = ws.clock.now();
    expect(res.body.member).toMatchObject({
      name: 'Nadia Saleh',
      email: 'nadia@museum.test',
      role: 'contributor',
      brandIds: [brand.id],
      mustChangePassword: false,
      language: 'en',
      invitation: { sentAt: new Date(now).toISOString(), expiresAt: new Date(now + WEEK_MS).toISOString(), expired: false, can: { resend: true, revoke: true } },
    });
    // The row is written with the member; its link is made only when the mail is.
    const [row] = await ws.stores.records.workspace.db.selectFrom('mail_outbox').selectAll().execute();
    expect([row.kind, row.to_address, row.user_id, row.subject]).toEqual(['invitation', 'nadia@museum.test', res.body.member.id, 'You are invited to Museum Workspace']);
    expect(await ws.stores.records.workspace.db.selectFrom('link_tokens').selectAll().execute()).toEqual([]);

    const [sent, ...more] = await mail.deliver();
    expect(more).toEqual([]);
    expect(sent.to).toEqual(['nadia@museum.test']);
    expect(sent.parsed.subject).toBe('You are invited to Museum Workspace');
    const text = sent.parsed.text ?? '';
    expect(text).toContain('\u2068Salma Haddad\u2069 invited you to join Museum Workspace with the role Contributor.');
    expect(text).toContain('You will work on the brand \u2068Mine\u2069.');
    expect(text).not.toContain(other.name);
    expect(text).toContain('The link works once, until');
    const link = linkOf(ws, sent);
    expect(sent.parsed.html).toContain(link);
    const token = tokenOf(link);
    const stored = await ws.stores.records.workspace.db.selectFrom('link_tokens').selectAll().execute();
    expect(stored.map((r) => [r.purpose, r.token_hash, r.expires_at])).toEqual([['invitation', digestOf(token), new Date(now + WEEK_MS).toISOString()]]);
    expect(await snapshot(ws)).not.toContain(token);
    expect(JSON.stringify(res.body)).not.toMatch(/token|hash/i);
  });

  it('when the invited member tries to sign in before accepting, then 401 like any wrong password: there is no password to use', async () => {
    const { ws, mail, salma } = await setup();
    await invited(ws, mail, salma);
    for (const password of ['Correct-Horse-9', OWN_PASSWORD]) {
      const res = await request(ws.app).post('/api/auth/login').send({ email: 'nadia@museum.test', password });
      expect(res.status).toBe(401);
    }
  });

  it('when the inviter reads Arabic, then the member\'s language is Arabic and the mail is in Arabic, right to left; a language given wins', async () => {
    const { ws, mail, salma } = await setup();
    await ws.members.update(salma.id, { language: 'ar' });
    const { sent } = await invited(ws, mail, salma);
    expect(sent.parsed.subject).toBe('دعوة إلى مساحة عمل المتحف');
    expect(sent.parsed.html).toContain('<html lang="ar" dir="rtl">');
    expect(sent.parsed.text).toContain('\u2068nadia@museum.test\u2069');
    const english = await invite(ws, salma, { email: 'omar@museum.test', language: 'en' });
    expect(english.body.member.language).toBe('en');
    expect((await mail.deliver())[0].parsed.subject).toBe('You are invited to Museum Workspace');
  });

  it('when a member belongs to several brands, then the mail lists every one of them and no other', async () => {
    const { ws, mail, salma, brand, other } = await setup();
    const third = await ws.brand('Harbour Gallery');
    const { sent } = await invited(ws, mail, salma, { brandIds: [brand.id, third.id] });
    expect(sent.parsed.text).toContain('You will work on the brands \u2068Harbour Gallery\u2069 and \u2068Mine\u2069.');
    expect(sent.parsed.text).not.toContain(other.name);
  });

  it('when a manager invites a contributor to their own brand, then 201 and the mail goes', async () => {
    const { ws, mail, manager, brand } = await setup();
    const res = await invite(ws, manager);
    expect(res.status).toBe(201);
    expect(res.body.member).toMatchObject({ brandIds: [brand.id], invitation: { can: { resend: true, revoke: true } } });
    expect((await mail.deliver()).map((m) => m.to)).toEqual([['nadia@museum.test']]);
  });

  it.each([
    ['a manager invites a manager', 'manager', { role: 'manager' }, 403],
    ['a manager invites into a brand not theirs', 'manager', { brandIdsOf: 'other' }, 403],
    ['a contributor invites', 'contributor', {}, 403],
    ['the email is taken in another case', 'admin', { email: 'SALMA@museum.test' }, 409],
    ['the brand does not exist', 'admin', { brandIds: [999_999] }, 404],
    ['the language is not one of the workspace\'s', 'admin', { language: 'fr' }, 400],
    ['the password is given but short', 'admin', { password: 'short' }, 400],
  ] as const)('when %s, then %i, and neither a member nor a mail is stored', async (_label, who, change, status) => {
    const team = await setup();
    const { ws, mail } = team;
    const { brandIdsOf, ...body } = change as { brandIdsOf?: 'other' } & Record<string, unknown>;
    const before = await snapshot(ws);
    const res = await invite(ws, team[who], { ...body, ...(brandIdsOf ? { brandIds: [team.other.id] } : {}) });
    expect(res.status).toBe(status);
    expect(await snapshot(ws)).toBe(before);
    expect(await mail.deliver()).toEqual([]);
  });

  it('when nobody is signed in, then 401 and nothing is stored', async () => {
    const { ws } = await setup();
    const before = await snapshot(ws);
    expect((await request(ws.app).post('/api/members').send({ name: 'X', email: 'x@museum.test', role: 'contributor' })).status).toBe(401);
    expect(await snapshot(ws)).toBe(before);
  });

  it('when a member is created with a password, then it works as before: no invitation, no mail, a password to change at first sign-in', async () => {
    const { ws, mail, salma } = await setup();
    const res = await invite(ws, salma, { password: 'Given-Password-1' });
    expect(res.status).toBe(201);
    expect(res.body.member).toMatchObject({ mustChangePassword: true, invitation: null });
    expect(await mail.deliver()).toEqual([]);
    expect((await ws.signIn('nadia@museum.test', 'Given-Password-1')).res.body.user.mustChangePassword).toBe(true);
  });
});

describe('GET /invite/:token and POST /api/auth/invitations/accept', () => {
  it('when the link is opened and a password chosen, then 200 {token, user}, a cookie session like a sign-in, the invitation ends, and the link is dead', async () => {
    const { ws, mail, salma } = await setup();
    const { id, token } = await invited(ws, mail, salma);
    const page = await request(ws.app).get(`/invite/${token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('ws-new-password-form');
    expect(page.text).toContain('data-endpoint="/api/auth/invitations/accept"');
    expect(page.text).toContain('value="nadia@museum.test"');

    const res = await accept(ws, token);
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id, email: 'nadia@museum.test', mustChangePassword: false, profileCompleted: false, onboardingCompleted: false });
    expect(Object.keys(res.body).sort()).toEqual(['token', 'user']);
    const cookie = `workspace_session=${cookieFrom(res, 'workspace_session')}`;
    expect((await ws.withCookie(cookie).get('/api/auth/me')).body.user.id).toBe(id);
    expect((await ws.as(res.body.token as string).get('/api/auth/me')).body.user.id).toBe(id);
    // On to the profile step, signed in.
    const welcome = await ws.withCookie(cookie).get('/workspace/welcome');
    expect(welcome.status).toBe(200);
    expect((await ws.signIn('nadia@museum.test', OWN_PASSWORD)).res.status).toBe(200);
    const listed = (await ws.as(salma).get('/api/members')).body.members.find((m: { id: number }) => m.id === id);
    expect(listed.invitation).toBeNull();

    const again = await accept(ws, token, 'Another-Password-77');
    expect([again.status, again.body.code]).toEqual([410, 'INVITATION_INVALID']);
    const dead = await request(ws.app).get(`/invite/${token}`);
    expect(dead.status).toBe(410);
    expect(dead.text).toContain('This invitation no longer works');
    expect((await ws.signIn('nadia@museum.test', OWN_PASSWORD)).res.status).toBe(200);
  });

  it('when the same link is sent twice at once, then one request joins and the other gets 410', async () => {
    const { ws, mail, salma } = await setup();
    const { token } = await invited(ws, mail, salma);
    const answers = await Promise.all([accept(ws, token, 'First-Password-111'), accept(ws, token, 'Second-Password-222')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
    const winner = answers[0].status === 200 ? 'First-Password-111' : 'Second-Password-222';
    const loser = winner === 'First-Password-111' ? 'Second-Password-222' : 'First-Password-111';
    expect((await ws.signIn('nadia@museum.test', winner)).res.status).toBe(200);
    expect((await ws.signIn('nadia@museum.test', loser)).res.status).toBe(401);
  });

  it('when seven days have passed, then the page answers 410, accepting answers 410, and the team sees the invitation expired', async () => {
    const { ws, mail, salma } = await setup();
    const { id, token } = await invited(ws, mail, salma);
    ws.clock.advance(WEEK_MS - 1000);
    expect((await request(ws.app).get(`/invite/${token}`)).status).toBe(200);
    ws.clock.advance(1000);
    expect((await request(ws.app).get(`/invite/${token}`)).status).toBe(410);
    const res = await accept(ws, token);
    expect([res.status, res.body.code]).toEqual([410, 'INVITATION_INVALID']);
    const listed = (await ws.as(renewed(ws, salma)).get('/api/members')).body.members.find((m: { id: number }) => m.id === id);
    expect(listed.invitation).toMatchObject({ expired: true });
  });

  it('when the invitation mail could only be written days later, then its link still ends seven days after the invitation was sent', async () => {
    const { ws, mail, salma } = await setup();
    const sentAt = ws.clock.now();
    expect((await invite(ws, salma)).status).toBe(201);
    ws.clock.advance(3 * 24 * 60 * 60 * 1000);
    const token = tokenOf(linkOf(ws, (await mail.deliver())[0]));
    const [row] = await ws.stores.records.workspace.db.selectFrom('link_tokens').select('expires_at').execute();
    expect(row.expires_at).toBe(new Date(sentAt + WEEK_MS).toISOString());
    ws.clock.advance(4 * 24 * 60 * 60 * 1000);
    expect((await accept(ws, token)).status).toBe(410);
  });

  it.each([
    ['a token that is not one', { token: 'x', password: OWN_PASSWORD }],
    ['a password under 10 characters', { token: 'a'.repeat(43), password: 'short' }],
    ['no password', { token: 'a'.repeat(43) }],
    ['the reset form\'s field name', { token: 'a'.repeat(43), newPassword: OWN_PASSWORD }],
    ['an unknown field', { token: 'a'.repeat(43), password: OWN_PASSWORD, userId: 1 }],
  ])('when the body has %s, then 400 and nothing changes', async (_label, body) => {
    const { ws } = await setup();
    const before = await snapshot(ws);
    const res = await request(ws.app).post('/api/auth/invitations/accept').send(body);
    expect(res.status).toBe(400);
    expect(await snapshot(ws)).toBe(before);
  });

  it('when the token is well formed but was never sent, or is a password reset\'s, then 410 INVITATION_INVALID and nothing changes', async () => {
    const { ws, mail, contributor } = await setup();
    await request(ws.app).post('/api/auth/password-reset').send({ email: contributor.email });
    const reset = new URL(linkIn((await mail.deliver())[0], `${ws.config.mail.publicUrl}/reset-password?token=`)).searchParams.get('token')!;
    const before = await snapshot(ws);
    for (const token of ['b'.repeat(43), reset]) {
      const res = await accept(ws, token);
      expect([res.status, res.body.code]).toEqual([410, 'INVITATION_INVALID']);
      expect((await request(ws.app).get(`/invite/${token}`)).status).toBe(410);
    }
    expect(await snapshot(ws)).toBe(before);
  });

  it('when the page is asked for with a malformed token, then 410 saying so, with nothing of the address echoed', async () => {
    const { ws } = await setup();
    for (const token of ['short', '%3Cscript%3E', 'c'.repeat(44)]) {
      const res = await request(ws.app).get(`/invite/${token}`);
      expect(res.status, token).toBe(410);
      expect(res.text).toContain('This invitation no longer works');
      expect(res.text).not.toContain('<script>');
    }
  });

  it('when the invited member reads Arabic and the browser has chosen no language, then the page opens in Arabic', async () => {
    const { ws, mail, salma } = await setup();
    const { token } = await invited(ws, mail, salma, { language: 'ar' });
    const res = await request(ws.app).get(`/invite/${token}`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/invite/${token}?lang=ar`);
    const arabic = await request(ws.app).get(`/invite/${token}?lang=ar`);
    expect(arabic.text).toContain('<html lang="ar" dir="rtl">');
    const chosen = await request(ws.app).get(`/invite/${token}`).set('Cookie', 'lang=en');
    expect(chosen.status).toBe(200);
  });

  it('when another member who must still change their password is signed in in that browser, then accepting still works and signs the invited member in instead', async () => {
    const { ws, mail, salma } = await setup();
    await ws.user('contributor', { email: 'temp@museum.test', mustChangePassword: true });
    const { cookie } = await ws.signIn('temp@museum.test');
    const { id, token } = await invited(ws, mail, salma);
    const res = await ws.withCookie(cookie).post('/api/auth/invitations/accept').send({ token, password: OWN_PASSWORD });
    expect(res.status).toBe(200);
    const session = `workspace_session=${cookieFrom(res, 'workspace_session')}`;
    expect((await ws.withCookie(session).get('/api/auth/me')).body.user.id).toBe(id);
  });

  it('when requests carry an invitation\'s token, then the log keeps their addresses without it', async () => {
    expect(loggedUrl(`/invite/${'e'.repeat(43)}?lang=ar`)).toBe('/invite/[redacted]?lang=ar');
    const logs = captureLogs('debug');
    const ws = await buildWorkspace({ logger: logs.logger });
    await request(ws.app).get(`/invite/${'e'.repeat(43)}`);
    await request(ws.app).post('/api/auth/invitations/accept').send({ token: 'f'.repeat(43), password: OWN_PASSWORD });
    expect(logs.text()).toContain('/invite/[redacted]');
    expect(logs.text()).not.toContain('e'.repeat(43));
    expect(logs.text()).not.toContain('f'.repeat(43));
  });
});

describe('POST /api/members/:id/invitation (resend)', () => {
  it('when a superadmin resends, then 200 {member} with the new moment, the old link is dead at once, and the new mail\'s link works', async () => {
    const { ws, mail, salma } = await setup();
    const { id, token: first } = await invited(ws, mail, salma);
    ws.clock.advance(60_000);
    const res = await ws.as(salma).post(`/api/members/${id}/invitation`);
    expect(res.status).toBe(200);
    expect(res.body.member).toMatchObject({ id, invitation: { sentAt: new Date(ws.clock.now()).toISOString(), expired: false } });
    expect((await accept(ws, first)).status).toBe(410);
    const [sent, ...more] = await mail.deliver();
    expect(more).toEqual([]);
    const second = tokenOf(linkOf(ws, sent));
    expect(second).not.toBe(first);
    const live = await ws.stores.records.workspace.db.selectFrom('link_tokens').select('token_hash').where('used_at', 'is', null).execute();
    expect(live).toEqual([{ token_hash: digestOf(second) }]);
    expect((await accept(ws, first)).status).toBe(410);
    expect((await accept(ws, second)).status).toBe(200);
  });

  it('when an invitation is resent before its first mail went, then only the newest mail is sent', async () => {
    const { ws, mail, salma } = await setup();
    const id = (await invite(ws, salma)).body.member.id as number;
    ws.clock.advance(1000);
    expect((await ws.as(salma).post(`/api/members/${id}/invitation`)).status).toBe(200);
    const sent = await mail.deliver();
    expect(sent).toHaveLength(1);
    expect((await accept(ws, tokenOf(linkOf(ws, sent[0])))).status).toBe(200);
    const statuses = await ws.stores.records.workspace.db.selectFrom('mail_outbox').select('status').orderBy('id').execute();
    expect(statuses.map((r) => r.status)).toEqual(['skipped', 'sent']);
  });

  it('when an expired invitation is resent, then the new link works for seven more days', async () => {
    const { ws, mail, salma } = await setup();
    const { id } = await invited(ws, mail, salma);
    ws.clock.advance(WEEK_MS + 1);
    const res = await ws.as(renewed(ws, salma)).post(`/api/members/${id}/invitation`);
    expect(res.body.member.invitation.expired).toBe(false);
    const token = tokenOf(linkOf(ws, (await mail.deliver())[0]));
    ws.clock.advance(WEEK_MS - 1000);
    expect((await accept(ws, token)).status).toBe(200);
  });

  it(`when one member's invitation is resent more than ${RESENDS_PER_MEMBER} times in 15 minutes, then 429 with Retry-After and no more mail; another member's still goes, and after the window it goes again`, async () => {
    const { ws, mail, salma } = await setup();
    const { id } = await invited(ws, mail, salma);
    const otherId = (await invite(ws, salma, { email: 'omar@museum.test', name: 'Omar' })).body.member.id as number;
    await mail.deliver();
    for (let i = 0; i < RESENDS_PER_MEMBER; i += 1) {
      ws.clock.advance(1);
      expect((await ws.as(salma).post(`/api/members/${id}/invitation`)).status).toBe(200);
    }
    const refused = await ws.as(salma).post(`/api/members/${id}/invitation`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ws.as(salma).post(`/api/members/${otherId}/invitation`)).status).toBe(200);
    // Queued one after another, each mail replaces the one before: only the newest of each goes.
    expect((await mail.deliver()).map((m) => m.to[0]).sort()).toEqual(['nadia@museum.test', 'omar@museum.test']);
    ws.clock.advance(15 * 60 * 1000 + 1);
    expect((await ws.as(salma).post(`/api/members/${id}/invitation`)).status).toBe(200);
  });

  it('when resends are refused (403, 404, 409), then they do not count toward the limit', async () => {
    const { ws, mail, salma, contributor } = await setup();
    const { id } = await invited(ws, mail, salma);
    for (let i = 0; i < RESENDS_PER_MEMBER + 1; i += 1) expect((await ws.as(contributor).post(`/api/members/${id}/invitation`)).status).toBe(403);
    expect((await ws.as(salma).post(`/api/members/${id}/invitation`)).status).toBe(200);
  });

  it('when the member has already joined, or was created with a password, then 409 NOT_INVITED and no mail', async () => {
    const { ws, mail, salma, colleague } = await setup();
    const { id, token } = await invited(ws, mail, salma);
    await accept(ws, token);
    for (const target of [id, colleague.id]) {
      const res = await ws.as(salma).post(`/api/members/${target}/invitation`);
      expect([res.status, res.body.code]).toEqual([409, 'NOT_INVITED']);
    }
    expect(await mail.deliver()).toEqual([]);
  });

  it('when a manager resends, then only for contributors of their own brands: another brand\'s member is 404, an invited manager 403; a contributor may not; ids are checked', async () => {
    const { ws, mail, salma, manager, contributor, brand, other } = await setup();
    const own = (await invite(ws, salma, { brandIds: [brand.id] })).body.member.id as number;
    const theirs = (await invite(ws, salma, { email: 'far@museum.test', brandIds: [other.id] })).body.member.id as number;
    const managerInvited = (await invite(ws, salma, { email: 'boss@museum.test', role: 'manager', brandIds: [brand.id] })).body.member.id as number;
    const both = (await invite(ws, salma, { email: 'both@museum.test', brandIds: [brand.id, other.id] })).body.member.id as number;
    await mail.deliver();
    const before = await snapshot(ws);
    const refusals: [TestUser, string, number][] = [
      [manager, `/api/members/${theirs}/invitation`, 404],
      [manager, `/api/members/${managerInvited}/invitation`, 403],
      [manager, `/api/members/${both}/invitation`, 403],
      [contributor, `/api/members/${own}/invitation`, 403],
      [salma, '/api/members/999999/invitation', 404],
      [salma, '/api/members/abc/invitation', 400],
    ];
    for (const [actor, path, status] of refusals) expect((await ws.as(actor).post(path)).status, path).toBe(status);
    expect((await request(ws.app).post(`/api/members/${own}/invitation`)).status).toBe(401);
    expect(await snapshot(ws)).toBe(before);
    expect(await mail.deliver()).toEqual([]);
    expect((await ws.as(manager).post(`/api/members/${own}/invitation`)).status).toBe(200);
  });
});

describe('DELETE /api/members/:id/invitation (revoke)', () => {
  it('when a superadmin revokes, then {ok:true}, the member is gone, the link answers 410, and the address can be invited again', async () => {
    const { ws, mail, salma } = await setup();
    const { id, token } = await invited(ws, mail, salma);
    const res = await ws.as(salma).delete(`/api/members/${id}/invitation`);
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    expect((await ws.as(salma).get('/api/members')).body.members.map((m: { id: number }) => m.id)).not.toContain(id);
    expect((await accept(ws, token)).status).toBe(410);
    expect((await request(ws.app).get(`/invite/${token}`)).status).toBe(410);
    expect(await ws.stores.records.workspace.db.selectFrom('link_tokens').selectAll().execute()).toEqual([]);
    expect((await ws.as(salma).delete(`/api/members/${id}/invitation`)).status).toBe(404);
    expect((await invite(ws, salma)).status).toBe(201);
  });

  it('when an invitation is revoked before its mail went, then no mail is sent', async () => {
    const { ws, mail, salma } = await setup();
    const id = (await invite(ws, salma)).body.member.id as number;
    expect((await ws.as(salma).delete(`/api/members/${id}/invitation`)).status).toBe(200);
    expect(await mail.deliver()).toEqual([]);
  });

  it('when the member has already joined, then 409 NOT_INVITED and they stay', async () => {
    const { ws, mail, salma } = await setup();
    const { id, token } = await invited(ws, mail, salma);
    await accept(ws, token);
    const res = await ws.as(salma).delete(`/api/members/${id}/invitation`);
    expect([res.status, res.body.code]).toEqual([409, 'NOT_INVITED']);
    expect((await ws.signIn('nadia@museum.test', OWN_PASSWORD)).res.status).toBe(200);
  });

  it('when a manager revokes, then only for contributors of their own brands; a contributor may not; nothing changes when refused', async () => {
    const { ws, mail, salma, manager, contributor, brand, other } = await setup();
    const own = (await invite(ws, salma, { brandIds: [brand.id] })).body.member.id as number;
    const theirs = (await invite(ws, salma, { email: 'far@museum.test', brandIds: [other.id] })).body.member.id as number;
    const managerInvited = (await invite(ws, salma, { email: 'boss@museum.test', role: 'manager', brandIds: [brand.id] })).body.member.id as number;
    await mail.deliver();
    const before = await snapshot(ws);
    expect((await ws.as(manager).delete(`/api/members/${theirs}/invitation`)).status).toBe(404);
    expect((await ws.as(manager).delete(`/api/members/${managerInvited}/invitation`)).status).toBe(403);
    expect((await ws.as(contributor).delete(`/api/members/${own}/invitation`)).status).toBe(403);
    expect((await request(ws.app).delete(`/api/members/${own}/invitation`)).status).toBe(401);
    expect((await ws.as(salma).delete('/api/members/0/invitation')).status).toBe(400);
    expect(await snapshot(ws)).toBe(before);
    expect((await ws.as(manager).delete(`/api/members/${own}/invitation`)).status).toBe(200);
  });

  it('when the invitation is accepted and revoked at once, then exactly one wins', async () => {
    const { ws, mail, salma } = await setup();
    const { id, token } = await invited(ws, mail, salma);
    const [accepted, revoked] = await Promise.all([accept(ws, token), ws.as(salma).delete(`/api/members/${id}/invitation`)]);
    expect([accepted.status, revoked.status].sort()).toEqual(accepted.status === 200 ? [200, 409] : [200, 410]);
    const exists = (await ws.members.get(id)) !== undefined;
    expect(exists).toBe(accepted.status === 200);
  });
});

describe('invited members elsewhere', () => {
  it('when a contributor lists the team, then members still invited are not in it; a manager sees them with what they may do', async () => {
    const { ws, mail, salma, manager, contributor } = await setup();
    const { id } = await invited(ws, mail, salma);
    const boss = (await invite(ws, salma, { email: 'boss@museum.test', role: 'manager' })).body.member.id as number;
    expect((await ws.as(contributor).get('/api/members')).body.members.map((m: { id: number }) => m.id)).not.toContain(id);
    const seen = (await ws.as(manager).get('/api/members')).body.members as { id: number; invitation: { can: unknown } | null }[];
    expect(seen.find((m) => m.id === id)?.invitation?.can).toEqual({ resend: true, revoke: true });
    expect(seen.find((m) => m.id === boss)?.invitation?.can).toEqual({ resend: false, revoke: false });
    expect(seen.find((m) => m.id === manager.id)?.invitation).toBeNull();
  });

  it('when a task is given to a member still invited, then 400 ASSIGNEE_INVITED; once they join, it works', async () => {
    const { ws, mail, salma, manager, brand } = await setup();
    const { id, token } = await invited(ws, mail, salma);
    const refused = await ws.as(manager).post('/api/tasks').send({ title: 'Caption the catalogue', brandId: brand.id, assigneeId: id });
    expect([refused.status, refused.body.code]).toEqual([400, 'ASSIGNEE_INVITED']);
    await accept(ws, token);
    expect((await ws.as(manager).post('/api/tasks').send({ title: 'Caption the catalogue', brandId: brand.id, assigneeId: id })).status).toBe(201);
  });

  it('when the only manager of a brand is still invited, then a post sent to review asks its superadmins, not them', async () => {
    const { ws, mail, salma, admin, other } = await setup();
    const { id, token } = await invited(ws, mail, salma, { role: 'manager', brandIds: [other.id] });
    const author = await ws.user('contributor', { brandIds: [other.id] });
    const post = (await ws.as(author).post('/api/posts').send({ title: 'Opening night', brandId: other.id, status: 'review' })).body.post;
    expect((await ws.as(admin).get('/api/notifications')).body.notifications).toMatchObject([{ kind: 'review_requested', postId: post.id }]);
    const joined = await accept(ws, token);
    expect((await ws.as(joined.body.token as string).get('/api/notifications')).body.notifications).toEqual([]);
    expect(joined.body.user.id).toBe(id);
  });

  it('when a superadmin gives a member still invited a first password, then the invitation ends: the link is dead and the password signs in', async () => {
    const { ws, mail, salma } = await setup();
    const { id, token } = await invited(ws, mail, salma);
    const res = await ws.as(salma).patch(`/api/members/${id}`).send({ password: 'Given-Password-1' });
    expect(res.body.member).toMatchObject({ invitation: null, mustChangePassword: true });
    expect((await accept(ws, token)).status).toBe(410);
    expect((await ws.signIn('nadia@museum.test', 'Given-Password-1')).res.status).toBe(200);
  });

  it('when a superadmin still invited is the only other one, then the last acting superadmin may not step down, and the invitation can be revoked', async () => {
    const ws = await buildWorkspace();
    const admin = await ws.user('superadmin');
    const invitedAdmin = (await invite(ws, admin, { role: 'superadmin' })).body.member.id as number;
    const demoted = await ws.as(admin).patch(`/api/members/${admin.id}`).send({ role: 'manager' });
    expect([demoted.status, demoted.body.code]).toEqual([409, 'LAST_SUPERADMIN']);
    expect((await ws.as(admin).delete(`/api/members/${invitedAdmin}/invitation`)).status).toBe(200);
  });
});
