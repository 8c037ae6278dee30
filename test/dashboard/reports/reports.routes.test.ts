import { describe, expect, it } from 'vitest';
import { createDashboardReports } from '../../../src/dashboard';
import { createI18n } from '../../../src/platform/i18n';
import { createLogger } from '../../../src/platform/logger';
import { dashboardMailFor } from '../../support/mail';
import { ALPHA, BETA, GAMMA, dataApp, expectedTotals } from '../fixtures';

const q = encodeURIComponent;
type App = Awaited<ReturnType<typeof dataApp>>;

/** Sunday 7 January 2024, 07:00 in Doha (UTC+3). */
const SUNDAY_SEVEN = Date.UTC(2024, 0, 7, 4);
/** Thursday 4 January 2024, noon in Doha: reports made then start with Sunday's. */
const THURSDAY = Date.UTC(2024, 0, 4, 9);

let nextPin = 700_000;

/** A dashboard user of the records store (with an e-mail address unless told otherwise), signed in. */
async function person(t: App, opts: { museums?: string[]; role?: string; email?: string | null } = {}) {
  const pin = String((nextPin += 1));
  const record = await t.users.create({
    name: `Person ${pin}`,
    pin,
    role: opts.role ?? 'viewer',
    allowedMuseums: JSON.stringify(opts.museums ?? []),
    allowedChannels: '[]',
    ...(opts.email === null ? {} : { email: opts.email ?? `p${pin}@museum.test` }),
  });
  if (record === 'pin-taken') throw new Error(`PIN ${pin} is taken`);
  return { id: record.id, email: record.email, cookie: await t.signIn(pin) };
}

function scheduler(t: App) {
  return createDashboardReports({
    records: t.stores.records.dashboard,
    users: t.stores.dashboardUsers,
    clock: t.clock,
    logger: createLogger('silent'),
    timeZone: t.config.dashboardTimeZone,
    i18n: createI18n(),
  });
}

/** The outbox rows of the dashboard's records, oldest first. */
async function outbox(t: App) {
  return t.stores.records.dashboard.db.selectFrom('mail_outbox').select(['kind', 'to_address', 'user_id', 'params', 'status']).orderBy('id').execute();
}

