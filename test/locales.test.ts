import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES_DIR } from '../src/platform/paths';

/** A locale file as JSON.parse gives it: whether every leaf is a string is for the tests to check. */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Tree = { [key: string]: Json };

function read(lang: string): Tree {
  return JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, `${lang}.json`), 'utf8')) as Tree;
}

/** Every leaf of the tree as `a.b.c` with its value. */
function leaves(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) for (const [k, v] of leaves(value, name)) out.set(k, v);
    else out.set(name, value);
  }
  return out;
}

const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]));

/** The forms Intl.PluralRules picks from; both files hold all six. */
const PLURAL_FORM = /\.(zero|one|two|few|many|other)$/;

/**
 * Whether the Arabic string fills in the English one's {{names}}. A plural form may say a
 * number in words where English writes the figure ("منشوران", two posts), so there the
 * Arabic may use fewer of them, never others.
 */
function samePlaceholders(key: string, english: string, arabic: string): boolean {
  const [e, a] = [placeholders(english), placeholders(arabic)];
  const within = [...a].every((name) => e.has(name));
  return PLURAL_FORM.test(key) ? within : within && e.size === a.size;
}

describe('locales/en.json and locales/ar.json', () => {
  const en = leaves(read('en'));
  const ar = leaves(read('ar'));

  it('when a key exists in English, then it exists in Arabic', () => {
    expect([...en.keys()].filter((k) => !ar.has(k))).toEqual([]);
  });

  it('when a key exists in Arabic, then it exists in English', () => {
    expect([...ar.keys()].filter((k) => !en.has(k))).toEqual([]);
  });

  it('when a value is read, then it is a non-empty string in both languages', () => {
    const bad = [...en, ...ar].filter(([, v]) => typeof v !== 'string' || v.trim() === '').map(([k]) => k);
    expect(bad).toEqual([]);
  });

  it('when a string has {{placeholders}}, then both languages use the same ones', () => {
    const differing = [...en.keys()].filter((k) => ar.has(k) && !samePlaceholders(k, String(en.get(k)), String(ar.get(k))));
    expect(differing).toEqual([]);
  });

  it('when a workspace string is shown in Arabic, then it is written in Arabic, not left in English', () => {
    // Product names, platform names and file formats may stay in Latin letters.
    const latinOnly = [...ar].filter(([k, v]) => k.startsWith('workspace.') && !/[\u0600-\u06FF]/.test(String(v)) && !/^\{\{|^[A-Z]/.test(String(v)));
    expect(latinOnly.map(([k]) => k)).toEqual([]);
  });

  it('when a placeholder would stand for the reader ("to you"), then the Arabic has its own wording, never "إلى أنت"', () => {
    expect(ar.get('workspace.tasks.assignedToYou')).toBe('مُسندة إليك');
    expect([...ar].filter(([, v]) => String(v).includes('إلى أنت')).map(([k]) => k)).toEqual([]);
  });
});
