import type { TestProject } from 'vitest/node';
import { postgresBinaries, startPostgres, type PostgresServer } from '../support/postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL cluster, or why there is none. */
    postgres: { url: string } | { missing: string };
  }
}

/**
 * Starts the engines the suite tests against once per run, and removes them afterwards.
 * Without Debian's `postgresql` package the PostgreSQL tests are skipped with a message
 * naming it; in CI (CI=true) they fail instead.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const bin = postgresBinaries();
  let server: PostgresServer | undefined;
  if (bin) {
    server = await startPostgres(bin);
    project.provide('postgres', { url: server.url });
  } else {
    project.provide('postgres', { missing: "PostgreSQL is not installed: install Debian's package `postgresql` (apt-get install postgresql) to run these tests" });
  }
  return () => server?.stop();
}
