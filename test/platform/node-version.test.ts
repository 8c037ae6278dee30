import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tooOldNode } from '../../src/platform/node-version';
import { ROOT } from '../../src/platform/paths';

describe('the Node floor the server and its commands check at start', () => {
  it('when Node is older than the floor, then the message names the floor and the Node that runs', () => {
    for (const version of ['v22.13.1', 'v22.12.0', 'v20.20.2', 'v18.0.0']) {
      const message = tooOldNode(version, '>=22.14');
      expect(message, version).toContain('Node >=22.14');
      expect(message, version).toContain(`this is Node ${version}`);
    }
    expect(tooOldNode('v22.14.0', '>=22.14.1')).toBeDefined();
  });

  it('when Node is at the floor or newer, then nothing is said', () => {
    for (const version of ['v22.14.0', 'v22.20.0', 'v23.0.0', 'v24.21.0', 'v25.3.0', '24.1.0']) {
      expect(tooOldNode(version, '>=22.14'), version).toBeUndefined();
      expect(tooOldNode(version, '>=22.14.0'), version).toBeUndefined();
    }
  });

  it('when the floor is written in a form it does not read, then it stops nobody', () => {
    for (const floor of ['^22.14', '22.x', '>=22', '>=22.14 <26', '']) {
      expect(tooOldNode('v18.0.0', floor), floor).toBeUndefined();
    }
  });

  it("when package.json's floor is read, then it is in the form the check reads, at least the 22.14 that better-sqlite3 needs, and the lock file agrees", () => {
    const read = (name: string) => JSON.parse(fs.readFileSync(path.join(ROOT, name), 'utf8'));
    const floor: string = read('package.json').engines.node;
    expect(tooOldNode('v22.13.1', floor)).toBeDefined();
    expect(tooOldNode(process.version, floor)).toBeUndefined();
    expect(read('package-lock.json').packages[''].engines.node).toBe(floor);
  });
});
