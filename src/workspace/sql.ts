/** Small helpers shared by the workspace's SQLite repositories. */

/** `(?, ?, ?)` for a non-empty list of bound values. */
export function inList(values: readonly unknown[]): string {
  return `(${values.map(() => '?').join(', ')})`;
}

export function isForeignKeyViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * The `column = ?` list of an UPDATE for the keys of `patch` that are set, in the order of
 * `columns` (which also keeps any key that is not a column out of the SQL).
 */
export function assignments<P extends object>(patch: P, columns: { [K in keyof P]?: string }): { sql: string; values: unknown[] } {
  const sets: string[] = [];
  const values: unknown[] = [];
  for (const key of Object.keys(columns) as (keyof P)[]) {
    if (patch[key] === undefined) continue;
    sets.push(`${columns[key]} = ?`);
    values.push(patch[key]);
  }
  return { sql: sets.join(', '), values };
}

/**
 * A WHERE clause that keeps rows of the brands in `brandIds` (all when undefined), equal
 * to each defined filter value and meeting each `also` condition; undefined when the
 * brand list is empty, since then nothing can match.
 */
export function scopedWhere(
  brandColumn: string,
  brandIds: number[] | undefined,
  equals: Record<string, unknown>,
  also: { sql: string; values: unknown[] }[] = [],
): { sql: string; values: unknown[] } | undefined {
  if (brandIds !== undefined && brandIds.length === 0) return undefined;
  const terms: string[] = [];
  const values: unknown[] = [];
  if (brandIds !== undefined) {
    terms.push(`${brandColumn} IN ${inList(brandIds)}`);
    values.push(...brandIds);
  }
  for (const [column, value] of Object.entries(equals)) {
    if (value === undefined) continue;
    terms.push(`${column} = ?`);
    values.push(value);
  }
  for (const condition of also) {
    terms.push(condition.sql);
    values.push(...condition.values);
  }
  return { sql: terms.length ? `WHERE ${terms.join(' AND ')}` : '', values };
}

/** Groups `[key, value]` rows into lists by key, keeping their order. */
export function groupPairs(rows: [number, number][]): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const [key, value] of rows) {
    const list = groups.get(key);
    if (list) list.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}
