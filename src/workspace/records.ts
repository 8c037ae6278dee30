import type { Kysely } from 'kysely';
import type { RecordsDb } from '../platform/db/engine';
import type { WorkspaceTables } from './tables';

/** The workspace's records on either engine. */
export type WorkspaceRecords = RecordsDb<WorkspaceTables>;

/** The query builder, or a transaction of it: repositories' private readers take either. */
export type WorkspaceDb = Kysely<WorkspaceTables>;

/** Groups `[key, value]` pairs into lists by key, keeping their order. */
export function groupPairs(rows: readonly (readonly [number, number])[]): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const [key, value] of rows) {
    const list = groups.get(key);
    if (list) list.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}
