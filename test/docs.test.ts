import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const SCANNED = ['src', 'test', 'public', 'views', 'bench', 'docs', 'README.md', 'eslint.config.mjs', 'vitest.config.ts'];
const SKIPPED = new Set(['node_modules', 'artifacts', 'dist']);

function files(entry: string): string[] {
  const full = path.join(ROOT, entry);
  if (!fs.statSync(full).isDirectory()) return [full];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((e) => !SKIPPED.has(e.name))
    .flatMap((e) => files(path.join(entry, e.name)));
}

describe('documents cited by the code', () => {
  it('when a file names a Markdown document, then the document is in the repository (beside the file, or from its root)', () => {
    const missing: string[] = [];
    for (const file of SCANNED.flatMap(files).filter((f) => /\.(ts|js|mjs|ejs|md|css)$/.test(f))) {
      for (const [cited] of fs.readFileSync(file, 'utf8').matchAll(/[A-Za-z0-9_./-]+\.md\b/g)) {
        const found = [path.join(ROOT, cited), path.resolve(path.dirname(file), cited)].some((p) => fs.existsSync(p));
        if (!found) missing.push(`${path.relative(ROOT, file)}: ${cited}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
