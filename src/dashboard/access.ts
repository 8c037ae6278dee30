/**
 * Access lists are JSON text. Fail-closed: anything that is not a JSON array of strings
 * (empty text, missing, invalid JSON, another JSON value, an array holding non-strings)
 * is `null`, which means no data at all. `[]` means no restriction.
 */
export function parseAllowed(text: string | null | undefined): string[] | null {
  if (typeof text !== 'string' || text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return null;
  return value;
}

export const NO_RESTRICTION = '[]';

export function serializeAllowed(list: readonly string[]): string {
  return JSON.stringify([...new Set(list)]);
}
