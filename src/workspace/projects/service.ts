import type { Clock } from '../../platform/clock';
import { NotFound } from '../../platform/errors';
import { isManagerOrAbove, isoTime, listedBrands, requireRole, visibleOrNotFound, type Actor } from '../access';
import type { BrandsService } from '../brands/service';
import { assertDaysInOrder, pick } from '../campaigns/service';
import type { ProjectStatus } from '../domain';
import type { Project, ProjectRepository } from './repository';

export interface NewProjectInput {
  brandId: number;
  name: string;
  description?: string | null;
  status?: ProjectStatus;
  startDate?: string | null;
  endDate?: string | null;
}

export type ProjectChange = Partial<Omit<NewProjectInput, 'brandId'>>;

const MANAGERS_ONLY = 'Only managers and superadmins change projects';

/** Everyone reads their brands' projects; managers and superadmins run them. */
export class ProjectsService {
  constructor(private readonly deps: { projects: ProjectRepository; brands: BrandsService; clock: Clock }) {}

  async list(actor: Actor, filter: { brandId?: number; status?: ProjectStatus }): Promise<Project[]> {
    const brandIds = listedBrands(actor, filter.brandId);
    return this.deps.projects.list({ brandIds, status: filter.status });
  }

  async get(actor: Actor, id: number): Promise<Project> {
    return visibleOrNotFound(actor, await this.deps.projects.get(id), 'project');
  }

  async create(actor: Actor, input: NewProjectInput): Promise<Project> {
    requireRole(actor, isManagerOrAbove, MANAGERS_ONLY);
    await this.deps.brands.assertUsable(actor, input.brandId);
    const startDate = input.startDate ?? null;
    const endDate = input.endDate ?? null;
    assertDaysInOrder(startDate, endDate);
    return this.deps.projects.create({
      brandId: input.brandId,
      name: input.name,
      description: input.description ?? null,
      status: input.status ?? 'planned',
      startDate,
      endDate,
      ownerId: actor.id,
      createdAt: isoTime(this.deps.clock.now()),
    });
  }

  async update(actor: Actor, id: number, change: ProjectChange): Promise<Project> {
    requireRole(actor, isManagerOrAbove, MANAGERS_ONLY);
    const current = await this.get(actor, id);
    assertDaysInOrder(pick(change.startDate, current.startDate), pick(change.endDate, current.endDate));
    const updated = await this.deps.projects.update(id, { ...change, updatedAt: isoTime(this.deps.clock.now()) });
    if (!updated) throw new NotFound('No such project');
    return updated;
  }

  /** The project's tasks stay, no longer in a project. */
  async remove(actor: Actor, id: number): Promise<void> {
    requireRole(actor, isManagerOrAbove, MANAGERS_ONLY);
    await this.get(actor, id);
    if (!(await this.deps.projects.delete(id))) throw new NotFound('No such project');
  }
}