describe('scheduled reports: the routes', () => {
  it('when there is no session, then every route answers 401', async () => {
    const t = await dataApp();
    expect((await t.get('/api/dashboard/reports')).status).toBe(401);
    expect((await t.send('post', '/api/dashboard/reports').send({ query: '', frequency: 'weekly', userId: 1 })).status).toBe(401);
    expect((await t.send('patch', '/api/dashboard/reports/1').send({ frequency: 'monthly' })).status).toBe(401);
    expect((await t.send('delete', '/api/dashboard/reports/1')).status).toBe(401);
    expect((await t.send('post', '/api/dashboard/reports/1/send')).status).toBe(401);
  });

  it('when a viewer schedules a report for themselves, then 201 answers it with its next send, and they alone (and administrators) see it', async () => {
    const t = await dataApp();
    t.clock.set(THURSDAY);
    const salma = await person(t);
    const other = await person(t);
    const admin = await t.admin();
    const res = await t.send('post', '/api/dashboard/reports', salma.cookie).send({ query: `?channel=Online&lang=ar`, frequency: 'weekly', userId: salma.id });
    expect(res.status).toBe(201);
    expect(res.body.report).toEqual({
      id: expect.any(Number),
      frequency: 'weekly',
      language: 'en',
      user: { id: salma.id, name: expect.stringMatching(/^Person /), email: salma.email },
      view: null,
      query: 'channel=Online',
      createdBy: expect.stringMatching(/^Person /),
      createdAt: new Date(THURSDAY).toISOString(),
      next: { day: '2024-01-07', time: '07:00', timeZone: 'Asia/Qatar' },
      can: { edit: true, delete: true, send: true },
    });
    const id = res.body.report.id as number;
    expect((await t.get('/api/dashboard/reports', salma.cookie)).body.reports.map((r: { id: number }) => r.id)).toEqual([id]);
    expect((await t.get('/api/dashboard/reports', other.cookie)).body.reports).toEqual([]);
    expect((await t.get('/api/dashboard/reports', admin)).body.reports.map((r: { id: number }) => r.id)).toEqual([id]);

    const monthly = await t.send('patch', `/api/dashboard/reports/${id}`, salma.cookie).send({ frequency: 'monthly', language: 'ar' });
    expect(monthly.status).toBe(200);
    expect(monthly.body.report).toMatchObject({ frequency: 'monthly', language: 'ar', next: { day: '2024-02-01' } });
    // Without a language in the body, the report goes in the language of the page that asked.
    const arabic = await t.send('post', '/api/dashboard/reports', `${salma.cookie}; lang=ar`).send({ query: '', frequency: 'weekly', userId: salma.id });
    expect(arabic.body.report.language).toBe('ar');
    expect((await t.send('delete', `/api/dashboard/reports/${arabic.body.report.id}`, salma.cookie)).status).toBe(200);
    expect((await t.send('delete', `/api/dashboard/reports/${id}`, salma.cookie)).body).toEqual({ ok: true });
    expect((await t.get('/api/dashboard/reports', salma.cookie)).body.reports).toEqual([]);
    expect((await t.send('delete', `/api/dashboard/reports/${id}`, salma.cookie)).status).toBe(404);
  });

  it("when a viewer names someone else as recipient, then 403 NOT_REPORT_RECIPIENT; someone else's report is 404 to them; an administrator schedules for anyone", async () => {
    const t = await dataApp();
    const salma = await person(t);
    const omar = await person(t);
    const admin = await t.admin();
    const refused = await t.send('post', '/api/dashboard/reports', salma.cookie).send({ query: '', frequency: 'weekly', userId: omar.id });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('NOT_REPORT_RECIPIENT');
    const made = await t.send('post', '/api/dashboard/reports', admin).send({ query: 'range=last30', frequency: 'monthly', userId: omar.id, language: 'ar' });
    expect(made.status).toBe(201);
    const id = made.body.report.id as number;
    expect((await t.send('patch', `/api/dashboard/reports/${id}`, salma.cookie).send({ frequency: 'weekly' })).status).toBe(404);
    expect((await t.send('delete', `/api/dashboard/reports/${id}`, salma.cookie)).status).toBe(404);
    expect((await t.send('post', `/api/dashboard/reports/${id}/send`, salma.cookie)).status).toBe(404);
    // Omar may not hand his report to Salma either.
    expect((await t.send('patch', `/api/dashboard/reports/${id}`, omar.cookie).send({ userId: salma.id })).status).toBe(403);
    expect((await t.get('/api/dashboard/reports', omar.cookie)).body.reports).toEqual([expect.objectContaining({ id, language: 'ar', can: { edit: true, delete: true, send: true } })]);
    expect((await t.send('patch', `/api/dashboard/reports/${id}`, admin).send({ userId: salma.id })).body.report.user.id).toBe(salma.id);
    expect((await t.get('/api/dashboard/reports', omar.cookie)).body.reports).toEqual([]);
    expect(await outbox(t)).toEqual([]);
  });

  it.each([
    ['no viewId nor query', { frequency: 'weekly' }],
    ['both viewId and query', { viewId: 1, query: '', frequency: 'weekly' }],
    ['a frequency of daily', { query: '', frequency: 'daily' }],
    ['a query the Dashboard does not write', { query: 'colour=red', frequency: 'weekly' }],
    ['a query too long', { query: `museum=${'x'.repeat(4001)}`, frequency: 'weekly' }],
    ['a key of its own', { query: '', frequency: 'weekly', lastPeriod: '2030-01-01' }],
    ['a language nobody reads', { query: '', frequency: 'weekly', language: 'fr' }],
  ])('when the body has %s, then 400 and nothing is saved', async (_, body) => {
    const t = await dataApp();
    const salma = await person(t);
    const res = await t.send('post', '/api/dashboard/reports', salma.cookie).send({ userId: salma.id, ...body });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual(expect.any(String));
    expect((await t.get('/api/dashboard/reports', salma.cookie)).body.reports).toEqual([]);
  });

  it('when the recipient has no e-mail address or is no user, then 400 names the field, and nothing is saved', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const bare = await person(t, { email: null });
    const none = await t.send('post', '/api/dashboard/reports', admin).send({ query: '', frequency: 'weekly', userId: bare.id });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'RECIPIENT_NO_EMAIL', details: { issues: [{ path: 'body.userId' }] } });
    const missing = await t.send('post', '/api/dashboard/reports', admin).send({ query: '', frequency: 'weekly', userId: 999_999 });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('REPORT_RECIPIENT');
    expect((await t.get('/api/dashboard/reports', admin)).body.reports).toEqual([]);
  });

  it("when a report names a saved view, then it must be one the recipient may open, of the Dashboard page; someone else's private view is refused", async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const salma = await person(t);
    const omar = await person(t);
    const view = async (cookie: string, body: object) => (await t.send('post', '/api/dashboard/views', cookie).send(body)).body.view.id as number;
    const omarsOwn = await view(omar.cookie, { name: 'Mine', query: 'channel=Online' });
    const shared = await view(admin, { name: 'Everyone', query: `museum=${q(ALPHA)}`, shared: true });
    const comparison = await view(salma.cookie, { name: 'Years', query: 'a=2024&b=2025', page: 'comparison' });
    const post = (body: object) => t.send('post', '/api/dashboard/reports', salma.cookie).send({ frequency: 'weekly', userId: salma.id, ...body });
    expect((await post({ viewId: omarsOwn })).body.code).toBe('REPORT_VIEW');
    expect((await post({ viewId: comparison })).body.code).toBe('REPORT_VIEW');
    expect((await post({ viewId: 999_999 })).status).toBe(400);
    // An administrator may not send Omar's private view to Salma.
    expect((await t.send('post', '/api/dashboard/reports', admin).send({ viewId: omarsOwn, frequency: 'weekly', userId: salma.id })).status).toBe(400);
    const ok = await post({ viewId: shared });
    expect(ok.status).toBe(201);
    expect(ok.body.report).toMatchObject({ view: { id: shared, name: 'Everyone' }, query: null });
  });

  it('when a report is sent now, then 202 and its mail is queued in the outbox for its recipient, the schedule unchanged', async () => {
    const t = await dataApp();
    t.clock.set(THURSDAY);
    const salma = await person(t);
    const id = (await t.send('post', '/api/dashboard/reports', salma.cookie).send({ query: '', frequency: 'weekly', userId: salma.id })).body.report.id as number;
    const res = await t.send('post', `/api/dashboard/reports/${id}/send`, salma.cookie);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ ok: true });
    expect(await outbox(t)).toEqual([{ kind: 'dashboard_report', to_address: salma.email, user_id: salma.id, params: JSON.stringify({ reportId: id, day: '2024-01-04' }), status: 'pending' }]);
    expect((await t.get('/api/dashboard/reports', salma.cookie)).body.reports[0].next.day).toBe('2024-01-07');
    expect((await t.send('post', '/api/dashboard/reports/999999/send', salma.cookie)).status).toBe(404);
    expect((await t.send('post', '/api/dashboard/reports/abc/send', salma.cookie)).status).toBe(400);
  });

  it('when a cookie-authenticated write comes from another site, then 403 and nothing is saved', async () => {
    const t = await dataApp();
    const salma = await person(t);
    const res = await t.get('/api/dashboard/reports', salma.cookie);
    expect(res.status).toBe(200);
    const cross = await t
      .send('post', '/api/dashboard/reports', salma.cookie)
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ query: '', frequency: 'weekly', userId: salma.id });
    expect(cross.status).toBe(403);
    expect((await t.get('/api/dashboard/reports', salma.cookie)).body.reports).toEqual([]);
  });
});

