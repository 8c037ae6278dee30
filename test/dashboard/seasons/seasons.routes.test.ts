import { request } from '../../support/http';
import { describe, expect, it } from 'vitest';
import { dataApp } from '../fixtures';

const SUMMER = { name: 'Summer 2025', startDate: '2025-06-01', endDate: '2025-08-31' };

async function withSeason() {
  const t = await dataApp([]);
  const admin = await t.admin();
  const created = await t.send('post', '/api/seasons', admin).send(SUMMER);
  return { ...t, adminCookie: admin, season: created.body.season as { id: number } };
}

describe('GET /api/seasons', () => {
  it('when there is no session, then 401', async () => {
    const t = await dataApp([]);
    expect((await t.get('/api/seasons')).status).toBe(401);
  });

  it('when a viewer asks, then every season is listed, ordered by start', async () => {
    const t = await withSeason();
    await t.send('post', '/api/seasons', t.adminCookie).send({ name: 'Ramadan 2025', startDate: '2025-03-01', endDate: '2025-03-29' });
    const res = await t.get('/api/seasons', await t.viewer('["Nothing"]'));
    expect(res.status).toBe(200);
    expect(res.body.seasons.map((s: { name: string }) => s.name)).toEqual(['Ramadan 2025', 'Summer 2025']);
  });

  it('when a viewer with no access asks, then the seasons are still listed (they hold no figures)', async () => {
    const t = await withSeason();
    const res = await t.get('/api/seasons', await t.viewer(''));
    expect(res.body.seasons).toHaveLength(1);
  });
});

