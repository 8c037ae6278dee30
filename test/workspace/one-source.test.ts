import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DOMAIN, ROLES } from '../../src/workspace/domain';

/**
 * The workspace's rules and vocabulary live once, on the server: pages decide from the `can`
 * the API hands them and read lists from the page's data, so neither is written again here.
 */

const ROOT = path.resolve(__dirname, '..', '..');

function filesUnder(dir: string, endings: readonly string[]): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(rel, endings);
    return endings.some((e) => entry.name.endsWith(e)) ? [rel] : [];
  });
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The workspace's page scripts and the modules they share with the dashboard. */
const PAGE_SCRIPTS = [...filesUnder('public/js/workspace', ['.js']), ...filesUnder('public/js/core', ['.js'])];

/**
 * Where the lists are written: the vocabulary, and the platform's language list it names.
 * The schema migrations keep the lists of their day in their CHECK constraints: a migration
 * that has run never changes, so a changed list takes a new step.
 */
const LIST_HOMES = new Set(['src/workspace/domain.ts', 'src/platform/languages.ts', 'src/workspace/migrations.ts']);

/** Every list of the vocabulary with more than one value, by name. */
const LISTS: [string, readonly string[]][] = Object.entries(DOMAIN).flatMap(([name, value]): [string, readonly string[]][] =>
  Array.isArray(value) && value.length > 1 ? [[name, value as readonly string[]]] : [],
);

/**
 * Runs of two or more quoted words written as a list: an array's items (`['en', 'ar']`), a
 * union of types (`'en' | 'ar'`), or SQL's `IN ('en', 'ar')`.
 */
function writtenLists(text: string): { at: number; values: string[] }[] {
  const found: { at: number; values: string[] }[] = [];
  const run = /(?:\[|\(|(?<=[:{<]\s*))\s*((?:(['"])[\w-]+\2\s*(?:,|\|)\s*)+(['"])[\w-]+\3)/g;
  for (const match of text.matchAll(run)) {
    found.push({ at: match.index, values: [...match[1].matchAll(/['"]([\w-]+)['"]/g)].map((m) => m[1]) });
  }
  return found;
}

describe('one source for the rules and the vocabulary', () => {
  it('when the page scripts are read, then no role is named in them, not even in a comment (the role badge is drawn by the server)', () => {
    const word = new RegExp(`\\b(${ROLES.join('|')})s?\\b`, 'gi');
    const found = PAGE_SCRIPTS.flatMap((file) => {
      const text = read(file);
      return [...text.matchAll(word)].map((m) => `${file}:${lineOf(text, m.index)} ${m[0]}`);
    });
    expect(found).toEqual([]);
  });

  it('when the page scripts are read, then none decides by role or by a rule of who moves a post where: they read `can`', () => {
    const rules = /\bisManager\b|\bisSuperadmin\b|\.role\s*[!=]==|===?\s*[\w.]*\.role\b|authorPostStatuses|mayMovePost|isSendingBack/g;
    const found = PAGE_SCRIPTS.flatMap((file) => {
      const text = read(file);
      return [...text.matchAll(rules)].map((m) => `${file}:${lineOf(text, m.index)} ${m[0]}`);
    });
    expect(found).toEqual([]);
  });

  it('when the workspace’s server code, templates and page scripts are read, then the lists of the vocabulary are written only in src/workspace/domain.ts', () => {
    const files = [...filesUnder('src/workspace', ['.ts']), ...filesUnder('views/workspace', ['.ejs']), ...PAGE_SCRIPTS].filter((f) => !LIST_HOMES.has(f));
    const found = files.flatMap((file) => {
      const text = read(file);
      return writtenLists(text).flatMap(({ at, values }) =>
        LISTS.filter(([, list]) => values.every((v) => list.includes(v))).map(([name]) => `${file}:${lineOf(text, at)} ${name}: ${values.join(', ')}`),
      );
    });
    expect(found).toEqual([]);
  });

  it('when a list is written again in a script, then the check above finds it (it is not blind)', () => {
    expect(writtenLists("const LANGS = ['en', 'ar'];\n/** @typedef {'en' | 'ar'} L */\nsql`x IN ('todo', 'done')`").map((l) => l.values)).toEqual([
      ['en', 'ar'],
      ['en', 'ar'],
      ['todo', 'done'],
    ]);
  });
});
