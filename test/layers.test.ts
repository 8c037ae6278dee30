import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '..', 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * The files of src/ that `file` imports (relative imports only: packages are not ours). Type
 * imports count as much as any: they leave nothing at run time, but a folder that needs
 * another's types depends on it all the same.
 */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)[^'"]*from '(\.[^']+)'/gm)) {
    const target = path.resolve(path.dirname(file), match[1]);
    const candidate = [`${target}.ts`, path.join(target, 'index.ts')].find((f) => fs.existsSync(f));
    if (candidate) found.push(candidate);
  }
  return found;
}

/**
 * What a file belongs to: its feature folder (src/workspace/posts), or, for a file at the
 * top of an application or of src/, the file itself (src/workspace/access.ts).
 */
function unitOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 2 ? parts.slice(0, 2).join('/') : parts.join('/');
}

/** Every cycle among units, each as the path that closes it. */
function cycles(edges: Map<string, Set<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (unit: string, trail: string[]) => {
    state.set(unit, 'open');
    for (const next of edges.get(unit) ?? []) {
      if (state.get(next) === 'open') found.push([...trail.slice(trail.indexOf(next)), unit, next]);
      else if (!state.has(next)) visit(next, [...trail, unit]);
    }
    state.set(unit, 'done');
  };
  for (const unit of edges.keys()) if (!state.has(unit)) visit(unit, []);
  return found;
}

describe('the layers of src/ (docs/architecture.md)', () => {
  it('when the imports between feature folders are followed, types included, then no folder leads back to itself', () => {
    const edges = new Map<string, Set<string>>();
    for (const file of sourceFiles(SRC)) {
      const from = unitOf(file);
      for (const target of importsOf(file)) {
        const to = unitOf(target);
        if (to === from) continue;
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)!.add(to);
      }
    }
    expect(edges.size).toBeGreaterThan(10);
    expect(cycles(edges)).toEqual([]);
  });
});
