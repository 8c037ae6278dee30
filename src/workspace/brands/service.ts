import type { Clock } from '../../platform/clock';
import { Conflict, NotFound } from '../../platform/errors';
import { brandScope, canSeeBrand, isoTime, isSuperadmin, requireRole, type Actor } from '../access';
import type { Brand, BrandRepository } from './repository';

export class BrandsService {
  constructor(private readonly deps: { brands: BrandRepository; clock: Clock }) {}

  /** Everyone reads their own brands; a superadmin reads all. */
  async list(actor: Actor): Promise<Brand[]> {
    return this.deps.brands.list(brandScope(actor));
  }

  async get(actor: Actor, id: number): Promise<Brand> {
    const brand = canSeeBrand(actor, id) ? await this.deps.brands.get(id) : undefined;
    if (!brand) throw new NotFound('No such brand');
    return brand;
  }

  async create(actor: Actor, name: string): Promise<Brand> {
    requireRole(actor, isSuperadmin, 'Only a superadmin manages brands');
    return this.deps.brands.create(name, isoTime(this.deps.clock.now()));
  }

  async rename(actor: Actor, id: number, name: string): Promise<Brand> {
    requireRole(actor, isSuperadmin, 'Only a superadmin manages brands');
    const brand = await this.deps.brands.rename(id, name);
    if (!brand) throw new NotFound('No such brand');
    return brand;
  }

  async remove(actor: Actor, id: number): Promise<void> {
    requireRole(actor, isSuperadmin, 'Only a superadmin manages brands');
    const result = await this.deps.brands.delete(id);
    if (!result) throw new NotFound('No such brand');
    if (result === 'in-use') throw new Conflict('This brand still has campaigns or posts', 'BRAND_IN_USE');
  }

  /**
   * The brand a new or moved record may go to: it must exist and be the actor's own.
   * Someone else's brand answers like a missing one.
   */
  async assertUsable(actor: Actor, brandId: number): Promise<void> {
    await this.get(actor, brandId);
  }
}
