// Translated strings for the page scripts of both applications. The server renders the locale
// subtrees a page needs into a data-strings attribute, so no user-facing string is written in
// a script.
import { element } from './dom.js';
import { formatNumber } from './format.js';
import { lang, readJsonAttribute } from './page.js';

/** @typedef {Record<string, string | number>} Vars */

const strings = readJsonAttribute('data-strings');
/** @type {Intl.PluralRules | undefined} */
let plurals;
// Built when first needed, not as every page's scripts load: it loads the language's data.
const pluralRules = () => (plurals ??= new Intl.PluralRules(lang));

/** @param {string} path */
function lookup(path) {
  return path.split('.').reduce(
    /** @param {unknown} node */
    (node, key) => (node !== null && typeof node === 'object' ? /** @type {Record<string, unknown>} */ (node)[key] : undefined),
    strings,
  );
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** A template may name a placeholder its caller gave no value. @param {Partial<Vars>} vars @param {string} name */
const valueOf = (vars, name) => (vars[name] === undefined ? '' : String(vars[name]));

/**
 * @param {unknown} template
 * @param {Vars} vars
 */
function fill(template, vars) {
  const text = typeof template === 'string' ? template : '';
  return text.replace(PLACEHOLDER, (/** @type {string} */ _, /** @type {string} */ name) => valueOf(vars, name));
}

/**
 * A translated string with {{name}} placeholders filled in; the path itself when the page has none.
 * @param {string} path
 * @param {Vars} [vars]
 */
export function t(path, vars = {}) {
  const value = lookup(path);
  return typeof value === 'string' ? fill(value, vars) : path;
}

/**
 * A translated sentence as nodes for the page, each filled-in value in a <bdi> of its own: a
 * title or name written in the other direction (Arabic in English, English in Arabic) keeps
 * its own direction, and the quotes and stops around it stay where the sentence puts them.
 * Values go in as text, never as markup. For the page's text only: an attribute (a label, a
 * title) takes the plain string of `t`.
 * @param {string} path
 * @param {Vars} [vars]
 * @returns {(string | HTMLElement)[]}
 */
export function tIsolated(path, vars = {}) {
  const template = lookup(path);
  if (typeof template !== 'string') return [path];
  /** @type {(string | HTMLElement)[]} */
  const parts = [];
  let from = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    parts.push(template.slice(from, match.index), element('bdi', { text: valueOf(vars, match[1]) }));
    from = match.index + match[0].length;
  }
  parts.push(template.slice(from));
  return parts.filter((part) => part !== '');
}

/** @param {string} path */
export function has(path) {
  return typeof lookup(path) === 'string';
}

/**
 * A string with plural forms (zero, one, two, few, many, other), chosen by Intl for `count`.
 * Both locales hold all six forms, so their key sets stay identical.
 * @param {string} path
 * @param {number} count
 * @param {Vars} [vars]
 */
export function tn(path, count, vars = {}) {
  const forms = lookup(path);
  if (forms === null || typeof forms !== 'object') return path;
  const byForm = /** @type {Record<string, unknown>} */ (forms);
  return fill(byForm[pluralRules().select(count)] ?? byForm.other, { ...vars, count: formatNumber(count) });
}

/**
 * `tn`'s plural form, as `tIsolated`'s nodes: each filled-in value, the count among them, in a
 * <bdi> of its own.
 * @param {string} path
 * @param {number} count
 * @param {Vars} [vars]
 * @returns {(string | HTMLElement)[]}
 */
export function tnIsolated(path, count, vars = {}) {
  const forms = lookup(path);
  if (forms === null || typeof forms !== 'object') return [path];
  const form = pluralRules().select(count);
  const key = typeof (/** @type {Record<string, unknown>} */ (forms))[form] === 'string' ? form : 'other';
  return tIsolated(`${path}.${key}`, { ...vars, count: formatNumber(count) });
}
