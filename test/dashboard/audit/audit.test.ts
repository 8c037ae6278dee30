import { describe, expect, it } from 'vitest';
import { KyselyAuditRepository } from '../../../src/dashboard/audit/repository';
import { request } from '../../support/http';
import { describeEngines, testRecords } from '../../support/records';
import { dataApp } from '../fixtures';

describeEngines('the audit repository', (kind) => {
  it('when events are added, then they come back newest first with before and after as written', async () => {
    const audit = new KyselyAuditRepository((await testRecords(kind)).dashboard);
    await audit.add({ at: Date.UTC(2026, 0, 15, 9), actor: 'Admin', action: 'userChanged', target: 'user:3', before: { allowedMuseums: [] }, after: { allowedMuseums: ['A'] }, ip: '10.0.0.1' });
    await audit.add({ at: Date.UTC(2026, 0, 15, 10), actor: 'anonymous', action: 'signInFailed', ip: '10.0.0.2' });
    const events = await audit.list({ limit: 10 });
    expect(events).toEqual([
      { id: 2, at: '2026-01-15T10:00:00.000Z', actor: 'anonymous', action: 'signInFailed', target: null, ip: '10.0.0.2' },
      { id: 1, at: '2026-01-15T09:00:00.000Z', actor: 'Admin', action: 'userChanged', target: 'user:3', before: { allowedMuseums: [] }, after: { allowedMuseums: ['A'] }, ip: '10.0.0.1' },
    ]);
  });

  it('when filtered by action and actor and paged by id, then only the matching older events come back', async () => {
    const audit = new KyselyAuditRepository((await testRecords(kind)).dashboard);
    for (let i = 0; i < 5; i += 1) await audit.add({ at: i, actor: i % 2 ? 'Admin' : 'Sara', action: i < 3 ? 'signIn' : 'seasonCreated' });
    expect((await audit.list({ action: 'signIn', limit: 10 })).map((e) => e.id)).toEqual([3, 2, 1]);
    expect((await audit.list({ actor: 'Admin', limit: 10 })).map((e) => e.id)).toEqual([4, 2]);
    expect((await audit.list({ beforeId: 3, limit: 1 })).map((e) => e.id)).toEqual([2]);
  });

  it('when an event names its target, then the name comes back; when the filter matches, then the span runs from the oldest to the newest', async () => {
    const audit = new KyselyAuditRepository((await testRecords(kind)).dashboard);
    await audit.add({ at: Date.UTC(2026, 10, 1, 8), actor: 'Admin', action: 'seasonDeleted', target: 'season:6', targetName: 'Summer 2025' });
    await audit.add({ at: Date.UTC(2026, 10, 25, 9), actor: 'Admin', action: 'signIn', target: 'admin' });
    expect((await audit.list({ limit: 1, beforeId: 2 }))[0].targetName).toBe('Summer 2025');
    expect((await audit.list({ limit: 1 }))[0]).not.toHaveProperty('targetName');
    expect(await audit.span({ actor: 'Admin' })).toEqual({ first: '2026-11-01T08:00:00.000Z', last: '2026-11-25T09:00:00.000Z' });
    expect(await audit.span({ action: 'userCreated' })).toBeNull();
  });
});

