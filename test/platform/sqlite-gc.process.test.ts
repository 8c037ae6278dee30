import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Prepares thousands of statements on many databases, closes half of them and forces a full
 * collection. better-sqlite3 12 on Node 24 aborted the whole process here (exit 134, an assertion
 * in node::RemoveEnvironmentCleanupHook from Statement::~Statement), so the abort can only be seen
 * from outside the process that collects.
 */
const COLLECT_STATEMENTS = `
  const Database = require('better-sqlite3');
  const databases = [];
  for (let d = 0; d < 30; d++) {
    const db = new Database(':memory:');
    for (let s = 0; s < 3000; s++) db.prepare('SELECT ' + s);
    databases.push(db);
  }
  for (const db of databases.slice(0, 15)) db.close();
  global.gc();
  process.stdout.write('collected');
`;

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the script under the Node that runs the tests, with only PATH from this environment. */
function runScript(script: string, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '-e', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe(`better-sqlite3 under garbage collection (Node ${process.version})`, () => {
  it('when many prepared statements are collected after half their databases are closed, then the process exits cleanly', async () => {
    const outcome = await runScript(COLLECT_STATEMENTS, 30_000);
    expect(outcome).toEqual({ code: 0, signal: null, stdout: 'collected', stderr: '' });
  }, 40_000);
});
