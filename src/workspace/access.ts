import { Forbidden, NotFound } from '../platform/errors';
import type { Role, TaskVisibility } from './domain';

/** Who is asking: read fresh from the users table on every request. */
export interface Actor {
  id: number;
  role: Role;
  brandIds: number[];
}

export function isSuperadmin(actor: Actor): boolean {
  return actor.role === 'superadmin';
}

/** Superadmins and managers run campaigns, tracks, the team and everyone's posts. */
export function isManagerOrAbove(actor: Actor): boolean {
  return actor.role === 'superadmin' || actor.role === 'manager';
}

/** What the reader may do with a record that one rule decides as a whole: change it, and delete it. */
export interface RecordPermissions {
  edit: boolean;
  delete: boolean;
}

export function recordPermissions(allowed: boolean): RecordPermissions {
  return { edit: allowed, delete: allowed };
}

export function requireRole(actor: Actor, allowed: (actor: Actor) => boolean, message: string): void {
  if (!allowed(actor)) throw new Forbidden(message, 'FORBIDDEN_ROLE');
}

/** The brands whose records the actor may see; undefined means every brand. */
export function brandScope(actor: Actor): number[] | undefined {
  return isSuperadmin(actor) ? undefined : actor.brandIds;
}

export function canSeeBrand(actor: Actor, brandId: number): boolean {
  return isSuperadmin(actor) || actor.brandIds.includes(brandId);
}

/**
 * The brands a list covers: with `?brandId=`, that brand if the actor may see it and none
 * otherwise; without, every brand the actor may see (undefined: all).
 */
export function listedBrands(actor: Actor, brandId: number | undefined): number[] | undefined {
  if (brandId === undefined) return brandScope(actor);
  return canSeeBrand(actor, brandId) ? [brandId] : [];
}

/** A private task is its owner's and assignee's (and any superadmin's); a brand task, the brand's. */
export function canSeeTask(
  actor: Actor,
  task: { brandId: number; visibility: TaskVisibility; ownerId: number | null; assigneeId: number | null },
): boolean {
  if (!canSeeBrand(actor, task.brandId)) return false;
  return task.visibility === 'brand' || isSuperadmin(actor) || task.ownerId === actor.id || task.assigneeId === actor.id;
}

/**
 * A record of another brand answers exactly like a missing one, so ids tell an outsider
 * nothing about what exists.
 */
export function visibleOrNotFound<T extends { brandId: number }>(actor: Actor, record: T | undefined, what: string): T {
  if (!record || !canSeeBrand(actor, record.brandId)) throw new NotFound(`No such ${what}`);
  return record;
}
