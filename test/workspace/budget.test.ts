import type { HttpResponse } from '../support/http';
import { describe, expect, it } from 'vitest';
import { buildTeam, snapshot, type TestUser, type TestWorkspace } from '../support/workspace';

async function team() {
  const t = await buildTeam();
  const campaign = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Spring', brandId: t.brand.id })).body.campaign;
  return { ...t, campaign };
}

async function entry(ws: TestWorkspace, by: TestUser, body: object) {
  const res = await ws.as(by).post('/api/budget-entries').send({ currency: 'QAR', ...body });
  expect(res.status).toBe(201);
  return res.body.entry as { id: number };
}

describe('GET /api/budget-entries/summary', () => {
  it('when a campaign has planned and spent entries in three categories, then the sums match the hand-checked figures', async () => {
    const t = await team();
    const c = t.campaign.id;
    // planned: ads 500000 + 250050 = 750050, print 120000, venue 0 → 870050
    // spent:   ads 199999 + 1 = 200000, print 130000, venue 45075 → 375075
    for (const e of [
      { kind: 'planned', category: 'Ads', amount: 500_000 },
      { kind: 'planned', category: 'Ads', amount: 250_050 },
      { kind: 'planned', category: 'Print', amount: 120_000 },
      { kind: 'spent', category: 'Ads', amount: 199_999 },
      { category: 'Ads', amount: 1 },
      { kind: 'spent', category: 'Print', amount: 130_000 },
      { kind: 'spent', category: 'Venue', amount: 45_075 },
    ]) {
      await entry(t.ws, t.manager, { campaignId: c, ...e });
    }
    const other = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Other', brandId: t.brand.id })).body.campaign;
    await entry(t.ws, t.manager, { campaignId: other.id, kind: 'spent', category: 'Ads', amount: 999 });

    const res = await t.ws.as(t.contributor).get(`/api/budget-entries/summary?campaignId=${c}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      summary: {
        campaignId: c,
        currency: 'QAR',
        planned: 870_050,
        spent: 375_075,
        remaining: 494_975,
        byCategory: [
          { category: 'Ads', planned: 750_050, spent: 200_000 },
          { category: 'Print', planned: 120_000, spent: 130_000 },
          { category: 'Venue', planned: 0, spent: 45_075 },
        ],
      },
    });
  });

  it('when the campaign has no entry, then zeros and no currency', async () => {
    const t = await team();
    const res = await t.ws.as(t.contributor).get(`/api/budget-entries/summary?campaignId=${t.campaign.id}`);
    expect(res.body.summary).toEqual({ campaignId: t.campaign.id, currency: null, planned: 0, spent: 0, remaining: 0, byCategory: [] });
  });

  it("when the campaign is another brand's or missing, then 404; without campaignId, 400", async () => {
    const t = await team();
    const theirs = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Theirs', brandId: t.other.id })).body.campaign;
    expect((await t.ws.as(t.manager).get(`/api/budget-entries/summary?campaignId=${theirs.id}`)).status).toBe(404);
    expect((await t.ws.as(t.manager).get('/api/budget-entries/summary?campaignId=999')).status).toBe(404);
    expect((await t.ws.as(t.manager).get('/api/budget-entries/summary')).status).toBe(400);
  });
});

describe('POST /api/budget-entries', () => {
  it('when a manager adds an entry, then 201 {entry} in the campaign’s brand, spent by default, dated today', async () => {
    const t = await team();
    const res = await t.ws.as(t.manager).post('/api/budget-entries').send({ campaignId: t.campaign.id, category: 'Ads', amount: 12_345, currency: 'usd' });
    expect(res.status).toBe(201);
    expect(res.body.entry).toEqual({
      id: expect.any(Number),
      brandId: t.brand.id,
      campaignId: t.campaign.id,
      kind: 'spent',
      category: 'Ads',
      description: null,
      amount: 12_345,
      currency: 'USD',
      date: '2026-01-15',
      createdBy: t.manager.id,
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
      can: { edit: true, delete: true },
    });
  });

  it("when a contributor writes, then 403; a manager into another brand's campaign, 404; nothing is stored", async () => {
    const t = await team();
    const theirs = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Theirs', brandId: t.other.id })).body.campaign;
    const before = await snapshot(t.ws);
    expect((await t.ws.as(t.contributor).post('/api/budget-entries').send({ campaignId: t.campaign.id, category: 'A', amount: 1, currency: 'QAR' })).status).toBe(403);
    expect((await t.ws.as(t.manager).post('/api/budget-entries').send({ campaignId: theirs.id, category: 'A', amount: 1, currency: 'QAR' })).status).toBe(404);
    expect(await snapshot(t.ws)).toBe(before);
  });

  it('when an entry is in another currency than the campaign’s, then 409 CURRENCY_MISMATCH', async () => {
    const t = await team();
    await entry(t.ws, t.manager, { campaignId: t.campaign.id, category: 'Ads', amount: 100 });
    const res = await t.ws.as(t.manager).post('/api/budget-entries').send({ campaignId: t.campaign.id, category: 'Ads', amount: 100, currency: 'EUR' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CURRENCY_MISMATCH');
  });

  it.each([
    ['an amount with a fraction', { amount: 10.5 }],
    ['a negative amount', { amount: -1 }],
    ['an amount as text', { amount: '100' }],
    ['an amount past the cap', { amount: 1e13 }],
    ['a currency that is not three letters', { currency: 'RIAL' }],
    ['an unknown kind', { kind: 'forecast' }],
    ['an impossible date', { date: '2026-02-30' }],
    ['no category', { category: undefined }],
    ['an unknown field', { brandId: 1 }],
  ])('when the body has %s, then 400', async (_label, change) => {
    const t = await team();
    const res = await t.ws.as(t.admin).post('/api/budget-entries').send({ campaignId: t.campaign.id, category: 'Ads', amount: 100, currency: 'QAR', ...change });
    expect(res.status).toBe(400);
  });
});

describe('GET, PATCH and DELETE /api/budget-entries', () => {
  it('when a contributor reads, then the brand’s entries, newest date first; writes are 403', async () => {
    const t = await team();
    const older = await entry(t.ws, t.manager, { campaignId: t.campaign.id, category: 'Ads', amount: 1, date: '2026-01-01' });
    const newer = await entry(t.ws, t.manager, { campaignId: t.campaign.id, category: 'Ads', amount: 2, date: '2026-01-10', kind: 'planned' });
    const theirs = (await t.ws.as(t.admin).post('/api/campaigns').send({ name: 'Theirs', brandId: t.other.id })).body.campaign;
    const hidden = await entry(t.ws, t.admin, { campaignId: theirs.id, category: 'Ads', amount: 3 });
    const list = (res: HttpResponse) => res.body.entries.map((e: { id: number }) => e.id);
    expect(list(await t.ws.as(t.contributor).get('/api/budget-entries'))).toEqual([newer.id, older.id]);
    expect(list(await t.ws.as(t.contributor).get('/api/budget-entries?kind=planned'))).toEqual([newer.id]);
    expect(list(await t.ws.as(t.contributor).get(`/api/budget-entries?campaignId=${theirs.id}`))).toEqual([]);
    expect((await t.ws.as(t.contributor).get(`/api/budget-entries/${hidden.id}`)).status).toBe(404);
    expect((await t.ws.as(t.contributor).get(`/api/budget-entries/${older.id}`)).body.entry.amount).toBe(1);
    expect((await t.ws.as(t.contributor).patch(`/api/budget-entries/${older.id}`).send({ amount: 5 })).status).toBe(403);
    expect((await t.ws.as(t.contributor).delete(`/api/budget-entries/${older.id}`)).status).toBe(403);
  });

  it('when a manager changes and deletes entries, then the summary follows; a currency change that would mix two is 409', async () => {
    const t = await team();
    const a = await entry(t.ws, t.manager, { campaignId: t.campaign.id, category: 'Ads', amount: 1000, kind: 'planned' });
    const b = await entry(t.ws, t.manager, { campaignId: t.campaign.id, category: 'Ads', amount: 400 });
    expect((await t.ws.as(t.manager).patch(`/api/budget-entries/${b.id}`).send({ amount: 600, category: 'Print' })).body.entry).toMatchObject({ amount: 600, category: 'Print' });
    expect((await t.ws.as(t.manager).patch(`/api/budget-entries/${b.id}`).send({ currency: 'EUR' })).body.code).toBe('CURRENCY_MISMATCH');
    expect((await t.ws.as(t.manager).patch(`/api/budget-entries/${b.id}`).send({})).status).toBe(400);
    const summary = await t.ws.as(t.manager).get(`/api/budget-entries/summary?campaignId=${t.campaign.id}`);
    expect(summary.body.summary).toMatchObject({ planned: 1000, spent: 600, remaining: 400 });
    expect((await t.ws.as(t.manager).delete(`/api/budget-entries/${a.id}`)).body).toEqual({ ok: true });
    expect((await t.ws.as(t.manager).patch(`/api/budget-entries/${b.id}`).send({ currency: 'EUR' })).body.entry.currency).toBe('EUR');
    expect((await t.ws.as(t.manager).get(`/api/budget-entries/summary?campaignId=${t.campaign.id}`)).body.summary).toMatchObject({
      currency: 'EUR',
      planned: 0,
      spent: 600,
      remaining: -600,
    });
  });

  it('when the campaign is deleted, then its budget entries go with it', async () => {
    const t = await team();
    const e = await entry(t.ws, t.manager, { campaignId: t.campaign.id, category: 'Ads', amount: 1 });
    expect((await t.ws.as(t.manager).delete(`/api/campaigns/${t.campaign.id}`)).status).toBe(200);
    expect((await t.ws.as(t.manager).get(`/api/budget-entries/${e.id}`)).status).toBe(404);
  });
});