describe('GET /api/audit', () => {
  it('when signed out, then 401; when a viewer asks, then 403', async () => {
    const t = await dataApp();
    expect((await t.get('/api/audit')).status).toBe(401);
    expect((await t.get('/api/audit', await t.viewer('[]'))).status).toBe(403);
    expect((await t.get('/api/audit/export.csv', await t.viewer('[]'))).status).toBe(403);
  });

  it('when sign-ins succeed and fail, then both are recorded and the PIN never is', async () => {
    const t = await dataApp();
    await request(t.app).post('/auth/login').send({ pin: '123456789' });
    const admin = await t.admin();
    const res = await t.get('/api/audit', admin);
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { action: string }) => e.action)).toEqual(['signIn', 'signInFailed']);
    expect(res.body.events[0]).toMatchObject({ actor: 'Admin', target: 'admin' });
    expect(res.text).not.toContain('123456789');
    expect(res.text).not.toContain('999999');
  });

  it('when an administrator creates, changes and deletes a user, then each is recorded with before and after', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const created = await t.send('post', '/api/users', admin).send({ name: 'Noor', pin: '55554444', role: 'viewer' });
    const id = created.body.user.id;
    await t.send('patch', `/api/users/${id}`, admin).send({ allowedMuseums: ['Alpha Museum'] });
    await t.send('delete', `/api/users/${id}`, admin);
    const { body, text } = await t.get('/api/audit?limit=3', admin);
    expect(body.events.map((e: { action: string }) => e.action)).toEqual(['userDeleted', 'userChanged', 'userCreated']);
    expect(body.events[1].before.allowedMuseums).toEqual([]);
    expect(body.events[1].after.allowedMuseums).toEqual(['Alpha Museum']);
    expect(body.events[1].target).toBe(`user:${id}`);
    // The deleted user still reads by name.
    expect(body.events.map((e: { targetName: string }) => e.targetName)).toEqual(['Noor', 'Noor', 'Noor']);
    expect(text).not.toContain('55554444');
    expect(typeof body.nextCursor).toBe('number');
  });

  it('when seasons change and visits are imported, then who did it and how many rows are recorded', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const season = await t.send('post', '/api/seasons', admin).send({ name: 'Winter', startDate: '2024-12-01', endDate: '2025-02-28' });
    await t.send('patch', `/api/seasons/${season.body.season.id}`, admin).send({ name: 'Winter 24' });
    await t.send('post', '/api/dashboard/import', admin).set('Content-Type', 'text/csv').send('date,museum,channel,district,visitors,revenue\n2024-05-01,Alpha Museum,Online,North,3,9\n');
    const { body } = await t.get('/api/audit?limit=3', admin);
    expect(body.events.map((e: { action: string }) => e.action)).toEqual(['visitsImported', 'seasonChanged', 'seasonCreated']);
    expect(body.events[0]).toMatchObject({ actor: 'Admin', after: { rows: 1 } });
    expect(body.events[1]).toMatchObject({ before: { name: 'Winter' }, after: { name: 'Winter 24' } });
  });

  it('when a season is renamed and deleted, then each event keeps the name it had then', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const { id } = (await t.send('post', '/api/seasons', admin).send({ name: 'Eid', startDate: '2025-03-30', endDate: '2025-04-02' })).body.season;
    await t.send('patch', `/api/seasons/${id}`, admin).send({ name: 'Eid al-Fitr' });
    await t.send('delete', `/api/seasons/${id}`, admin);
    const { body } = await t.get('/api/audit?limit=3', admin);
    expect(body.events.map((e: { target: string; targetName: string }) => [e.target, e.targetName])).toEqual([
      [`season:${id}`, 'Eid al-Fitr'],
      [`season:${id}`, 'Eid al-Fitr'],
      [`season:${id}`, 'Eid'],
    ]);
  });

  it('when a user signs in, then the event names them', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    await t.send('post', '/api/users', admin).send({ name: 'Maha', pin: '24681357', role: 'viewer' });
    await t.signIn('24681357');
    const { body } = await t.get('/api/audit?action=signIn&limit=1', admin);
    expect(body.events[0]).toMatchObject({ actor: 'Maha', targetName: 'Maha' });
  });

  it('when pages are walked with the cursor and filtered by action, then every event comes once', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    for (let i = 0; i < 4; i += 1) await t.admin();
    const first = await t.get('/api/audit?limit=2&action=signIn', admin);
    const second = await t.get(`/api/audit?limit=2&action=signIn&cursor=${first.body.nextCursor}`, admin);
    const third = await t.get(`/api/audit?limit=2&action=signIn&cursor=${second.body.nextCursor}`, admin);
    const ids = [...first.body.events, ...second.body.events, ...third.body.events].map((e: { id: number }) => e.id);
    expect(new Set(ids).size).toBe(5);
    expect(third.body.nextCursor).toBeNull();
  });

  it('when the audit is exported, then it is a CSV of the same events', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const res = await t.get('/api/audit/export.csv?action=signIn', admin);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.text.split('\r\n')[0]).toBe('\uFEFFid,at,actor,action,target,target_name,before,after,ip');
    expect(res.text).toContain(',Admin,signIn,admin,');
  });

  it('when an event holds text with spaces or tabs before a formula sign, then the exported cells are neutralised', async () => {
    const t = await dataApp();
    const audit = new KyselyAuditRepository(t.stores.records.dashboard);
    await audit.add({ at: Date.UTC(2026, 10, 2), actor: ' \t=HYPERLINK("http://x")', action: 'seasonDeleted', target: 'season:9', targetName: '  +1+1' });
    const res = await t.get('/api/audit/export.csv?action=seasonDeleted', await t.admin());
    const line = res.text.split('\r\n')[1];
    expect(line).toContain(`,"' \t=HYPERLINK(""http://x"")",seasonDeleted,season:9,'  +1+1,`);
  });

  it('when more events match than a page holds, then the export has every one of them, under a name that says the filter and the days', async () => {
    const t = await dataApp();
    const audit = new KyselyAuditRepository(t.stores.records.dashboard);
    for (let i = 0; i < 1_234; i += 1) {
      await audit.add({ at: Date.UTC(2026, 10, 1) + i * 30 * 60_000, actor: 'anonymous', action: 'signInFailed', ip: '10.0.0.9' });
    }
    const admin = await t.admin();
    const res = await t.get('/api/audit/export.csv?action=signInFailed', admin);
    const lines = res.text.split('\r\n').filter(Boolean).slice(1);
    expect(lines).toHaveLength(1_234);
    expect(new Set(lines.map((l) => l.split(',')[0])).size).toBe(1_234);
    expect(res.headers['content-disposition']).toBe('attachment; filename=audit_signInFailed_2026-11-01_2026-11-26.csv');
  });

  it('when the export is filtered by who acted, then the name holds the actor; when nothing matches, then only the filter', async () => {
    const t = await dataApp();
    const admin = await t.admin();
    const byAdmin = await t.get('/api/audit/export.csv?actor=Admin', admin);
    expect(byAdmin.headers['content-disposition']).toBe('attachment; filename=audit_Admin_2026-01-15_2026-01-15.csv');
    const none = await t.get('/api/audit/export.csv?action=seasonDeleted', admin);
    expect(none.headers['content-disposition']).toBe('attachment; filename=audit_seasonDeleted.csv');
    expect(none.text).toBe('\uFEFFid,at,actor,action,target,target_name,before,after,ip\r\n');
  });

  it.each(['cursor=5', 'limit=10'])('when the export is asked for a page (%s), then 400: it always has every matching event', async (query) => {
    const t = await dataApp();
    expect((await t.get(`/api/audit/export.csv?${query}`, await t.admin())).status).toBe(400);
  });

  it.each(['action=delete', 'cursor=0', 'cursor=x', 'limit=0', 'limit=500', 'other=1'])('when the query is malformed (%s), then 400', async (query) => {
    const t = await dataApp();
    expect((await t.get(`/api/audit?${query}`, await t.admin())).status).toBe(400);
  });
});