describe('scheduled reports: the schedule, with the clock moved by the test', () => {
  it('when Sunday 07:00 in Doha comes, then each weekly report is queued once; an earlier look, a second look and a second instance queue nothing', async () => {
    const t = await dataApp();
    t.clock.set(THURSDAY);
    const salma = await person(t);
    const admin = await t.admin();
    await t.send('post', '/api/dashboard/reports', salma.cookie).send({ query: '', frequency: 'weekly', userId: salma.id });
    await t.send('post', '/api/dashboard/reports', admin).send({ query: '', frequency: 'monthly', userId: salma.id });
    const one = scheduler(t);
    const two = scheduler(t);
    t.clock.set(SUNDAY_SEVEN - 60_000);
    expect(await one.runDue()).toBe(0);
    t.clock.set(SUNDAY_SEVEN);
    // Two instances look at the same moment: one mail.
    expect((await Promise.all([one.runDue(), two.runDue()])).reduce((a, b) => a + b)).toBe(1);
    expect(await one.runDue()).toBe(0);
    t.clock.set(SUNDAY_SEVEN + 6 * 86_400_000);
    expect(await two.runDue()).toBe(0);
    // Every instance was down on Sunday: the week's report goes once on Monday.
    t.clock.set(SUNDAY_SEVEN + 8 * 86_400_000);
    expect(await two.runDue()).toBe(1);
    expect(await one.runDue()).toBe(0);
    expect((await outbox(t)).map((m) => JSON.parse(m.params).day)).toEqual(['2024-01-07', '2024-01-14']);
  });

  it('when the 1st of the month comes at 07:00 in Doha (04:00 UTC), then a monthly report is queued once, not at 03:59 UTC', async () => {
    const t = await dataApp();
    t.clock.set(THURSDAY);
    const salma = await person(t);
    await t.send('post', '/api/dashboard/reports', salma.cookie).send({ query: '', frequency: 'monthly', userId: salma.id });
    const run = scheduler(t);
    t.clock.set(Date.UTC(2024, 1, 1, 3, 59));
    expect(await run.runDue()).toBe(0);
    t.clock.set(Date.UTC(2024, 1, 1, 4, 0));
    expect(await run.runDue()).toBe(1);
    expect(await run.runDue()).toBe(0);
    expect((await outbox(t)).map((m) => JSON.parse(m.params).day)).toEqual(['2024-02-01']);
  });

  it('when the recipient has lost their address by the report day, then that period is passed over and nothing is written', async () => {
    const t = await dataApp();
    t.clock.set(THURSDAY);
    const salma = await person(t);
    await t.send('post', '/api/dashboard/reports', salma.cookie).send({ query: '', frequency: 'weekly', userId: salma.id });
    await t.users.update(salma.id, { email: '' });
    t.clock.set(SUNDAY_SEVEN);
    expect(await scheduler(t).runDue()).toBe(0);
    expect(await outbox(t)).toEqual([]);
  });
});

