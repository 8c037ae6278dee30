import { describe } from 'vitest';

/**
 * Suites that need an engine the test setup may not have started: run when `missing` is
 * undefined; otherwise skipped with the reason printed, or failed in CI (CI=true).
 */
export function describeWhenAvailable(missing: string | undefined): typeof describe {
  if (missing === undefined) return describe;
  if (process.env.CI) {
    return ((name: string) =>
      describe(name, () => {
        throw new Error(missing);
      })) as typeof describe;
  }
  console.warn(missing);
  return describe.skip as typeof describe;
}
