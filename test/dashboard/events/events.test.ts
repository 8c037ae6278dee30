import { describe, expect, it } from 'vitest';
import { openStream, serve } from '../../support/events';
import { dataApp } from '../fixtures';

const CSV = 'date,museum,channel,district,visitors,revenue\n2025-04-01,Delta Museum,Online,East,11,55.5\n';
const SUMMER = { name: 'Summer 2025', startDate: '2025-06-01', endDate: '2025-08-31' };

async function live() {
  const t = await dataApp();
  const url = await serve(t.app);
  const stream = (cookie?: string, headers: Record<string, string> = {}) => openStream(`${url}/api/dashboard/events`, { ...(cookie ? { Cookie: cookie } : {}), ...headers });
  return { ...t, url, stream };
}

describe('GET /api/dashboard/events', () => {
  it('when there is no dashboard session, then 401 JSON', async () => {
    const t = await live();
    const res = await t.stream();
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: expect.any(String) });
  });

  it('when figures are imported or the seasons change, then every open page, a restricted viewer’s too, is told why, and nothing of the figures', async () => {
    const t = await live();
    const admin = await t.admin();
    const viewer = await t.viewer('["Alpha Museum"]');
    const [adminStream, viewerStream] = [await t.stream(admin), await t.stream(viewer)];
    expect(viewerStream.status).toBe(200);
    expect(viewerStream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(await viewerStream.nextBlock(() => true)).toMatchObject({ retry: 3000 });

    expect((await t.send('post', '/api/dashboard/import', admin).set('Content-Type', 'text/csv').send(CSV)).status).toBe(200);
    for (const stream of [adminStream, viewerStream]) expect(await stream.next()).toMatchObject({ event: 'data', id: expect.any(String), data: { reason: 'import' } });

    const season = (await t.send('post', '/api/seasons', admin).send(SUMMER)).body.season as { id: number };
    expect((await viewerStream.next()).data).toEqual({ reason: 'seasons' });
    await t.send('patch', `/api/seasons/${season.id}`, admin).send({ name: 'High summer' });
    expect((await viewerStream.next()).data).toEqual({ reason: 'seasons' });
    await t.send('delete', `/api/seasons/${season.id}`, admin);
    expect((await viewerStream.next()).data).toEqual({ reason: 'seasons' });
  });

  it('when a refused import or season changes nothing, then nobody is told', async () => {
    const t = await live();
    const admin = await t.admin();
    const stream = await t.stream(await t.viewer('[]'));
    expect((await t.send('post', '/api/dashboard/import', admin).set('Content-Type', 'text/csv').send('date,museum\nnot,a file\n')).status).toBe(400);
    expect((await t.send('post', '/api/seasons', admin).send({ name: '', startDate: '2025-06-01', endDate: '2025-08-31' })).status).toBe(400);
    await t.send('post', '/api/seasons', admin).send(SUMMER);
    expect((await stream.next()).data).toEqual({ reason: 'seasons' });
  });

  it('when a page comes back with Last-Event-ID, then it hears what it missed; with an unknown id, reset', async () => {
    const t = await live();
    const admin = await t.admin();
    const first = await t.stream(admin);
    const position = (await first.nextBlock((b) => b.id !== undefined)).id!;
    first.close();
    await t.send('post', '/api/seasons', admin).send(SUMMER);
    const again = await t.stream(admin, { 'Last-Event-ID': position });
    expect((await again.next()).data).toEqual({ reason: 'seasons' });
    const unknown = await t.stream(admin, { 'Last-Event-ID': 'nothing-of-ours' });
    expect(await unknown.next()).toMatchObject({ event: 'reset', data: {} });
  });

  it('when the session ends, then its stream ends with the next change instead of hearing it', async () => {
    const t = await live();
    const [gone, stays] = [await t.viewer('[]'), await t.admin()];
    const [goneStream, staysStream] = [await t.stream(gone), await t.stream(stays)];
    expect((await t.send('post', '/auth/logout', gone)).status).toBe(200);
    await t.send('post', '/api/seasons', stays).send(SUMMER);
    expect((await staysStream.next()).data).toEqual({ reason: 'seasons' });
    await goneStream.ended;
    expect(goneStream.events()).toEqual([]);
  });
});
