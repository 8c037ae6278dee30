import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './paths';

/**
 * The message for a Node older than `floor` (package.json's `engines.node`, written `>=22.14` or
 * `>=22.14.0`), or undefined when it is new enough or the floor is written some other way.
 */
export function tooOldNode(version: string, floor: string): string | undefined {
  const wanted = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(floor.trim());
  const running = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!wanted || !running) return undefined;
  // A floor written without its patch number (an unmatched group) means patch 0.
  const [want, have] = [wanted, running].map((m) => m.slice(1, 4).map((part) => Number(part || 0)));
  const older = have.findIndex((part, at) => part !== want[at]);
  if (older < 0 || have[older] > want[older]) return undefined;
  return `Museum Platform needs Node ${floor} (package.json's engines); this is Node ${version.replace(/^v?/, 'v')}. Put a newer Node first on PATH and run it again.`;
}

/**
 * Stops the process with a message, before any database is opened, on a Node older than
 * package.json's floor. Why: better-sqlite3 13 kills the process with a segmentation fault and
 * no message when it opens a database on Node below 22.14 (WiseLibs/better-sqlite3#1514; loading
 * the module still works), and `npm start` does not check the floor as `npm ci` does (.npmrc's
 * engine-strict).
 */
export function refuseOldNode(): void {
  const floor = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node;
  const message = floor && tooOldNode(process.version, floor);
  if (!message) return;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