// A test SMTP server and a mail worker each: more than the default on a busy machine.
describe('scheduled reports: the mail', { timeout: 60_000 }, () => {
  it('when a monthly report goes, then its mail has the headline figures, the change, a link and the CSV of the month, in English', async () => {
    const t = await dataApp();
    t.clock.set(THURSDAY);
    const mail = await dashboardMailFor(t);
    const salma = await person(t);
    await t.send('post', '/api/dashboard/reports', salma.cookie).send({ query: 'channel=Online&range=last7', frequency: 'monthly', userId: salma.id });
    t.clock.set(Date.UTC(2024, 1, 1, 4));
    expect(await scheduler(t).runDue()).toBe(1);
    const [received] = await mail.deliver();
    expect(received.to).toEqual([salma.email]);
    const january = expectedTotals((r) => r.channel === 'Online' && r.date.startsWith('2024-01'));
    expect(january.visitors).toBe(30);
    expect(received.parsed.subject).toMatch(/^\u2068Dashboard\u2069: visitors Jan 1\s?–\s?31, 2024$/);
    const text = received.parsed.text ?? '';
    expect(text).toContain('Visitors: 30');
    expect(text).toContain('Revenue: QAR');
    expect(text).toContain('/dashboard?channel=Online&range=last7');
    expect(received.parsed.html).toContain('lang="en"');
    const [file] = received.parsed.attachments;
    expect(file.filename).toMatch(/\.csv$/);
    expect(file.contentType).toBe('text/csv');
    const csv = file.content.toString('utf8');
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.trim().split('\r\n');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(['2024-01-01', '2024-01-01']);
  });

  it("when the recipient lost a museum after the report was set up, then the mail and its CSV hold only what they may see when it is written, in Arabic", async () => {
    const t = await dataApp();
    t.clock.set(THURSDAY);
    const mail = await dashboardMailFor(t);
    const admin = await t.admin();
    const omar = await person(t, { museums: [ALPHA, BETA] });
    const id = (await t.send('post', '/api/dashboard/reports', admin).send({ query: '', frequency: 'weekly', userId: omar.id, language: 'ar' })).body.report.id as number;
    expect((await t.send('patch', `/api/users/${omar.id}`, admin).send({ allowedMuseums: [ALPHA] })).status).toBe(200);
    t.clock.set(SUNDAY_SEVEN);
    expect(await scheduler(t).runDue()).toBe(1);
    const [received] = await mail.deliver();
    // 31 Dec – 6 Jan: Alpha's 10 of the 1st, never Beta's 20.
    expect(received.parsed.html).toContain('dir="rtl"');
    expect(received.parsed.html).toContain('lang="ar"');
    const text = received.parsed.text ?? '';
    const ar = createI18n().getFixedT('ar');
    const visitors = (n: number) => ar('dashboard.mail.report.visitors', { value: new Intl.NumberFormat('ar', { maximumFractionDigits: 0 }).format(n) });
    expect(text).toContain(visitors(10));
    expect(text).not.toContain(visitors(30));
    const csv = received.parsed.attachments[0].content.toString('utf8');
    expect(csv).toContain(ALPHA);
    expect(csv).not.toContain(BETA);
    expect(csv).not.toContain(GAMMA);
    // Sent by hand, the same: what Omar may see now.
    expect((await t.send('post', `/api/dashboard/reports/${id}/send`, admin)).status).toBe(202);
    const [again] = await mail.deliver();
    expect(again.parsed.attachments[0].content.toString('utf8')).not.toContain(BETA);
  });

  it('when the report was deleted, or its view made private by its owner, before its mail is written, then nothing is sent', async () => {
    const t = await dataApp();
    t.clock.set(THURSDAY);
    const mail = await dashboardMailFor(t);
    const admin = await t.admin();
    const salma = await person(t);
    const viewId = (await t.send('post', '/api/dashboard/views', admin).send({ name: 'Alpha', query: `museum=${q(ALPHA)}`, shared: true })).body.view.id as number;
    const byView = (await t.send('post', '/api/dashboard/reports', salma.cookie).send({ viewId, frequency: 'weekly', userId: salma.id })).body.report.id as number;
    const plain = (await t.send('post', '/api/dashboard/reports', salma.cookie).send({ query: '', frequency: 'weekly', userId: salma.id })).body.report.id as number;
    expect((await t.send('post', `/api/dashboard/reports/${byView}/send`, salma.cookie)).status).toBe(202);
    expect((await t.send('post', `/api/dashboard/reports/${plain}/send`, salma.cookie)).status).toBe(202);
    await t.send('patch', `/api/dashboard/views/${viewId}`, admin).send({ shared: false });
    await t.send('delete', `/api/dashboard/reports/${plain}`, salma.cookie);
    expect(await mail.deliver()).toEqual([]);
    expect((await outbox(t)).map((m) => m.status)).toEqual(['skipped', 'skipped']);
  });
});
