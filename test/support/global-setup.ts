import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Tests that start the real server process run the compiled build, so build it once. */
export default function setup(): void {
  const root = path.resolve(__dirname, '..', '..');
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}
