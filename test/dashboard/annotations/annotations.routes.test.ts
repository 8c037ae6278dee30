import { describe, expect, it } from 'vitest';
import { ALPHA, BETA, GAMMA, dataApp } from '../fixtures';

type App = Awaited<ReturnType<typeof dataApp>>;

const note = (t: App, cookie: string, body: object) => t.send('post', '/api/dashboard/annotations', cookie).send(body);
const listOf = async (t: App, cookie: string, query = '') => (await t.get(`/api/dashboard/annotations${query}`, cookie)).body.annotations as { id: number; text: string }[];

describe('annotations: notes on the trend', () => {
  it('when there is no session, then 401; when a viewer writes, then 403 and nothing is written', async () => {
    const t = await dataApp();
    expect((await t.get('/api/dashboard/annotations')).status).toBe(401);
    const viewer = await t.viewer('[]');
    const res = await note(t, viewer, { date: '2025-01-01', text: 'Closed for a storm' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ADMIN_ONLY');
    expect(await listOf(t, await t.admin())).toEqual([]);
    const admin = await t.admin();
    const made = (await note(t, admin, { date: '2025-01-01', text: 'Open late' })).body.annotation;
    expect((await t.send('patch', `/api/dashboard/annotations/${made.id}`, viewer).send({ text: 'x' })).status).toBe(403);
    expect((await t.send('delete', `/api/dashboard/annotations/${made.id}`, viewer)).status).toBe(403);
  });

  it('when an administrator adds, changes and deletes a note, then each answers it and the audit trail has each step', async () => {
    const t = await dataApp();
    t.clock.set(Date.UTC(2026, 10, 26, 9));
    const admin = await t.admin();
    const created = await note(t, admin, { date: '2025-02-10', endDate: '2025-02-12', text: '  Winter campaign  ', museum: ALPHA });
    expect(created.status).toBe(201);
    expect(created.body.annotation).toEqual({
      id: expect.any(Number),
      date: '2025-02-10',
      endDate: '2025-02-12',
      text: 'Winter campaign',
      museum: ALPHA,
      createdBy: 'Admin',
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
    });
    const id = created.body.annotation.id;
    const changed = await t.send('patch', `/api/dashboard/annotations/${id}`, admin).send({ endDate: null, museum: null });
    expect(changed.body.annotation).toMatchObject({ date: '2025-02-10', endDate: null, museum: null, text: 'Winter campaign' });
    expect((await t.send('delete', `/api/dashboard/annotations/${id}`, admin)).body).toEqual({ ok: true });
    expect((await t.send('delete', `/api/dashboard/annotations/${id}`, admin)).status).toBe(404);
    const events = (await t.get('/api/audit', admin)).body.events as { action: string; target: string; before?: object; after?: object }[];
    const trail = events.filter((e) => e.action.startsWith('annotation')).reverse();
    expect(trail.map((e) => e.action)).toEqual(['annotationCreated', 'annotationChanged', 'annotationDeleted']);
    expect(trail[1]).toMatchObject({ target: `annotation:${id}`, before: { museum: ALPHA, endDate: '2025-02-12' }, after: { museum: null, endDate: null } });
  });

  it('when a viewer reads the notes, then they get those about every museum and about museums they may see, never another museum\'s', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    await note(t, admin, { date: '2025-01-01', text: 'New year' });
    await note(t, admin, { date: '2025-01-02', text: 'Alpha closed', museum: ALPHA });
    await note(t, admin, { date: '2025-01-03', text: 'Beta refit', museum: BETA });
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    expect((await listOf(t, viewer)).map((n) => n.text)).toEqual(['New year', 'Alpha closed']);
    expect((await listOf(t, admin)).map((n) => n.text)).toEqual(['New year', 'Alpha closed', 'Beta refit']);
    // Asking for another museum's notes does not widen anything.
    expect((await listOf(t, viewer, `?museum=${encodeURIComponent(BETA)}`)).map((n) => n.text)).toEqual(['New year']);
    const blind = await t.viewer('not json');
    expect((await listOf(t, blind)).map((n) => n.text)).toEqual(['New year']);
  });

  it('when notes are read for some dates and museums, then those touching the dates come, by date, the general ones with the museums chosen', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    await note(t, admin, { date: '2024-12-20', endDate: '2025-01-05', text: 'Holidays' });
    await note(t, admin, { date: '2025-01-10', text: 'Gamma event', museum: GAMMA });
    await note(t, admin, { date: '2025-02-01', text: 'Alpha talk', museum: ALPHA });
    await note(t, admin, { date: '2025-03-01', text: 'After' });
    expect((await listOf(t, admin, '?from=2025-01-01&to=2025-02-01')).map((n) => n.text)).toEqual(['Holidays', 'Gamma event', 'Alpha talk']);
    expect((await listOf(t, admin, `?from=2025-01-01&to=2025-02-01&museum=${encodeURIComponent(ALPHA)}`)).map((n) => n.text)).toEqual(['Holidays', 'Alpha talk']);
    expect((await t.get('/api/dashboard/annotations?from=2025-02-01&to=2025-01-01', admin)).status).toBe(400);
  });

  it.each([
    ['no date', { text: 'x' }],
    ['a date that is not one', { date: '2025-02-30', text: 'x' }],
    ['an empty text', { date: '2025-01-01', text: '   ' }],
    ['a text of two lines', { date: '2025-01-01', text: 'a\nb' }],
    ['a text too long', { date: '2025-01-01', text: 'x'.repeat(501) }],
    ['an unknown field', { date: '2025-01-01', text: 'x', colour: 'red' }],
  ])('when the note has %s, then 400 VALIDATION', async (_what, body) => {
    const t = await dataApp();
    const res = await note(t, await t.admin(), body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
  });

  it('when the note ends before it starts, or names a museum the data does not hold, then 400 with its own code', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    expect((await note(t, admin, { date: '2025-01-05', endDate: '2025-01-01', text: 'x' })).body.code).toBe('ANNOTATION_DATES');
    expect((await note(t, admin, { date: '2025-01-05', text: 'x', museum: 'Atlantis Museum' })).body.code).toBe('UNKNOWN_MUSEUM');
    const made = (await note(t, admin, { date: '2025-01-05', text: 'x' })).body.annotation;
    expect((await t.send('patch', `/api/dashboard/annotations/${made.id}`, admin).send({ endDate: '2025-01-04' })).body.code).toBe('ANNOTATION_DATES');
    expect((await t.send('patch', `/api/dashboard/annotations/999`, admin).send({ text: 'y' })).status).toBe(404);
  });
});

