/**
 * What the current test left to undo (temporary folders, open stores, extra connections),
 * undone newest first after each test by the per-file setup (test/setup/each-file.ts): it is
 * registered there because, with modules shared between the files a worker runs, a hook
 * registered here would only ever belong to the first file.
 */
const cleanups: (() => unknown)[] = [];

export function afterThisTest(cleanup: () => unknown): void {
  cleanups.push(cleanup);
}

export async function runCleanups(): Promise<void> {
  while (cleanups.length) await cleanups.pop()!();
}
