import { describe, expect, it } from 'vitest';
import { workspaceOutbox } from '../../src/workspace/mail/queue';
import { request } from '../support/http';
import { mailFor } from '../support/mail';
import { buildTeam, snapshot } from '../support/workspace';

const BODY_KEYS = ['attempts', 'createdAt', 'id', 'kind', 'lastError', 'sentAt', 'status', 'subject', 'to'];

/** A team, and mail for two of its members: a reset asked for, then sent. */
async function withMail() {
  const t = await buildTeam();
  const mail = await mailFor(t.ws);
  for (const who of [t.contributor, t.colleague]) {
    expect((await request(t.ws.app).post('/api/auth/password-reset').send({ email: who.email })).status).toBe(202);
  }
  return { ...t, mail, outbox: workspaceOutbox(t.ws.stores.records.workspace) };
}

describe('GET /api/mail', () => {
  it('when a superadmin asks, then every mail newest first, with where it went and how it fared but never what it said', async () => {
    const t = await withMail();
    await t.mail.deliver();
    const res = await t.ws.as(t.admin).get('/api/mail');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.messages.map((m: { to: string }) => m.to)).toEqual([t.colleague.email, t.contributor.email]);
    for (const message of res.body.messages) {
      expect(Object.keys(message).sort()).toEqual(BODY_KEYS);
      expect(message).toMatchObject({ kind: 'password_reset', status: 'sent', attempts: 1, lastError: null, subject: 'Reset your Museum Workspace password' });
    }
    expect(res.text).not.toMatch(/token|params/i);
  });

  it('when filtered by status and paged, then only those, a page at a time, with the cursor of the next', async () => {
    const t = await withMail();
    const first = await t.ws.as(t.admin).get('/api/mail?status=pending&limit=1');
    expect(first.body.messages).toHaveLength(1);
    expect(first.body.nextCursor).toBe(first.body.messages[0].id);
    const second = await t.ws.as(t.admin).get(`/api/mail?status=pending&limit=1&before=${first.body.nextCursor}`);
    expect(second.body.messages.map((m: { id: number }) => m.id)).toEqual([first.body.messages[0].id - 1]);
    expect(second.body.nextCursor).toBeNull();
    expect((await t.ws.as(t.admin).get('/api/mail?status=failed')).body).toEqual({ messages: [], nextCursor: null });
  });

  it.each(['limit=0', 'limit=201', 'status=lost', 'before=abc', 'before=0', 'other=1'])('when the query has %s, then 400 VALIDATION', async (query) => {
    const t = await withMail();
    const res = await t.ws.as(t.admin).get(`/api/mail?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
  });

  it('when nobody is signed in, then 401; a manager or a contributor, then 403', async () => {
    const t = await withMail();
    expect((await request(t.ws.app).get('/api/mail')).status).toBe(401);
    for (const who of [t.manager, t.contributor]) {
      const res = await t.ws.as(who).get('/api/mail');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN_ROLE');
    }
  });
});

describe('POST /api/mail/:id/retry', () => {
  it('when a failed mail is sent again, then it is waiting once more with its attempts counted afresh, and it goes', async () => {
    const t = await withMail();
    t.mail.smtp.refuse(true);
    for (let i = 0; i < 20; i += 1) {
      await t.mail.worker.drain();
      t.ws.clock.advance(2 * 3600_000);
    }
    const failed = (await t.ws.as(t.admin).get('/api/mail?status=failed')).body.messages;
    expect(failed).toHaveLength(2);
    expect(failed[0].lastError).toMatch(/451/);
    t.mail.smtp.refuse(false);
    const res = await t.ws.as(t.admin).post(`/api/mail/${failed[0].id}/retry`);
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ id: failed[0].id, status: 'pending', attempts: 0 });
    const sent = await t.mail.deliver();
    expect(sent.map((m) => m.to)).toEqual([[failed[0].to]]);
  });

  it('when the mail is waiting or sent, then 409 MAIL_NOT_RETRYABLE; when there is none, then 404; nothing changes', async () => {
    const t = await withMail();
    const [waiting] = (await t.ws.as(t.admin).get('/api/mail?limit=1')).body.messages;
    const before = await snapshot(t.ws);
    const res = await t.ws.as(t.admin).post(`/api/mail/${waiting.id}/retry`);
    expect([res.status, res.body.code]).toEqual([409, 'MAIL_NOT_RETRYABLE']);
    expect((await t.ws.as(t.admin).post('/api/mail/999999/retry')).body.code).toBe('MAIL_NOT_FOUND');
    expect((await t.ws.as(t.admin).post('/api/mail/abc/retry')).status).toBe(400);
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when a manager asks, then 403 and nothing changes', async () => {
    const t = await withMail();
    const [waiting] = await t.outbox.list({ limit: 1 });
    const before = await snapshot(t.ws);
    expect((await t.ws.as(t.manager).post(`/api/mail/${waiting.id}/retry`)).status).toBe(403);
    expect(await snapshot(t.ws)).toBe(before);
  });
});

describe('/workspace/settings/mail', () => {
  it('when a superadmin opens it, then the outbox page; anyone else, then 403; signed out, then the sign-in page', async () => {
    const t = await withMail();
    const done = new Date(t.ws.clock.now()).toISOString();
    for (const who of [t.admin, t.manager]) await t.ws.members.update(who.id, { jobTitle: 'Marketing', profileCompletedAt: done, onboardingCompletedAt: done });
    const admin = await t.ws.signIn(t.admin.email);
    const page = await t.ws.withCookie(admin.cookie).get('/workspace/settings/mail');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-mail');
    expect((await t.ws.withCookie(admin.cookie).get('/workspace/settings')).text).toContain('href="/workspace/settings/mail"');
    const manager = await t.ws.signIn(t.manager.email);
    expect((await t.ws.withCookie(manager.cookie).get('/workspace/settings/mail')).status).toBe(403);
    expect((await t.ws.withCookie(manager.cookie).get('/workspace/settings')).text).not.toContain('/workspace/settings/mail');
    expect((await request(t.ws.app).get('/workspace/settings/mail')).status).toBe(303);
  });
});
