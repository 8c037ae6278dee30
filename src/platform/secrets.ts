import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { SchemaStep } from './db/migrate';

export interface Secrets {
  jwtSecret: string;
  sessionSecret: string;
}

const NAMES = ['jwtSecret', 'sessionSecret'] as const;

function generated(): string {
  return randomBytes(48).toString('hex');
}

/**
 * Where secrets not given in the environment are generated once and kept, so that a restart
 * (and, with a shared database, every other instance) keeps tokens and cookie sessions valid.
 */
export interface SecretKeeper {
  resolve(given: Partial<Secrets>): Promise<Secrets>;
}

/** In `DATA_DIR/secrets.json`, for one machine. */
export function fileSecrets(dataDir: string): SecretKeeper {
  return {
    async resolve(given) {
      const file = path.join(dataDir, 'secrets.json');
      let stored: Partial<Secrets> = {};
      if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>;
      const result: Secrets = {
        jwtSecret: given.jwtSecret ?? stored.jwtSecret ?? generated(),
        sessionSecret: given.sessionSecret ?? stored.sessionSecret ?? generated(),
      };
      for (const name of NAMES) if (!given[name]) stored[name] = result[name];
      fs.mkdirSync(dataDir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, JSON.stringify(stored, null, 2), { mode: 0o600 });
      fs.renameSync(tmp, file);
      return result;
    },
  };
}

export interface SecretsTables {
  secrets: { name: string; value: string };
}

export const secretsMigrations: Record<string, SchemaStep> = {
  async '2026_11_24_001_secrets'(db) {
    await db.schema
      .createTable('secrets')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * In the shared database. Instances started together may each generate a secret: the first
 * one stored wins and every instance reads that one back.
 */
export function databaseSecrets(db: Kysely<SecretsTables>): SecretKeeper {
  return {
    async resolve(given) {
      const missing = NAMES.filter((name) => !given[name]);
      if (missing.length > 0) {
        await db
          .insertInto('secrets')
          .values(missing.map((name) => ({ name, value: generated() })))
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
      }
      const stored = new Map((await db.selectFrom('secrets').select(['name', 'value']).execute()).map((r) => [r.name, r.value]));
      const pick = (name: (typeof NAMES)[number]) => given[name] ?? stored.get(name);
      const jwtSecret = pick('jwtSecret');
      const sessionSecret = pick('sessionSecret');
      if (!jwtSecret || !sessionSecret) throw new Error('The database holds no secrets after storing them');
      return { jwtSecret, sessionSecret };
    },
  };
}
