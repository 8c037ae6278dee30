import { expect, it } from 'vitest';
import { describeEngines, rowCount } from '../../support/records';
import type { NewBudgetEntry } from '../../../src/workspace/budget/repository';
import { at, NOW, repositories } from './fixtures';

describeEngines('SqlBudgetRepository', (kind) => {
  async function setup() {
    const r = await repositories(kind);
    const brand = await r.brand();
    const campaign = await r.campaign(brand.id);
    const entry = (more: Partial<NewBudgetEntry> = {}): NewBudgetEntry => ({
      brandId: brand.id,
      campaignId: campaign.id,
      kind: 'planned',
      category: 'Ads',
      description: null,
      amount: 1000,
      currency: 'SAR',
      date: '2026-01-15',
      createdBy: null,
      createdAt: NOW,
      ...more,
    });
    return { r, brand, campaign, entry };
  }

  it('when a campaign has entries, then the summary adds them up in total and per category, past 32-bit amounts too', async () => {
    const { r, campaign, entry } = await setup();
    const big = 3_000_000_000;
    await r.budget.create(entry({ amount: big }));
    await r.budget.create(entry({ amount: 500 }));
    await r.budget.create(entry({ kind: 'spent', amount: 700 }));
    await r.budget.create(entry({ kind: 'spent', category: 'Print', amount: 300 }));
    expect(await r.budget.summary(campaign.id)).toEqual({
      campaignId: campaign.id,
      currency: 'SAR',
      planned: big + 500,
      spent: 1000,
      remaining: big + 500 - 1000,
      byCategory: [
        { category: 'Ads', planned: big + 500, spent: 700 },
        { category: 'Print', planned: 0, spent: 300 },
      ],
    });
  });

  it('when a campaign has no entry, then the summary is zero with no currency', async () => {
    const { r, campaign } = await setup();
    expect(await r.budget.summary(campaign.id)).toEqual({ campaignId: campaign.id, currency: null, planned: 0, spent: 0, remaining: 0, byCategory: [] });
  });

  it('when an entry brings a second currency, then it is refused, on creation and on change', async () => {
    const { r, entry } = await setup();
    const first = await r.budget.create(entry());
    expect(await r.budget.create(entry({ currency: 'USD' }))).toBe('currency-mismatch');
    const second = await r.budget.create(entry());
    expect(await r.budget.update((second as { id: number }).id, { currency: 'USD', updatedAt: at(1) })).toBe('currency-mismatch');
    // The only entry may change the campaign's currency.
    await r.budget.delete((second as { id: number }).id);
    expect(await r.budget.update((first as { id: number }).id, { currency: 'USD', updatedAt: at(1) })).toMatchObject({ currency: 'USD' });
  });

  it('when two entries in different currencies arrive at once, then only one is kept', async () => {
    const { r, campaign, entry } = await setup();
    const results = await Promise.all([r.budget.create(entry({ currency: 'SAR' })), r.budget.create(entry({ currency: 'USD' }))]);
    expect(results.filter((x) => x === 'currency-mismatch')).toHaveLength(1);
    expect((await r.budget.list({ brandIds: undefined, campaignId: campaign.id, limit: 50, offset: 0 })).map((e) => e.currency)).toHaveLength(1);
  });

  it('when a negative amount or an unknown kind is written, then the database refuses it', async () => {
    const { r, entry } = await setup();
    await expect(r.budget.create(entry({ amount: -1 }))).rejects.toThrow();
    await expect(r.budget.create(entry({ kind: 'maybe' as never }))).rejects.toThrow();
  });

  it('when entries are listed, then newest day first, id breaking ties, paged and filtered; the campaign\'s deletion takes them', async () => {
    const { r, brand, campaign, entry } = await setup();
    const other = await r.campaign(brand.id);
    const ids = async (filter: Partial<Parameters<typeof r.budget.list>[0]>) =>
      (await r.budget.list({ brandIds: undefined, limit: 50, offset: 0, ...filter })).map((e) => e.id);
    const e1 = (await r.budget.create(entry({ date: '2026-01-01' }))) as { id: number };
    const e2 = (await r.budget.create(entry({ date: '2026-02-28', kind: 'spent' }))) as { id: number };
    const e3 = (await r.budget.create(entry({ date: '2026-02-28' }))) as { id: number };
    const e4 = (await r.budget.create(entry({ campaignId: other.id, date: '2025-12-31' }))) as { id: number };
    expect(await ids({})).toEqual([e3.id, e2.id, e1.id, e4.id]);
    expect(await ids({ campaignId: campaign.id, kind: 'spent' })).toEqual([e2.id]);
    expect(await ids({ limit: 1, offset: 1 })).toEqual([e2.id]);
    expect(await ids({ brandIds: [] })).toEqual([]);
    expect(await r.budget.get(e2.id)).toMatchObject({ date: '2026-02-28', createdAt: NOW });
    await r.campaigns.deleteWithContent(campaign.id);
    expect(await rowCount(r.records, 'budget_entries')).toBe(1);
  });
});
