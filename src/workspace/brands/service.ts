import type { Clock } from '../../platform/clock';
import { BadRequest, Conflict, NotFound } from '../../platform/errors';
import { brandScope, canSeeBrand, isSuperadmin, requireRole, type Actor } from '../access';
import type { Brand, BrandRepository } from './repository';
import { isoTime } from '../shared/values';

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

  /**
   * The brand a new or moved record goes to: the brand of the records it is placed in (a
   * campaign, a post, a project), which must agree with each other and with a given
   * `brandId`; with none of them, the given `brandId`, which must be one of the actor's.
   * The parents have been read through their services, so another brand's is already a 404.
   */
  async brandFor(actor: Actor, brandId: number | undefined, parents: readonly ({ brandId: number } | null | undefined)[]): Promise<number> {
    const placed = parents.filter((p): p is { brandId: number } => p != null);
    if (placed.length > 0) {
      const brand = placed[0].brandId;
      if (placed.some((p) => p.brandId !== brand) || (brandId !== undefined && brandId !== brand)) {
        throw new BadRequest('The brand, campaign, post and project given belong to different brands', 'BRAND_MISMATCH');
      }
      return brand;
    }
    if (brandId === undefined) throw new BadRequest('brandId is required when no campaign or post is given', 'BRAND_REQUIRED');
    await this.assertUsable(actor, brandId);
    return brandId;
  }
}
