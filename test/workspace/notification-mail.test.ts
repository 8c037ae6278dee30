import { describe, expect, it } from 'vitest';
import { createI18n } from '../../src/platform/i18n';
import { createLogger } from '../../src/platform/logger';
import { createWorkspaceDigests } from '../../src/workspace';
import { DEFAULT_NOTIFICATION_DELIVERIES } from '../../src/workspace/domain';
import { request } from '../support/http';
import { linkIn, mailFor } from '../support/mail';
import type { Received } from '../support/smtp';
import { buildTeam, snapshot, type TestUser } from '../support/workspace';

const SETTINGS = '/api/auth/me/notifications-settings';
/** A bidi isolate around a name or title, as every mail writes them. */
const iso = (text: string) => `\u2068${text}\u2069`;

/** A team whose people have names, with mail going to a real SMTP server. */
async function team() {
  const t = await buildTeam();
  const names: [TestUser, string][] = [[t.manager, 'Omar Khalil'], [t.contributor, 'Salma Haddad'], [t.colleague, 'Lina Farah'], [t.admin, 'Nadia Aziz']];
  for (const [who, name] of names) await t.ws.members.update(who.id, { name });
  const mail = await mailFor(t.ws);
  const url = t.ws.config.mail.publicUrl;
  const outbox = () => t.ws.stores.records.workspace.db.selectFrom('mail_outbox').selectAll().orderBy('id').execute();
  const post = async (who: TestUser, title: string, status = 'draft') => {
    const res = await t.ws.as(who).post('/api/posts').send({ title, brandId: t.brand.id, status });
    expect(res.status, res.text).toBe(201);
    return res.body.post as { id: number };
  };
  const digests = () => createWorkspaceDigests({ records: t.ws.stores.records.workspace, clock: t.ws.clock, i18n: createI18n(), logger: createLogger('silent'), timeZone: t.ws.config.workspaceTimeZone });
  return { ...t, mail, url, outbox, post, digests };
}

/** A header as the mail carries it, unfolded. */
function header(mail: Received, name: string): string | undefined {
  const line = mail.parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line;
  return line?.replace(/\r?\n[ \t]+/g, ' ').slice(name.length + 1).trim();
}

/** The token of a mail's one-click unsubscribe address. */
function unsubscribeToken(mail: Received): string {
  const address = /^<(.+)>$/.exec(header(mail, 'List-Unsubscribe') ?? '')?.[1];
  return new URL(address!).searchParams.get('token')!;
}

const unsubscribe = (app: Parameters<typeof request>[0], token: string) =>
  request(app).post(`/api/mail/unsubscribe?token=${encodeURIComponent(token)}`).set('Origin', 'https://mail.example').type('form').send('List-Unsubscribe=One-Click');

