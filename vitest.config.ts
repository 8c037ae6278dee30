import os from 'node:os';
import { defineConfig } from 'vitest/config';

/** The route suites, which a second run proves on PostgreSQL. */
const ROUTE_SUITES = ['test/dashboard/**/*.test.ts', 'test/workspace/**/*.test.ts', 'test/security/**/*.test.ts'];
const BROWSER = 'test/**/*.browser.test.ts';
const PROCESS = 'test/**/*.process.test.ts';
const WORKERS = Math.max(3, os.availableParallelism());
/** Browser and process tests, and the suites that already run on both engines by themselves. */
const ONCE_ONLY = [BROWSER, PROCESS, '**/*.repository.test.ts', 'test/*/repositories/**', 'test/dashboard/visits/service.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/setup/engines.ts'],
    setupFiles: ['test/setup/each-file.ts'],
    // In the sqlite and postgres projects a worker keeps the modules it has loaded from one
    // test file to the next: importing the whole server again for each of some three hundred
    // files took a tenth of the run. Every test builds its own app and stores, so nothing of
    // one file's state reaches another; spies are put back after each test for the same
    // reason. Browser and process files, whose own time dwarfs an import, stay isolated.
    isolate: false,
    restoreMocks: true,
    // A file asks for a longer time through its describe's options, never vi.setConfig: vitest
    // 3.2's vi keeps the worker state of the first file its worker ran, so in a worker that goes
    // on to other files vi.setConfig changes a state no test reads (CI timed out at 20 s so).
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of a test's time is spent waiting on PostgreSQL, Chromium, a server process or a
    // socket, so files run side by side beyond the CPU count (vitest's default is one less than
    // it: a single file at a time on a 2-core machine).
    maxWorkers: WORKERS,
    // With modules kept between files, vitest 3.2 lets idle workers go while another file is
    // still being handed to them, and the run ends on "Terminating worker thread" without its
    // totals (vitest issue 8564): the workers stay for the whole run instead.
    minWorkers: WORKERS,
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: [BROWSER, PROCESS] } },
      // A page drives Chromium, whose start and paint are what a busy machine slows most.
      { extends: true, test: { name: 'browser', include: [BROWSER], testTimeout: 60_000, isolate: true } },
      // Tests that start the built server (node dist/server.js) and the engines beside it: a
      // start that migrates and fills a database takes several seconds alone and many times that
      // on a busy machine, and some tests start three.
      { extends: true, test: { name: 'process', include: [PROCESS], testTimeout: 120_000, isolate: true } },
      {
        extends: true,
        test: { name: 'postgres', include: ROUTE_SUITES, exclude: ONCE_ONLY, env: { TEST_ENGINE: 'postgres' } },
      },
    ],
  },
});