describe('POST /api/seasons', () => {
  it('when an administrator creates a season, then 201 with the season', async () => {
    const t = await dataApp([]);
    const res = await t.send('post', '/api/seasons', await t.admin()).send({ ...SUMMER, name: '  Summer 2025  ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ season: { id: expect.any(Number), ...SUMMER } });
  });

  it('when the season lasts one day, then it is accepted', async () => {
    const t = await dataApp([]);
    const res = await t.send('post', '/api/seasons', await t.admin()).send({ name: 'Open day', startDate: '2025-05-18', endDate: '2025-05-18' });
    expect(res.status).toBe(201);
  });

  it('when there is no session, then 401', async () => {
    const t = await dataApp([]);
    expect((await t.send('post', '/api/seasons').send(SUMMER)).status).toBe(401);
  });

  it('when a viewer creates a season, then 403 ADMIN_ONLY and nothing is stored', async () => {
    const t = await dataApp([]);
    const viewer = await t.viewer('[]');
    const res = await t.send('post', '/api/seasons', viewer).send(SUMMER);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('ADMIN_ONLY');
    expect((await t.get('/api/seasons', viewer)).body.seasons).toEqual([]);
  });

  it('when the request comes from another origin, then 403 CSRF', async () => {
    const t = await dataApp([]);
    const res = await request(t.app).post('/api/seasons').set('Cookie', await t.admin()).set('Origin', 'https://evil.example').send(SUMMER);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('CSRF');
  });

  it('when the end is before the start, then 400', async () => {
    const t = await dataApp([]);
    const res = await t.send('post', '/api/seasons', await t.admin()).send({ ...SUMMER, endDate: '2025-05-31' });
    expect(res.status).toBe(400);
    expect(typeof res.body.error).toBe('string');
  });

  it.each([
    ['an empty name', { ...SUMMER, name: '   ' }],
    ['a name of 201 characters', { ...SUMMER, name: 'x'.repeat(201) }],
    ['no name', { startDate: SUMMER.startDate, endDate: SUMMER.endDate }],
    ['a date that does not exist', { ...SUMMER, startDate: '2025-02-30' }],
    ['a date in another format', { ...SUMMER, endDate: '31/08/2025' }],
    ['a date as a number', { ...SUMMER, startDate: 20250601 }],
    ['an unknown field', { ...SUMMER, id: 7 }],
  ])('when the body has %s, then 400', async (_label, body) => {
    const t = await dataApp([]);
    const res = await t.send('post', '/api/seasons', await t.admin()).send(body);
    expect(res.status).toBe(400);
  });

  it('when the name is exactly 200 characters, then it is accepted', async () => {
    const t = await dataApp([]);
    expect((await t.send('post', '/api/seasons', await t.admin()).send({ ...SUMMER, name: 'x'.repeat(200) })).status).toBe(201);
  });
});

describe('PATCH /api/seasons/:id', () => {
  it('when an administrator renames a season, then the other fields stay', async () => {
    const t = await withSeason();
    const res = await t.send('patch', `/api/seasons/${t.season.id}`, t.adminCookie).send({ name: 'High summer' });
    expect(res.status).toBe(200);
    expect(res.body.season).toEqual({ id: t.season.id, name: 'High summer', startDate: SUMMER.startDate, endDate: SUMMER.endDate });
  });

  it('when both dates change, then the new dates are stored', async () => {
    const t = await withSeason();
    const res = await t.send('patch', `/api/seasons/${t.season.id}`, t.adminCookie).send({ startDate: '2025-07-01', endDate: '2025-07-31' });
    expect(res.body.season).toMatchObject({ startDate: '2025-07-01', endDate: '2025-07-31' });
  });

  it('when only the start moves past the stored end, then 400 and nothing changes', async () => {
    const t = await withSeason();
    const res = await t.send('patch', `/api/seasons/${t.season.id}`, t.adminCookie).send({ startDate: '2025-09-01' });
    expect(res.status).toBe(400);
    expect((await t.get('/api/seasons', t.adminCookie)).body.seasons[0]).toMatchObject(SUMMER);
  });

  it('when the body is empty, then 400', async () => {
    const t = await withSeason();
    expect((await t.send('patch', `/api/seasons/${t.season.id}`, t.adminCookie).send({})).status).toBe(400);
  });

  it('when the season does not exist, then 404 SEASON_NOT_FOUND', async () => {
    const t = await withSeason();
    const res = await t.send('patch', '/api/seasons/9999', t.adminCookie).send({ name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('SEASON_NOT_FOUND');
  });

  it('when the id is not a number, then 400', async () => {
    const t = await withSeason();
    expect((await t.send('patch', '/api/seasons/abc', t.adminCookie).send({ name: 'x' })).status).toBe(400);
  });

  it('when a viewer changes a season, then 403', async () => {
    const t = await withSeason();
    expect((await t.send('patch', `/api/seasons/${t.season.id}`, await t.viewer('[]')).send({ name: 'x' })).status).toBe(403);
  });

  it('when there is no session, then 401', async () => {
    const t = await withSeason();
    expect((await t.send('patch', `/api/seasons/${t.season.id}`).send({ name: 'x' })).status).toBe(401);
  });
});

describe('DELETE /api/seasons/:id', () => {
  it('when an administrator deletes a season, then 200 {ok:true} and it is gone', async () => {
    const t = await withSeason();
    const res = await t.send('delete', `/api/seasons/${t.season.id}`, t.adminCookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await t.get('/api/seasons', t.adminCookie)).body.seasons).toEqual([]);
  });

  it('when the season does not exist, then 404 SEASON_NOT_FOUND', async () => {
    const t = await withSeason();
    await t.send('delete', `/api/seasons/${t.season.id}`, t.adminCookie);
    const res = await t.send('delete', `/api/seasons/${t.season.id}`, t.adminCookie);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('SEASON_NOT_FOUND');
  });

  it('when a viewer deletes a season, then 403 and it stays', async () => {
    const t = await withSeason();
    expect((await t.send('delete', `/api/seasons/${t.season.id}`, await t.viewer('[]'))).status).toBe(403);
    expect((await t.get('/api/seasons', t.adminCookie)).body.seasons).toHaveLength(1);
  });

  it('when there is no session, then 401', async () => {
    const t = await withSeason();
    expect((await t.send('delete', `/api/seasons/${t.season.id}`)).status).toBe(401);
  });
});
