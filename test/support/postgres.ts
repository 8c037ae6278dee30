import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject, onTestFinished } from 'vitest';
import { describeWhenAvailable } from './engine-suite';

const engine = inject('postgres');

/**
 * Suites that need PostgreSQL. Without it they are skipped and say why; in CI (CI=true) a
 * missing PostgreSQL fails the run instead of skipping.
 */
export const describePostgres = describeWhenAvailable('url' in engine ? undefined : engine.missing);

function adminUrl(): string {
  if (!('url' in engine)) throw new Error(engine.missing);
  return engine.url;
}

/** A new, empty database of its own for the current test, dropped when the test finishes. */
export function freshDatabase(): Promise<string> {
  return newDatabase('');
}

/**
 * A new database of its own for the current test with every migration already applied (a
 * copy of the run's template), dropped when the test finishes: for tests of what the
 * applications do rather than of how their schema is built.
 */
export function migratedDatabase(): Promise<string> {
  if (!('url' in engine)) throw new Error(engine.missing);
  // FILE_COPY copies the template's files whole: with the test cluster's fsync off its
  // checkpoints cost nothing, and a copy and its drop take 65 ms instead of WAL_LOG's 100 ms.
  return newDatabase(` TEMPLATE ${engine.template} STRATEGY FILE_COPY`);
}

async function newDatabase(template: string): Promise<string> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template}`);
  } finally {
    await admin.end();
  }
  onTestFinished(async () => {
    const client = new pg.Client({ connectionString: adminUrl() });
    await client.connect();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  });
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}