describe('GET/PATCH /api/auth/me/notifications-settings', () => {
  it('when a member has chosen nothing, then mentions and review requests come by mail at once, the rest in the digest, in the workspace time zone', async () => {
    const t = await team();
    const res = await t.ws.as(t.contributor).get(SETTINGS);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      settings: { mentioned: 'email', assigned: 'digest', review_requested: 'email', approved: 'digest', sent_back: 'digest', commented: 'digest' },
      timeZone: 'Asia/Qatar',
    });
    expect(res.body.settings).toEqual(DEFAULT_NOTIFICATION_DELIVERIES);
  });

  it('when a member changes some kinds and the time zone, then 200 with every kind, kept for them alone, and the profile shows the zone in its usual spelling', async () => {
    const t = await team();
    const res = await t.ws.as(t.contributor).patch(SETTINGS).send({ settings: { mentioned: 'app', assigned: 'email' }, timeZone: 'europe/london' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ settings: { ...DEFAULT_NOTIFICATION_DELIVERIES, mentioned: 'app', assigned: 'email' }, timeZone: 'Europe/London' });
    expect((await t.ws.as(t.contributor).get(SETTINGS)).body).toEqual(res.body);
    expect((await t.ws.as(t.contributor).get('/api/auth/me')).body.user.timeZone).toBe('Europe/London');
    expect((await t.ws.as(t.colleague).get(SETTINGS)).body).toEqual({ settings: DEFAULT_NOTIFICATION_DELIVERIES, timeZone: 'Asia/Qatar' });
    const again = await t.ws.as(t.contributor).patch(SETTINGS).send({ settings: { mentioned: 'digest' } });
    expect(again.body).toEqual({ settings: { ...DEFAULT_NOTIFICATION_DELIVERIES, mentioned: 'digest', assigned: 'email' }, timeZone: 'Europe/London' });
  });

  it.each([
    ['nothing', {}],
    ['an unknown kind', { settings: { liked: 'email' } }],
    ['an unknown delivery', { settings: { mentioned: 'sms' } }],
    ['a delivery that is not text', { settings: { mentioned: true } }],
    ['a time zone that is none', { timeZone: 'Mars/Olympus' }],
    ['a time zone that is not text', { timeZone: 3 }],
    ['an unknown field', { settings: { mentioned: 'app' }, language: 'ar' }],
    ['settings that are a list', { settings: ['email'] }],
  ])('when the body has %s, then 400 VALIDATION and nothing changes', async (_label, body) => {
    const t = await team();
    const before = await snapshot(t.ws);
    const res = await t.ws.as(t.contributor).patch(SETTINGS).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when nobody is signed in, then 401 to both; a cookie write from another site, then 403 CSRF', async () => {
    const t = await team();
    expect((await request(t.ws.app).get(SETTINGS)).status).toBe(401);
    expect((await request(t.ws.app).patch(SETTINGS).send({ settings: { mentioned: 'app' } })).status).toBe(401);
    const { cookie } = await t.ws.signIn(t.contributor.email);
    const forged = await request(t.ws.app).patch(SETTINGS).set({ Cookie: cookie, Origin: 'https://evil.example' }).send({ settings: { mentioned: 'app' } });
    expect([forged.status, forged.body.code]).toEqual([403, 'CSRF']);
    expect((await t.ws.as(t.contributor).get(SETTINGS)).body.settings.mentioned).toBe('email');
  });

  it('when the profile is given a time zone, then it is kept in its usual spelling; a zone that is none is refused with 400', async () => {
    const t = await team();
    const res = await t.ws.as(t.contributor).patch('/api/auth/me').send({ timeZone: 'America/New_York' });
    expect([res.status, res.body.user.timeZone]).toEqual([200, 'America/New_York']);
    expect((await t.ws.as(t.contributor).get(SETTINGS)).body.timeZone).toBe('America/New_York');
    const bad = await t.ws.as(t.contributor).patch('/api/auth/me').send({ timeZone: 'Atlantis/Capital' });
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION']);
    expect((await t.ws.as(t.contributor).get('/api/auth/me')).body.user.timeZone).toBe('America/New_York');
  });
});