describe('exports in the audit trail', () => {
  it('when figures are exported, then the trail says who, which filters and which file, and when', async () => {
    const t = await dataApp();
    t.clock.set(Date.UTC(2026, 10, 26, 9, 30));
    const admin = await t.admin();
    const viewer = await t.viewer(JSON.stringify([ALPHA]));
    await t.get(`/api/dashboard/export.csv?year=2024&museum=${encodeURIComponent(ALPHA)}&lang=ar`, viewer);
    await t.get('/api/dashboard/compare.csv?against=year&from=2025-01-01&to=2025-03-01', viewer);
    const view = (await t.send('post', '/api/dashboard/views', admin).send({ name: 'All', query: 'year=2025' })).body.view;
    await t.get(`/api/dashboard/export.csv?view=${view.id}`, admin);
    await t.get('/api/audit/export.csv?action=signIn', admin);
    const events = ((await t.get('/api/audit?action=dataExported', admin)).body.events as { actor: string; at: string; target: string; targetName: string; after: object }[]).reverse();
    expect(events).toEqual([
      expect.objectContaining({ actor: expect.stringMatching(/^Viewer /), at: '2026-11-26T09:30:00.000Z', target: 'visits', targetName: 'visits_2024-01-01_2024-12-31_Alpha-Museum.csv', after: { format: 'csv', year: '2024', museum: ALPHA } }),
      expect.objectContaining({ target: 'comparison', after: { format: 'csv', against: 'year', from: '2025-01-01', to: '2025-03-01' } }),
      expect.objectContaining({ actor: 'Admin', target: 'visits', after: { format: 'csv', view: String(view.id) } }),
      expect.objectContaining({ actor: 'Admin', target: 'audit', after: { format: 'csv', action: 'signIn' } }),
    ]);
  });

  it('when an export is refused, then nothing is recorded', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    expect((await t.get('/api/dashboard/export.csv?year=24', admin)).status).toBe(400);
    expect((await t.get('/api/audit?action=dataExported', admin)).body.events).toEqual([]);
  });
});
