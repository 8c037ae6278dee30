import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { ProvidedContext } from 'vitest';
import type { TestProject } from 'vitest/node';
import pg from 'pg';
import { openRecords } from '../../src/stores';
import { createLogger } from '../../src/platform/logger';
import { postgresBinaries, startPostgres, type PostgresServer } from '../support/postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Superuser URL of the run's PostgreSQL cluster and the name of a database there already
     * brought up to date (the template tests copy), or why there is none.
     */
    postgres: { url: string; template: string } | { missing: string };
    /** Endpoint of the run's S3-compatible server (s3rver), or why there is none. */
    s3: { endpoint: string } | { missing: string };
    /** Names this run, so that the files that run the built server build it once between them. */
    runId: string;
    /** A folder of both applications' SQLite records files, migrated once per run, for tests to copy. */
    sqliteTemplate: string;
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
 * A database brought up to date by the server's own migrations, once per run: tests copy it
 * (CREATE DATABASE … TEMPLATE) instead of applying every step again, which cost each
 * PostgreSQL test most of a second. Connections to it are then refused, as a copy needs.
 */
async function migratedTemplate(serverUrl: string): Promise<string> {
  const name = 'museum_migrated';
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-template-'));
    try {
      const records = await openRecords({ dataDir, database: { url: url.toString(), poolMax: 2 } }, createLogger('silent'));
      await records.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
  } finally {
    await admin.end();
  }
  return name;
}

/**
 * Both applications' SQLite records files, migrated once per run in a folder the run removes:
 * made in each test process instead, they were left behind whenever vitest ended a process
 * without its exit handlers.
 */
async function migratedSqlite(): Promise<{ dir: string; stop: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'museum-sqlite-template-'));
  await (await openRecords({ dataDir: dir, database: undefined }, createLogger('silent'))).close();
  return { dir, stop: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

interface Engines {
  provided: { runId: string; s3: ProvidedContext['s3']; postgres: ProvidedContext['postgres']; sqliteTemplate: string };
  stop(): Promise<void>;
}

/**
 * Starts the engines the suite tests against, and says how to remove them. Without Debian's
 * `postgresql` package the PostgreSQL tests are skipped with a message naming it; in CI
 * (CI=true) they fail instead.
 */
async function startEngines(): Promise<Engines> {
  const s3 = await startS3().catch((err: unknown) => ({ missing: `The S3-compatible test server (s3rver, from npm) could not start: ${String(err)}` }));
  const bin = postgresBinaries();
  const server: PostgresServer | undefined = bin ? await startPostgres(bin) : undefined;
  const sqlite = await migratedSqlite();
  return {
    provided: {
      runId: randomUUID(),
      sqliteTemplate: sqlite.dir,
      s3: 'endpoint' in s3 ? { endpoint: s3.endpoint } : s3,
      postgres: server
        ? { url: server.url, template: await migratedTemplate(server.url) }
        : { missing: "PostgreSQL is not installed: install Debian's package `postgresql` (apt-get install postgresql) to run these tests" },
    },
    async stop() {
      sqlite.stop();
      server?.stop();
      if ('stop' in s3) await s3.stop();
    },
  };
}

/**
 * Every vitest project calls this global setup, in the one main process: the first call
 * starts the engines and the last teardown removes them, so that projects share one cluster,
 * one object store and one run id.
 */
const shared = globalThis as typeof globalThis & { museumEngines?: { started: Promise<Engines>; users: number } };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const entry = (shared.museumEngines ??= { started: startEngines(), users: 0 });
  entry.users += 1;
  const engines = await entry.started;
  project.provide('runId', engines.provided.runId);
  project.provide('s3', engines.provided.s3);
  project.provide('postgres', engines.provided.postgres);
  project.provide('sqliteTemplate', engines.provided.sqliteTemplate);
  return async () => {
    entry.users -= 1;
    if (entry.users > 0) return;
    delete shared.museumEngines;
    await engines.stop();
  };
}
