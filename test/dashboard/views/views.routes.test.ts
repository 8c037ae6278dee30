import { describe, expect, it } from 'vitest';
import { request } from '../../support/http';
import { ALPHA, BETA, GAMMA, ROWS, dataApp, expectedTotals, exportedRows } from '../fixtures';

const q = encodeURIComponent;
type App = Awaited<ReturnType<typeof dataApp>>;

async function save(t: App, cookie: string, body: object) {
  return t.send('post', '/api/dashboard/views', cookie).send(body);
}

describe('saved views: the routes', () => {
  it('when there is no session, then every route answers 401', async () => {
    const t = await dataApp();
    expect((await t.get('/api/dashboard/views')).status).toBe(401);
    expect((await t.get('/api/dashboard/views/1')).status).toBe(401);
    expect((await t.send('post', '/api/dashboard/views').send({ name: 'x', query: '' })).status).toBe(401);
    expect((await t.send('patch', '/api/dashboard/views/1').send({ name: 'x' })).status).toBe(401);
    expect((await t.send('delete', '/api/dashboard/views/1')).status).toBe(401);
    expect((await t.get('/api/dashboard/summary?view=1')).status).toBe(401);
  });

  it('when a viewer saves a view, then 201 answers it whole, and it is theirs alone until shared', async () => {
    const t = await dataApp();
    t.clock.set(Date.UTC(2026, 10, 26, 9));
    const salma = await t.viewer('[]');
    const other = await t.viewer('[]');
    const res = await save(t, salma, { name: 'Online in 2024', query: `?year=2024&channel=Online&lang=ar` });
    expect(res.status).toBe(201);
    expect(res.body.view).toEqual({
      id: expect.any(Number),
      name: 'Online in 2024',
      page: 'dashboard',
      query: 'year=2024&channel=Online',
      shared: false,
      owner: { name: expect.stringMatching(/^Viewer /) },
      mine: true,
      can: { edit: true, delete: true },
      unseen: 0,
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
    });
    const id = res.body.view.id;
    expect((await t.get('/api/dashboard/views', salma)).body.views.map((v: { id: number }) => v.id)).toEqual([id]);
    expect((await t.get('/api/dashboard/views', other)).body.views).toEqual([]);
    // Someone else's private view is not there for them at all.
    expect((await t.get(`/api/dashboard/views/${id}`, other)).status).toBe(404);
    expect((await t.send('patch', `/api/dashboard/views/${id}`, other).send({ name: 'Mine now' })).status).toBe(404);
    expect((await t.send('delete', `/api/dashboard/views/${id}`, other)).status).toBe(404);
    expect((await t.get(`/api/dashboard/summary?view=${id}`, other)).status).toBe(404);

    const shared = await t.send('patch', `/api/dashboard/views/${id}`, salma).send({ shared: true });
    expect(shared.body.view).toMatchObject({ shared: true, name: 'Online in 2024' });
    const seen = (await t.get('/api/dashboard/views', other)).body.views;
    expect(seen).toEqual([expect.objectContaining({ id, mine: false, can: { edit: false, delete: false } })]);
    expect((await t.send('patch', `/api/dashboard/views/${id}`, other).send({ name: 'Mine now' })).body.code).toBe('NOT_VIEW_OWNER');
    expect((await t.send('delete', `/api/dashboard/views/${id}`, other)).status).toBe(403);
  });

  it("when an administrator's shared view names a museum the viewer may not see, then the viewer's figures are empty, never the administrator's", async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const view = (await save(t, admin, { name: 'Beta', query: `museum=${q(BETA)}`, shared: true })).body.view;
    const asAdmin = await t.get(`/api/dashboard/summary?view=${view.id}`, admin);
    expect(asAdmin.body.totals).toEqual(expectedTotals((r) => r.museum === BETA));
    const asViewer = await t.get(`/api/dashboard/summary?view=${view.id}`, viewer);
    expect(asViewer.status).toBe(200);
    expect(asViewer.body.totals).toEqual({ visitors: 0, revenue: 0, days: 0 });
    expect(asViewer.body.byMuseum).toEqual([]);
    expect(JSON.stringify(asViewer.body)).not.toContain(BETA);
    const file = await t.get(`/api/dashboard/export.csv?view=${view.id}`, viewer);
    expect(exportedRows(file.text)).toEqual([]);
    expect((await t.get('/api/dashboard/views', viewer)).body.views[0]).toMatchObject({ id: view.id, unseen: 1, mine: false });
  });

  it('when a shared view names museums of which the viewer may see some, then they see only those', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    const view = (await save(t, admin, { name: 'Alpha and Beta', query: `museum=${q(ALPHA)}&museum=${q(BETA)}&channel=Online`, shared: true })).body.view;
    const res = await t.get(`/api/dashboard/summary?view=${view.id}`, viewer);
    expect(res.body.totals).toEqual(expectedTotals((r) => r.museum === ALPHA && r.channel === 'Online'));
    expect(res.body.byMuseum.map((b: { key: string }) => b.key)).toEqual([ALPHA]);
  });

  it("when the viewer's access changes after the view was saved, then it opens under the access they have now", async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const viewer = await t.viewer(JSON.stringify([ALPHA, BETA]));
    const users = (await t.get('/api/users', admin)).body.users as { id: number; allowedMuseums: string[] }[];
    const record = users.find((u) => u.allowedMuseums.includes(BETA))!;
    const view = (await save(t, viewer, { name: 'Beta', query: `museum=${q(BETA)}` })).body.view;
    expect((await t.get(`/api/dashboard/summary?view=${view.id}`, viewer)).body.totals.visitors).toBe(23);
    expect((await t.send('patch', `/api/users/${record.id}`, admin).send({ allowedMuseums: [ALPHA] })).status).toBe(200);
    expect((await t.get(`/api/dashboard/summary?view=${view.id}`, viewer)).body.totals).toEqual({ visitors: 0, revenue: 0, days: 0 });
  });

  it('when a view holds a named period, a grouping and drill-down steps, then it opens as the page showed it, the period worked out on the day it is opened', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const rolling = (await save(t, admin, { name: 'Last 30', query: 'range=last30&granularity=week' })).body.view;
    t.clock.set(Date.UTC(2024, 1, 3, 12));
    const early = await t.get(`/api/dashboard/summary?view=${rolling.id}`, admin);
    expect(early.body.range).toEqual({ start: '2024-01-04', end: '2024-02-02' });
    expect(early.body.granularity).toBe('week');
    t.clock.set(Date.UTC(2024, 1, 5, 12));
    expect((await t.get(`/api/dashboard/summary?view=${rolling.id}`, admin)).body.range).toEqual({ start: '2024-01-06', end: '2024-02-04' });

    const drilled = (await save(t, admin, { name: 'Alpha online, January', query: `year=2024&granularity=month&drill=${q(`museum:${ALPHA}`)}&drill=${q('range:2024-01-01..2024-01-31')}&drill=channel%3AOnline&metric=revenue&yearEarlier=1` })).body.view;
    const res = await t.get(`/api/dashboard/summary?view=${drilled.id}`, admin);
    expect(res.body.totals).toEqual(expectedTotals((r) => r.museum === ALPHA && r.channel === 'Online' && r.date >= '2024-01-01' && r.date <= '2024-01-31'));
    expect(res.body.granularity).toBe('day');
  });

  it('when a comparison is saved, then compare and compare.csv answer it with view=<id>, as they answer its address', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const address = `a=2024&b=2025&museum=${q(ALPHA)}&metric=revenue`;
    const view = (await save(t, admin, { name: 'Alpha, year on year', query: address, page: 'comparison' })).body.view;
    const direct = await t.get(`/api/dashboard/compare?a=2024&b=2025&museum=${q(ALPHA)}`, admin);
    const saved = await t.get(`/api/dashboard/compare?view=${view.id}`, admin);
    expect(saved.body).toEqual(direct.body);
    const file = await t.get(`/api/dashboard/compare.csv?view=${view.id}`, admin);
    expect(file.text).toBe((await t.get(`/api/dashboard/compare.csv?a=2024&b=2025&museum=${q(ALPHA)}`, admin)).text);
    const ranged = (await save(t, admin, { name: 'Q1 against last year', query: 'against=year&from=2025-01-01&to=2025-03-31', page: 'comparison' })).body.view;
    expect((await t.get(`/api/dashboard/compare?view=${ranged.id}`, admin)).body.b).toMatchObject({ start: '2025-01-01', end: '2025-03-31' });
    // A view is read by the page it was saved from.
    const wrong = await t.get(`/api/dashboard/summary?view=${view.id}`, admin);
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('VIEW_PAGE');
    expect((await t.get('/api/dashboard/compare?view=987654', admin)).status).toBe(404);
  });

  it.each([
    ['an unknown parameter', { name: 'x', query: 'allowedMuseums=%5B%5D' }],
    ['a malformed year', { name: 'x', query: 'year=24' }],
    ['a range ending before it starts', { name: 'x', query: 'from=2025-02-01&to=2025-01-01' }],
    ['a malformed drill-down step', { name: 'x', query: 'drill=planet%3AMars' }],
    ['an unknown period', { name: 'x', query: 'range=forever' }],
    ['a comparison on the Dashboard', { name: 'x', query: 'a=2024&b=2025' }],
    ['one side of a comparison', { name: 'x', query: 'a=2024', page: 'comparison' }],
    ['a view inside a view', { name: 'x', query: 'view=3' }],
  ])('when the address holds %s, then 400 VIEW_QUERY and nothing is saved', async (_what, body) => {
    const t = await dataApp();
    const admin = await t.admin();
    const res = await save(t, admin, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VIEW_QUERY');
    expect(res.body.details.issues[0].path).toMatch(/^body\.query/);
    expect((await t.get('/api/dashboard/views', admin)).body.views).toEqual([]);
  });

  it.each([
    ['no name', { query: '' }],
    ['an empty name', { name: '', query: '' }],
    ['a name of two lines', { name: 'a\nb', query: '' }],
    ['a name too long', { name: 'x'.repeat(201), query: '' }],
    ['an address too long', { name: 'x', query: `museum=${'x'.repeat(4000)}` }],
    ['an unknown page', { name: 'x', query: '', page: 'settings' }],
    ['an unknown field', { name: 'x', query: '', figures: { visitors: 1 } }],
    ['shared as text', { name: 'x', query: '', shared: 'yes' }],
  ])('when the body has %s, then 400 VALIDATION', async (_what, body) => {
    const t = await dataApp();
    const res = await save(t, await t.admin(), body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
  });

  it('when a change would make the address wrong for its page, then 400 and the view stays as it was', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const view = (await save(t, admin, { name: 'Years', query: 'a=2024&b=2025', page: 'comparison' })).body.view;
    const res = await t.send('patch', `/api/dashboard/views/${view.id}`, admin).send({ page: 'dashboard' });
    expect(res.body.code).toBe('VIEW_QUERY');
    expect((await t.get(`/api/dashboard/views/${view.id}`, admin)).body.view).toMatchObject({ page: 'comparison', query: 'a=2024&b=2025' });
    expect((await t.send('patch', `/api/dashboard/views/${view.id}`, admin).send({})).status).toBe(400);
  });

  it("when an administrator meets another's shared view, then they may change or delete it; another's private view stays out of their reach", async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const viewer = await t.viewer('[]');
    const shared = (await save(t, viewer, { name: 'Team view', query: 'year=2025', shared: true })).body.view;
    const own = (await save(t, viewer, { name: 'Just mine', query: 'year=2024' })).body.view;
    const list = (await t.get('/api/dashboard/views', admin)).body.views;
    expect(list.map((v: { id: number }) => v.id)).toEqual([shared.id]);
    expect(list[0].can).toEqual({ edit: true, delete: true });
    expect((await t.send('patch', `/api/dashboard/views/${shared.id}`, admin).send({ name: 'Team view (2025)' })).body.view.name).toBe('Team view (2025)');
    expect((await t.send('delete', `/api/dashboard/views/${own.id}`, admin)).status).toBe(404);
    expect((await t.send('delete', `/api/dashboard/views/${shared.id}`, admin)).body).toEqual({ ok: true });
    expect((await t.get(`/api/dashboard/views/${shared.id}`, viewer)).status).toBe(404);
  });

  it('when a data route is given a view and filters together, then 400; an unknown view, 404', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const view = (await save(t, admin, { name: 'All', query: '' })).body.view;
    for (const path of [`/api/dashboard/summary?view=${view.id}&museum=${q(GAMMA)}`, `/api/dashboard/export.csv?view=${view.id}&year=2024`, `/api/dashboard/summary?view=${view.id}&granularity=day`, `/api/dashboard/compare?view=${view.id}&against=year`, '/api/dashboard/summary?view=0']) {
      expect((await t.get(path, admin)).status, path).toBe(400);
    }
    expect((await t.get('/api/dashboard/summary?view=999', admin)).body.code).toBe('VIEW_NOT_FOUND');
    const opened = await t.get(`/api/dashboard/summary?view=${view.id}&weekStart=sunday&earlier=year`, admin);
    expect(opened.body.totals).toEqual(expectedTotals(() => true, ROWS));
  });

  it('when a write comes from another site, then 403 CSRF and nothing is saved', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const res = await request(t.app).post('/api/dashboard/views').set('Cookie', admin).set('Origin', 'https://evil.example').send({ name: 'x', query: '' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('CSRF');
    expect((await t.get('/api/dashboard/views', admin)).body.views).toEqual([]);
  });
});
