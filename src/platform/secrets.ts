import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface Secrets {
  jwtSecret: string;
  sessionSecret: string;
}

/**
 * Secrets not given in the environment are generated once and kept in DATA_DIR, so a
 * restart keeps tokens and cookie sessions valid.
 */
export function resolveSecrets(dataDir: string, given: Partial<Secrets>): Secrets {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Secrets> = {};
  if (fs.existsSync(file)) stored = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>;
  const result: Secrets = {
    jwtSecret: given.jwtSecret ?? stored.jwtSecret ?? randomBytes(48).toString('hex'),
    sessionSecret: given.sessionSecret ?? stored.sessionSecret ?? randomBytes(48).toString('hex'),
  };
  if (stored.jwtSecret !== result.jwtSecret && !given.jwtSecret) stored.jwtSecret = result.jwtSecret;
  if (stored.sessionSecret !== result.sessionSecret && !given.sessionSecret) stored.sessionSecret = result.sessionSecret;
  fs.mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(stored, null, 2), { mode: 0o600 });
  fs.renameSync(tmp, file);
  return result;
}
