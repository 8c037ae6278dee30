import { describe, expect, it } from 'vitest';
import { RESET_REQUESTS_PER_EMAIL } from '../../src/workspace/auth/routes';
import { digestOf } from '../../src/workspace/auth/links';
import { request } from '../support/http';
import { linkIn, mailFor } from '../support/mail';
import { buildWorkspace, PASSWORD, snapshot, type TestWorkspace } from '../support/workspace';
import { captureLogs } from '../support/logs';
import { loggedUrl } from '../../src/platform/logger';

const NEW_PASSWORD = 'Lantern-Harbour-42';

const askReset = (ws: TestWorkspace, email: string, from = '10.0.0.1') =>
  request(ws.app).post('/api/auth/password-reset').set('X-Forwarded-For', from).send({ email });

const confirm = (ws: TestWorkspace, token: string, newPassword = NEW_PASSWORD) =>
  request(ws.app).post('/api/auth/password-reset/confirm').send({ token, newPassword });

async function setup() {
  const ws = await buildWorkspace();
  const mail = await mailFor(ws);
  const member = await ws.user('contributor', { name: 'Salma Haddad', email: 'salma@museum.test' });
  return { ws, mail, member };
}

/** The token of a reset link in the mail. */
function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token')!;
}

describe('POST /api/auth/password-reset', () => {
  it('when a member asks, then 202 and one mail with a single link to choose a new password, whose token is stored only as a digest', async () => {
    const { ws, mail } = await setup();
    const res = await askReset(ws, 'Salma@Museum.test');
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ok: true });
    const [sent, ...more] = await mail.deliver();
    expect(more).toEqual([]);
    expect(sent.to).toEqual(['salma@museum.test']);
    expect(sent.parsed.subject).toBe('Reset your Museum Workspace password');
    const link = linkIn(sent, `${ws.config.mail.publicUrl}/reset-password?token=`);
    expect(sent.parsed.html).toContain(link.replaceAll('&', '&amp;'));
    expect(sent.parsed.text).toContain('within an hour');
    const token = tokenOf(link);
    const stored = await ws.stores.records.workspace.db.selectFrom('link_tokens').selectAll().execute();
    expect(stored.map((row) => [row.purpose, row.token_hash])).toEqual([['password_reset', digestOf(token)]]);
    expect(JSON.stringify(stored)).not.toContain(token);
    const [row] = (await ws.stores.records.workspace.db.selectFrom('mail_outbox').selectAll().execute());
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('when the address is nobody\'s, then the same 202 and no mail, and nothing else is stored', async () => {
    const { ws, mail } = await setup();
    const before = await snapshot(ws);
    const res = await askReset(ws, 'nobody@museum.test');
    expect([res.status, res.body]).toEqual([202, { ok: true }]);
    expect(await mail.deliver()).toEqual([]);
    expect(await snapshot(ws)).toBe(before);
  });

  it.each([
    ['no email', {}],
    ['an empty email', { email: '' }],
    ['an unknown field', { email: 'salma@museum.test', admin: true }],
    ['a number', { email: 5 }],
  ])('when the body has %s, then 400 and no mail', async (_label, body) => {
    const { ws, mail } = await setup();
    const res = await request(ws.app).post('/api/auth/password-reset').send(body);
    expect(res.status).toBe(400);
    expect(await mail.deliver()).toEqual([]);
  });

  it(`when one address is asked for more than ${RESET_REQUESTS_PER_EMAIL} times in 15 minutes, then 429 with Retry-After whoever asks, known or not, and no more mail`, async () => {
    const { ws, mail } = await setup();
    for (let i = 0; i < RESET_REQUESTS_PER_EMAIL; i += 1) expect((await askReset(ws, 'salma@museum.test', `10.0.1.${i}`)).status).toBe(202);
    const refused = await askReset(ws, 'salma@museum.test', '10.0.2.1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The same answer for an address nobody has, so the limit tells nothing either.
    for (let i = 0; i < RESET_REQUESTS_PER_EMAIL; i += 1) await askReset(ws, 'ghost@museum.test', `10.0.3.${i}`);
    expect((await askReset(ws, 'ghost@museum.test', '10.0.4.1')).status).toBe(429);
    expect(await mail.deliver()).toHaveLength(RESET_REQUESTS_PER_EMAIL);
    ws.clock.advance(15 * 60 * 1000 + 1);
    expect((await askReset(ws, 'salma@museum.test', '10.0.5.1')).status).toBe(202);
  });
});

describe('POST /api/auth/password-reset/confirm', () => {
  it('when the link is used, then the password is the new one, every older token and cookie session is refused, the link is dead, and a mail says the password changed', async () => {
    const { ws, mail, member } = await setup();
    const { cookie } = await ws.signIn(member.email);
    await askReset(ws, member.email);
    const [sent] = await mail.deliver();
    const token = tokenOf(linkIn(sent, `${ws.config.mail.publicUrl}/reset-password?token=`));
    const res = await confirm(ws, token);
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    expect((await ws.as(member).get('/api/auth/me')).status).toBe(401);
    expect((await ws.withCookie(cookie).get('/api/auth/me')).status).toBe(401);
    expect((await ws.signIn(member.email, PASSWORD)).res.status).toBe(401);
    expect((await ws.signIn(member.email, NEW_PASSWORD)).res.status).toBe(200);
    const again = await confirm(ws, token, 'Another-Password-77');
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('RESET_LINK_INVALID');
    const [changed] = await mail.deliver();
    expect(changed.to).toEqual([member.email]);
    expect(changed.parsed.subject).toBe('Your Museum Workspace password was changed');
    expect(changed.parsed.text).toContain('signed out');
    expect(changed.parsed.text).not.toContain(token);
  });

  it('when the link is an hour old, then 410 and the password stays', async () => {
    const { ws, mail, member } = await setup();
    await askReset(ws, member.email);
    const token = tokenOf(linkIn((await mail.deliver())[0], `${ws.config.mail.publicUrl}/reset-password?token=`));
    ws.clock.advance(60 * 60 * 1000);
    const res = await confirm(ws, token);
    expect([res.status, res.body.code]).toEqual([410, 'RESET_LINK_INVALID']);
    expect((await ws.signIn(member.email, PASSWORD)).res.status).toBe(200);
  });

  it('when a second reset is asked for, then the first link is dead and the second works', async () => {
    const { ws, mail, member } = await setup();
    await askReset(ws, member.email);
    const first = tokenOf(linkIn((await mail.deliver())[0], `${ws.config.mail.publicUrl}/reset-password?token=`));
    await askReset(ws, member.email);
    const second = tokenOf(linkIn((await mail.deliver())[0], `${ws.config.mail.publicUrl}/reset-password?token=`));
    expect((await confirm(ws, first)).status).toBe(410);
    expect((await confirm(ws, second)).status).toBe(200);
  });

  it('when the same link is sent twice at once, then one request sets the password and the other gets 410', async () => {
    const { ws, mail, member } = await setup();
    await askReset(ws, member.email);
    const token = tokenOf(linkIn((await mail.deliver())[0], `${ws.config.mail.publicUrl}/reset-password?token=`));
    const answers = await Promise.all([confirm(ws, token, 'First-Password-111'), confirm(ws, token, 'Second-Password-222')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
    const winner = answers[0].status === 200 ? 'First-Password-111' : 'Second-Password-222';
    expect((await ws.signIn(member.email, winner)).res.status).toBe(200);
    expect((await mail.deliver()).map((m) => m.parsed.subject)).toEqual(['Your Museum Workspace password was changed']);
  });

  it.each([
    ['a token that is not one', { token: 'x', newPassword: NEW_PASSWORD }],
    ['a password under 10 characters', { token: 'a'.repeat(43), newPassword: 'short' }],
    ['no password', { token: 'a'.repeat(43) }],
    ['an unknown field', { token: 'a'.repeat(43), newPassword: NEW_PASSWORD, userId: 1 }],
  ])('when the body has %s, then 400 and nothing changes', async (_label, body) => {
    const { ws } = await setup();
    const before = await snapshot(ws);
    const res = await request(ws.app).post('/api/auth/password-reset/confirm').send(body);
    expect(res.status).toBe(400);
    expect(await snapshot(ws)).toBe(before);
  });

  it('when the token is well formed but was never sent, then 410 and nothing changes', async () => {
    const { ws } = await setup();
    const before = await snapshot(ws);
    expect((await confirm(ws, 'b'.repeat(43))).status).toBe(410);
    expect(await snapshot(ws)).toBe(before);
  });

  it('when the member reads Arabic, then the mail is in Arabic, right to left, with the address isolated', async () => {
    const { ws, mail, member } = await setup();
    await ws.members.update(member.id, { language: 'ar' });
    await askReset(ws, member.email);
    const [sent] = await mail.deliver();
    expect(sent.parsed.subject).toBe('إعادة تعيين كلمة مرور مساحة عمل المتحف');
    expect(sent.parsed.html).toContain('<html lang="ar" dir="rtl">');
    expect(sent.parsed.text).toContain('\u2068salma@museum.test\u2069');
  });
});

describe('the reset page and the log', () => {
  it('when the page is opened with a live link, then 200 with the form; with a used, unknown or malformed one, then 410 saying so', async () => {
    const { ws, mail, member } = await setup();
    await askReset(ws, member.email);
    const token = tokenOf(linkIn((await mail.deliver())[0], `${ws.config.mail.publicUrl}/reset-password?token=`));
    const live = await request(ws.app).get(`/reset-password?token=${token}`);
    expect(live.status).toBe(200);
    expect(live.text).toContain('ws-new-password-form');
    await confirm(ws, token);
    for (const query of [`?token=${token}`, `?token=${'c'.repeat(43)}`, '?token=<script>', '']) {
      const dead = await request(ws.app).get(`/reset-password${query}`);
      expect(dead.status, query).toBe(410);
      expect(dead.text).toContain('This link no longer works');
      expect(dead.text).not.toContain('<script>');
    }
  });

  it('when requests carry a link\'s token, then the log keeps their addresses without it', async () => {
    expect(loggedUrl('/reset-password?token=abc&lang=ar')).toBe('/reset-password?token=[redacted]&lang=ar');
    expect(loggedUrl('/invite/abc123?lang=ar')).toBe('/invite/[redacted]?lang=ar');
    expect(loggedUrl('/workspace?post=3')).toBe('/workspace?post=3');
    const logs = captureLogs('debug');
    const ws = await buildWorkspace({ logger: logs.logger });
    await request(ws.app).get(`/reset-password?token=${'d'.repeat(43)}`);
    expect(logs.text()).toContain('/reset-password?token=[redacted]');
    expect(logs.text()).not.toContain('d'.repeat(43));
  });
});

describe('POST /api/auth/password (signed in)', () => {
  it('when a member changes their password, then a mail tells them so', async () => {
    const { ws, mail, member } = await setup();
    const res = await ws.as(member).post('/api/auth/password').send({ currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.status).toBe(200);
    const [sent] = await mail.deliver();
    expect([sent.to, sent.parsed.subject]).toEqual([[member.email], 'Your Museum Workspace password was changed']);
  });
});
