import { expect, it } from 'vitest';
import { rowCount } from '../../support/records';
import { describeEngines } from '../../support/records';
import { NOW, repositories } from './fixtures';

describeEngines('SqlBrandRepository', (kind) => {
  it('when brands are listed, then they come by name, then by id, and only those asked for', async () => {
    const r = await repositories(kind);
    const b = await r.brand('Beta');
    const a1 = await r.brand('Alpha');
    const a2 = await r.brand('Alpha');
    expect((await r.brands.list(undefined)).map((x) => x.id)).toEqual([a1.id, a2.id, b.id]);
    expect((await r.brands.list([b.id, a2.id])).map((x) => x.id)).toEqual([a2.id, b.id]);
    expect(await r.brands.list([])).toEqual([]);
    expect((await r.brands.existing([b.id, 999_999])).sort()).toEqual([b.id]);
  });

  it('when a brand is created and read back, then its moment is the same ISO instant', async () => {
    const r = await repositories(kind);
    const created = await r.brands.create('Kept', NOW);
    expect(created).toEqual({ id: created.id, name: 'Kept', createdAt: NOW });
    expect(await r.brands.get(created.id)).toEqual(created);
  });

  it('when a missing brand is renamed or deleted, then undefined', async () => {
    const r = await repositories(kind);
    expect(await r.brands.rename(999, 'X')).toBeUndefined();
    expect(await r.brands.delete(999)).toBeUndefined();
  });

  it('when a brand still holds a campaign, then its deletion is refused as in use and nothing changes', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const member = await r.member({ brandIds: [brand.id] });
    await r.campaign(brand.id);
    expect(await r.brands.delete(brand.id)).toBe('in-use');
    expect(await r.brands.get(brand.id)).toBeDefined();
    expect((await r.users.get(member.id))?.brandIds).toEqual([brand.id]);
  });

  it('when a brand with members is deleted, then the memberships go with it and the members stay', async () => {
    const r = await repositories(kind);
    const [brand, other] = [await r.brand(), await r.brand()];
    const member = await r.member({ brandIds: [brand.id, other.id] });
    expect(await r.brands.delete(brand.id)).toBe('deleted');
    expect(await rowCount(r.records, 'user_brands')).toBe(1);
    expect((await r.users.get(member.id))?.brandIds).toEqual([other.id]);
  });

  it('when the same brand is deleted twice at once, then one deletes it and the other finds nothing', async () => {
    const r = await repositories(kind);
    const brand = await r.brand();
    const results = await Promise.all([r.brands.delete(brand.id), r.brands.delete(brand.id)]);
    expect(results.sort()).toEqual(['deleted', undefined]);
  });
});
