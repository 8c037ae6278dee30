import os from 'node:os';
import { defineConfig } from 'vitest/config';

/** The route suites, which a second run proves on PostgreSQL. */
const ROUTE_SUITES = ['test/dashboard/**/*.test.ts', 'test/workspace/**/*.test.ts', 'test/security/**/*.test.ts'];
/** Browser and process tests, and the suites that already run on both engines by themselves. */
const ONCE_ONLY = ['**/*.browser.test.ts', '**/*.process.test.ts', '**/*.repository.test.ts', 'test/*/repositories/**', 'test/dashboard/data/service.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/setup/engines.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of a test's time is spent waiting on PostgreSQL, Chromium, a server process or a
    // socket, so files run side by side beyond the CPU count (vitest's default is one less than
    // it: a single file at a time on a 2-core machine).
    maxWorkers: Math.max(3, os.availableParallelism()),
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'postgres', include: ROUTE_SUITES, exclude: ONCE_ONLY, env: { TEST_ENGINE: 'postgres' } },
      },
    ],
  },
});