describe('mail at once', () => {
  it('when a post is sent to review, then its reviewer gets a mail saying who asks for what, linking to the post, with a one-click unsubscribe', async () => {
    const t = await team();
    const post = await t.post(t.contributor, 'Opening night', 'review');
    const rows = await t.outbox();
    expect(rows.map((r) => [r.kind, r.user_id, r.status])).toEqual([['notification', t.manager.id, 'pending']]);
    const [sent, ...more] = await t.mail.deliver();
    expect(more).toEqual([]);
    expect(sent.to).toEqual([t.manager.email]);
    expect(sent.parsed.subject).toBe(`${iso('Salma Haddad')} asks you to review “${iso('Opening night')}”`);
    expect(linkIn(sent, `${t.url}/workspace?post=`)).toBe(`${t.url}/workspace?post=${post.id}`);
    expect(sent.parsed.html).toContain(`href="${t.url}/workspace?post=${post.id}"`);
    expect(header(sent, 'List-Unsubscribe')).toMatch(new RegExp(`^<${t.url}/api/mail/unsubscribe\\?token=${t.manager.id}\\.review_requested\\.[\\w-]{43}>$`));
    expect(header(sent, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(sent.parsed.text).toContain(`${t.url}/api/mail/unsubscribe?token=`);
    expect((await t.outbox()).map((r) => r.status)).toEqual(['sent']);
  });

  it('when the reviewer reads Arabic, then the mail is in Arabic, right to left, names and titles isolated', async () => {
    const t = await team();
    await t.ws.members.update(t.manager.id, { language: 'ar' });
    await t.post(t.contributor, 'Opening night', 'review');
    const [sent] = await t.mail.deliver();
    expect(sent.parsed.subject).toBe(`يطلب منك ${iso('Salma Haddad')} مراجعة «${iso('Opening night')}»`);
    expect(sent.parsed.html).toContain('<html lang="ar" dir="rtl">');
    expect(sent.parsed.text).toContain('فتح المنشور');
  });

  it('when someone is mentioned, then they get a mail; what the kinds default to the digest (a comment, an assignment) sends nothing at once', async () => {
    const t = await team();
    const post = await t.post(t.contributor, 'Spring poster');
    await t.ws.as(t.manager).post(`/api/posts/${post.id}/comments`).send({ body: 'Looks good @Lina Farah' });
    await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Brief', brandId: t.brand.id, assigneeId: t.contributor.id });
    const sent = await t.mail.deliver();
    expect(sent.map((m) => [m.to, m.parsed.subject])).toEqual([[[t.colleague.email], `${iso('Omar Khalil')} mentioned you on “${iso('Spring poster')}”`]]);
  });

  it('when a member chose the app only or the digest for a kind, then no mail at once; when they chose mail for assignments, then a mail linking to the task', async () => {
    const t = await team();
    await t.ws.as(t.manager).patch(SETTINGS).send({ settings: { review_requested: 'app' } });
    await t.ws.as(t.colleague).patch(SETTINGS).send({ settings: { mentioned: 'digest' } });
    await t.ws.as(t.contributor).patch(SETTINGS).send({ settings: { assigned: 'email' } });
    const post = await t.post(t.contributor, 'Opening night', 'review');
    await t.ws.as(t.contributor).post(`/api/posts/${post.id}/comments`).send({ body: '@Lina Farah please look' });
    const task = (await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Print run', brandId: t.brand.id, assigneeId: t.contributor.id })).body.task;
    const [sent, ...more] = await t.mail.deliver();
    expect(more).toEqual([]);
    expect(sent.to).toEqual([t.contributor.email]);
    expect(sent.parsed.subject).toBe(`${iso('Omar Khalil')} assigned you “${iso('Print run')}”`);
    expect(linkIn(sent, `${t.url}/workspace/tasks?task=`)).toBe(`${t.url}/workspace/tasks?task=${task.id}`);
    expect(unsubscribeToken(sent)).toMatch(new RegExp(`^${t.contributor.id}\\.assigned\\.`));
  });

  it('when twenty posts are sent to review at once, then one mail that counts them, as the bell does, and links to the board', async () => {
    const t = await team();
    const ids: number[] = [];
    for (let i = 1; i <= 20; i += 1) ids.push((await t.post(t.contributor, `Post ${i}`)).id);
    expect((await t.ws.as(t.contributor).patch('/api/posts').send({ ids, status: 'review' })).status).toBe(200);
    const [sent, ...more] = await t.mail.deliver();
    expect(more).toEqual([]);
    expect(sent.parsed.subject).toBe(`${iso('Salma Haddad')} sent 20 posts to review`);
    expect(linkIn(sent, `${t.url}/workspace`)).toBe(`${t.url}/workspace`);
    await t.ws.members.update(t.manager.id, { language: 'ar' });
    await t.ws.as(t.contributor).patch('/api/posts').send({ ids: ids.slice(0, 2), status: 'draft' });
    await t.ws.as(t.contributor).patch('/api/posts').send({ ids: ids.slice(0, 2), status: 'review' });
    expect((await t.mail.deliver()).map((m) => m.parsed.subject)).toEqual([`أرسل ${iso('Salma Haddad')} منشورين للمراجعة`]);
  });

  it('when the notification was read in the app before its turn, then no mail (skipped)', async () => {
    const t = await team();
    await t.post(t.contributor, 'Opening night', 'review');
    await t.ws.as(t.manager).post('/api/notifications/read').send({ all: true });
    expect(await t.mail.deliver()).toEqual([]);
    expect((await t.outbox()).map((r) => r.status)).toEqual(['skipped']);
  });

  it('when the reviewer is moved out of the brand between the notification and the send, then no mail names the post (skipped)', async () => {
    const t = await team();
    await t.post(t.contributor, 'Secret launch', 'review');
    expect((await t.ws.as(t.admin).patch(`/api/members/${t.manager.id}`).send({ brandIds: [t.other.id] })).status).toBe(200);
    expect(await t.mail.deliver()).toEqual([]);
    const [row] = await t.outbox();
    expect(row.status).toBe('skipped');
    expect(JSON.stringify(row)).not.toContain('Secret launch');
  });

  it('when a task turns private after a member was mentioned on it, then no mail; a mention on a private task they may not see makes none at all', async () => {
    const t = await team();
    const task = (await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Board pack', brandId: t.brand.id, assigneeId: t.contributor.id, visibility: 'brand' })).body.task;
    await t.ws.as(t.contributor).post(`/api/tasks/${task.id}/comments`).send({ body: 'Ask @Lina Farah' });
    expect((await t.ws.as(t.manager).patch(`/api/tasks/${task.id}`).send({ visibility: 'private' })).status).toBe(200);
    expect(await t.mail.deliver()).toEqual([]);
    expect((await t.outbox()).map((r) => r.status)).toEqual(['skipped']);
    await t.ws.as(t.contributor).post(`/api/tasks/${task.id}/comments`).send({ body: 'Again @Lina Farah' });
    expect(await t.outbox()).toHaveLength(1);
  });
});

describe('the daily digest', () => {
  it('when 08:00 comes in each member’s time zone, then each gets one digest of what is still unread among their digest kinds, even with two schedulers', async () => {
    const t = await team();
    expect((await t.ws.as(t.contributor).patch(SETTINGS).send({ timeZone: 'America/New_York' })).status).toBe(200);
    const [one, two] = [t.digests(), t.digests()];
    // 12:00 UTC: 15:00 in Qatar, 07:00 in New York. First seen: nothing is sent yet.
    expect(await one.runDue()).toBe(0);

    const mine = await t.post(t.contributor, 'Opening');
    await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Brief', brandId: t.brand.id, assigneeId: t.contributor.id });
    await t.ws.as(t.manager).post(`/api/posts/${mine.id}/comments`).send({ body: 'Nice start' });
    await t.ws.as(t.manager).post(`/api/posts/${mine.id}/comments`).send({ body: 'And @Salma Haddad, the caption' });
    const theirs = await t.post(t.manager, 'Gallery tour');
    await t.ws.as(t.contributor).post(`/api/posts/${theirs.id}/comments`).send({ body: 'Love it' });
    await t.ws.as(t.admin).post('/api/tasks').send({ title: 'Already seen', brandId: t.brand.id, assigneeId: t.manager.id });
    const seen = (await t.ws.as(t.manager).get('/api/notifications')).body.notifications.find((n: { title: string }) => n.title === 'Already seen');
    await t.ws.as(t.manager).post('/api/notifications/read').send({ ids: [seen.id] });
    // The mention went at once.
    expect((await t.mail.deliver()).map((m) => m.to)).toEqual([[t.contributor.email]]);

    t.ws.clock.set(Date.UTC(2026, 0, 15, 12, 59));
    expect(await one.runDue()).toBe(0);
    t.ws.clock.set(Date.UTC(2026, 0, 15, 13, 0));
    expect(await one.runDue()).toBe(1);
    const [ny, ...notYet] = await t.mail.deliver();
    expect(notYet).toEqual([]);
    expect(ny.to).toEqual([t.contributor.email]);
    expect(ny.parsed.subject).toBe('Your daily summary from Museum Workspace');
    expect(ny.parsed.text).toContain('2 notifications are still unread');
    expect(ny.parsed.text).toContain(`${iso('Omar Khalil')} assigned you “${iso('Brief')}”`);
    expect(ny.parsed.text).toContain(`${iso('Omar Khalil')} commented on “${iso('Opening')}”`);
    expect(ny.parsed.text).not.toContain('mentioned you');
    expect(ny.parsed.text).toContain(`${t.url}/workspace?post=${mine.id}`);
    expect(unsubscribeToken(ny)).toMatch(new RegExp(`^${t.contributor.id}\\.digest\\.`));
    expect(header(ny, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    t.ws.clock.set(Date.UTC(2026, 0, 16, 4, 59));
    expect(await one.runDue()).toBe(0);
    t.ws.clock.set(Date.UTC(2026, 0, 16, 5, 0));
    const written = await Promise.all([one.runDue(), two.runDue()]);
    expect(written[0] + written[1]).toBe(1);
    const [qatar, ...others] = await t.mail.deliver();
    expect(others).toEqual([]);
    expect(qatar.to).toEqual([t.manager.email]);
    expect(qatar.parsed.text).toContain('1 notification is still unread');
    expect(qatar.parsed.text).toContain(`${iso('Salma Haddad')} commented on “${iso('Gallery tour')}”`);
    expect(qatar.parsed.text).not.toContain('Already seen');
    expect(await Promise.all([one.runDue(), two.runDue()])).toEqual([0, 0]);

    // New York's next morning: nothing new is unread, so no mail.
    t.ws.clock.set(Date.UTC(2026, 0, 16, 13, 0));
    expect(await one.runDue()).toBe(0);
    expect(await t.mail.deliver()).toEqual([]);
    expect((await t.outbox()).filter((r) => r.kind === 'digest')).toHaveLength(2);
  });

  it('when the member reads the notifications or leaves the brand between the queueing and the send, then the digest is not sent', async () => {
    const t = await team();
    const digests = t.digests();
    t.ws.clock.set(Date.UTC(2026, 0, 15, 3, 0));
    await digests.runDue();
    await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Hidden brief', brandId: t.brand.id, assigneeId: t.contributor.id });
    await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Read brief', brandId: t.brand.id, assigneeId: t.colleague.id });
    t.ws.clock.set(Date.UTC(2026, 0, 15, 5, 0));
    expect(await digests.runDue()).toBe(2);
    await t.ws.as(t.admin).patch(`/api/members/${t.contributor.id}`).send({ brandIds: [t.other.id] });
    await t.ws.as(t.colleague).post('/api/notifications/read').send({ all: true });
    expect(await t.mail.deliver()).toEqual([]);
    const rows = (await t.outbox()).filter((r) => r.kind === 'digest');
    expect(rows.map((r) => r.status)).toEqual(['skipped', 'skipped']);
    expect(JSON.stringify(rows)).not.toContain('Hidden brief');
  });

  it('when the digest is in Arabic, then it reads right to left and counts in Arabic plural forms', async () => {
    const t = await team();
    await t.ws.members.update(t.contributor.id, { language: 'ar' });
    const digests = t.digests();
    t.ws.clock.set(Date.UTC(2026, 0, 15, 3, 0));
    await digests.runDue();
    for (const title of ['Brief', 'Poster']) await t.ws.as(t.manager).post('/api/tasks').send({ title, brandId: t.brand.id, assigneeId: t.contributor.id });
    t.ws.clock.set(Date.UTC(2026, 0, 15, 5, 0));
    await digests.runDue();
    const [sent] = await t.mail.deliver();
    expect(sent.parsed.subject).toBe('ملخصك اليومي من مساحة عمل المتحف');
    expect(sent.parsed.html).toContain('<html lang="ar" dir="rtl">');
    expect(sent.parsed.text).toContain('إشعاران لم تقرأهما بعد');
  });
});

describe('/api/mail/unsubscribe (RFC 8058)', () => {
  it('when a mail program posts the link with no cookie, from elsewhere, then 200 and that kind comes in the app only; the next one sends no mail', async () => {
    const t = await team();
    await t.post(t.contributor, 'Opening night', 'review');
    const [sent] = await t.mail.deliver();
    const res = await unsubscribe(t.ws.app, unsubscribeToken(sent));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, unsubscribed: 'review_requested' });
    expect((await t.ws.as(t.manager).get(SETTINGS)).body.settings).toEqual({ ...DEFAULT_NOTIFICATION_DELIVERIES, review_requested: 'app' });
    await t.post(t.contributor, 'Closing night', 'review');
    expect(await t.mail.deliver()).toEqual([]);
    expect((await unsubscribe(t.ws.app, unsubscribeToken(sent))).status).toBe(200);
  });

  it('when the link is opened (GET, as a scanner would), then a page whose button posts, and nothing changes; its button then unsubscribes', async () => {
    const t = await team();
    await t.post(t.contributor, 'Opening night', 'review');
    const [sent] = await t.mail.deliver();
    const token = unsubscribeToken(sent);
    const before = await snapshot(t.ws);
    const page = await request(t.ws.app).get(`/api/mail/unsubscribe?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<html lang="en" dir="ltr">');
    expect(page.text).toContain(`<form method="post" action="/api/mail/unsubscribe?token=${token}&amp;lang=en"`);
    expect(page.text).toContain('Review requests');
    expect(page.text.match(/<script\b[^>]*>/gi) ?? []).toEqual([]);
    expect((await request(t.ws.app).get(`/api/mail/unsubscribe?token=${token}&lang=ar`)).text).toContain('<html lang="ar" dir="rtl">');
    expect(await snapshot(t.ws)).toBe(before);
    const done = await request(t.ws.app).post(`/api/mail/unsubscribe?token=${token}&lang=en`).set({ Accept: 'text/html', 'Sec-Fetch-Site': 'same-origin' }).type('form').send('List-Unsubscribe=One-Click');
    expect(done.status).toBe(200);
    expect(done.text).toContain('data-unsubscribed');
    expect((await t.ws.as(t.manager).get(SETTINGS)).body.settings.review_requested).toBe('app');
  });

  it('when the digest’s link is posted, then every kind it gathered comes in the app only, and the kinds sent at once stay', async () => {
    const t = await team();
    await t.ws.as(t.contributor).patch(SETTINGS).send({ settings: { approved: 'email' } });
    const digests = t.digests();
    t.ws.clock.set(Date.UTC(2026, 0, 15, 3, 0));
    await digests.runDue();
    await t.ws.as(t.manager).post('/api/tasks').send({ title: 'Brief', brandId: t.brand.id, assigneeId: t.contributor.id });
    t.ws.clock.set(Date.UTC(2026, 0, 15, 5, 0));
    await digests.runDue();
    const [sent] = await t.mail.deliver();
    expect((await unsubscribe(t.ws.app, unsubscribeToken(sent))).body).toEqual({ ok: true, unsubscribed: 'digest' });
    expect((await t.ws.as(t.contributor).get(SETTINGS)).body.settings).toEqual({ mentioned: 'email', assigned: 'app', review_requested: 'email', approved: 'email', sent_back: 'app', commented: 'app' });
  });

  it('when the token is forged, altered, another member’s or a deleted member’s, then 404 (malformed or missing: 400) and nothing changes; GET shows a page saying so', async () => {
    const t = await team();
    await t.post(t.contributor, 'Opening night', 'review');
    const token = unsubscribeToken((await t.mail.deliver())[0]);
    const [id, scope, mac] = token.split('.');
    const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const gone = await t.ws.user('contributor', { brandIds: [t.brand.id] });
    await t.ws.members.delete(gone.id);
    const before = await snapshot(t.ws);
    const cases: [string, number][] = [
      [`${id}.${scope}.${flipped}`, 404],
      [`${t.colleague.id}.${scope}.${mac}`, 404],
      [`${id}.digest.${mac}`, 404],
      [`${id}.mentioned.${mac}`, 404],
      [`${gone.id}.${scope}.${mac}`, 404],
      [`${id}.liked.${mac}`, 400],
      [`${id}.${scope}`, 400],
      ['', 400],
    ];
    for (const [forged, status] of cases) {
      const res = await unsubscribe(t.ws.app, forged);
      expect(res.status, forged).toBe(status);
      expect(res.body.code, forged).toBe(status === 404 ? 'UNSUBSCRIBE_LINK_INVALID' : 'VALIDATION');
      const page = await request(t.ws.app).get(`/api/mail/unsubscribe?token=${encodeURIComponent(forged)}`);
      expect(page.status, forged).toBe(404);
      expect(page.text).toContain('data-unsubscribe-invalid');
      expect(page.text).not.toContain('<form');
    }
    expect((await request(t.ws.app).post('/api/mail/unsubscribe')).status).toBe(400);
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when a cookie comes along from another site, then the exemption stays this route’s alone: the outbox’s own writes still answer 403 CSRF', async () => {
    const t = await team();
    await t.post(t.contributor, 'Opening night', 'review');
    const [sent] = await t.mail.deliver();
    const { cookie } = await t.ws.signIn(t.admin.email);
    const [row] = await t.outbox();
    const retry = await request(t.ws.app).post(`/api/mail/${row.id}/retry`).set({ Cookie: cookie, Origin: 'https://evil.example' });
    expect([retry.status, retry.body.code]).toEqual([403, 'CSRF']);
    const res = await request(t.ws.app).post(`/api/mail/unsubscribe?token=${unsubscribeToken(sent)}`).set({ Cookie: cookie, Origin: 'https://evil.example' });
    expect(res.status).toBe(200);
    // The cookie spoke for no one: the link's member was unsubscribed, not the one signed in.
    expect((await t.ws.as(t.admin).get(SETTINGS)).body.settings.review_requested).toBe('email');
    expect((await t.ws.as(t.manager).get(SETTINGS)).body.settings.review_requested).toBe('app');
  });
});
