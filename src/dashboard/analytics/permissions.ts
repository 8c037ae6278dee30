import { parseAllowed } from '../access';
import type { DashboardSession } from '../auth/session-store';
import type { NameSet } from './store';

/** The museums and channels whose rows a session may see. */
export interface Access {
  museums: NameSet;
  channels: NameSet;
}

/** What a session without any readable access list gets: no rows at all. */
export const NO_ACCESS: Access = { museums: new Set(), channels: new Set() };

function fromList(list: string[]): NameSet {
  return list.length === 0 ? 'all' : new Set(list);
}

/**
 * The permission filter of a session, fail-closed: an administrator sees everything; anyone
 * else gets their lists through parseAllowed, where `[]` means all and an unreadable list
 * (null) means nothing — for both dimensions, since half a permission is not one.
 */
export function accessOf(session: Pick<DashboardSession, 'role' | 'allowedMuseums' | 'allowedChannels'>): Access {
  if (session.role === 'admin') return { museums: 'all', channels: 'all' };
  const museums = parseAllowed(session.allowedMuseums);
  const channels = parseAllowed(session.allowedChannels);
  if (museums === null || channels === null) return NO_ACCESS;
  return { museums: fromList(museums), channels: fromList(channels) };
}

export function isRestricted(access: Access): boolean {
  return access.museums !== 'all' || access.channels !== 'all';
}

/**
 * A user's own filter inside what they may see: requested values outside `allowed` are
 * dropped, and a filter that this leaves empty is not applied, so the result is never
 * wider than `allowed`.
 */
export function narrow(allowed: NameSet, requested: readonly string[]): NameSet {
  if (requested.length === 0) return allowed;
  if (allowed === 'all') return new Set(requested);
  const kept = requested.filter((value) => allowed.has(value));
  return kept.length > 0 ? new Set(kept) : allowed;
}

/** A choice held to what the user may see: values outside `allowed` match nothing, so all of them out of reach leave nothing. */
export function narrowStrictly(allowed: NameSet, requested: readonly string[]): NameSet {
  if (requested.length === 0) return allowed;
  return new Set(allowed === 'all' ? requested : requested.filter((value) => allowed.has(value)));
}
