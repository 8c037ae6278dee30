import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { TestProject } from 'vitest/node';
import { postgresBinaries, startPostgres, type PostgresServer } from '../support/postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL cluster, or why there is none. */
    postgres: { url: string } | { missing: string };
    /** Endpoint of the run's S3-compatible server (s3rver), or why there is none. */
    s3: { endpoint: string } | { missing: string };
    /** Names this run, so that the files that run the built server build it once between them. */
    runId: string;
  }
}

/** s3rver on a free loopback port, its objects in a folder of its own that goes with it. */
async function startS3(): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Starts the engines the suite tests against once per run, and removes them afterwards.
 * Without Debian's `postgresql` package the PostgreSQL tests are skipped with a message
 * naming it; in CI (CI=true) they fail instead.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('runId', randomUUID());
  const s3 = await startS3().catch((err: unknown) => {
    project.provide('s3', { missing: `The S3-compatible test server (s3rver, from npm) could not start: ${String(err)}` });
    return undefined;
  });
  if (s3) project.provide('s3', { endpoint: s3.endpoint });
  const bin = postgresBinaries();
  let server: PostgresServer | undefined;
  if (bin) {
    server = await startPostgres(bin);
    project.provide('postgres', { url: server.url });
  } else {
    project.provide('postgres', { missing: "PostgreSQL is not installed: install Debian's package `postgresql` (apt-get install postgresql) to run these tests" });
  }
  return async () => {
    server?.stop();
    await s3?.stop();
  };
}
