import type { Clock } from '../../platform/clock';
import { NotFound } from '../../platform/errors';
import { isManagerOrAbove, listedBrands, recordPermissions, requireRole, visibleOrNotFound, type Actor, type RecordPermissions } from '../access';
import type { BrandsService } from '../brands/service';
import type { ProjectStatus } from '../domain';
import type { Project, ProjectRepository } from './repository';
import { assertDaysInOrder, isoTime, pick } from '../shared/values';

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

/** Everyone in a brand reads its projects; managers and superadmins create, change and delete them. */
export function mayRunProjects(actor: Actor): boolean {
  return isManagerOrAbove(actor);
}

/** A project as the API answers it: with what the one asking may do to it, by `mayRunProjects`. */
export type ProjectView = Project & { can: RecordPermissions };

const shown = (actor: Actor, project: Project): ProjectView => ({ ...project, can: recordPermissions(mayRunProjects(actor)) });

/** Everyone reads their brands' projects; managers and superadmins run them. */
export class ProjectsService {
  constructor(private readonly deps: { projects: ProjectRepository; brands: BrandsService; clock: Clock }) {}

  async list(actor: Actor, filter: { brandId?: number; status?: ProjectStatus }): Promise<ProjectView[]> {
    const brandIds = listedBrands(actor, filter.brandId);
    return (await this.deps.projects.list({ brandIds, status: filter.status })).map((project) => shown(actor, project));
  }

  async get(actor: Actor, id: number): Promise<ProjectView> {
    return shown(actor, visibleOrNotFound(actor, await this.deps.projects.get(id), 'project'));
  }

  async create(actor: Actor, input: NewProjectInput): Promise<ProjectView> {
    requireRole(actor, mayRunProjects, MANAGERS_ONLY);
    await this.deps.brands.assertUsable(actor, input.brandId);
    const startDate = input.startDate ?? null;
    const endDate = input.endDate ?? null;
    assertDaysInOrder(startDate, endDate);
    const created = await this.deps.projects.create({
      brandId: input.brandId,
      name: input.name,
      description: input.description ?? null,
      status: input.status ?? 'planned',
      startDate,
      endDate,
      ownerId: actor.id,
      createdAt: isoTime(this.deps.clock.now()),
    });
    return shown(actor, created);
  }

  async update(actor: Actor, id: number, change: ProjectChange): Promise<ProjectView> {
    requireRole(actor, mayRunProjects, MANAGERS_ONLY);
    const current = await this.get(actor, id);
    assertDaysInOrder(pick(change.startDate, current.startDate), pick(change.endDate, current.endDate));
    const updated = await this.deps.projects.update(id, { ...change, updatedAt: isoTime(this.deps.clock.now()) });
    if (!updated) throw new NotFound('No such project');
    return shown(actor, updated);
  }

  /** The project's tasks stay, no longer in a project. */
  async remove(actor: Actor, id: number): Promise<void> {
    requireRole(actor, mayRunProjects, MANAGERS_ONLY);
    await this.get(actor, id);
    if (!(await this.deps.projects.delete(id))) throw new NotFound('No such project');
  }
}
