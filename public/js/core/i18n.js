// Translated strings for the page scripts of both applications. The server renders the locale
// subtrees a page needs into a data-strings attribute, so no user-facing string is written in
// a script.
import { formatNumber } from './format.js';
import { lang, readJsonAttribute } from './page.js';

/** @typedef {Record<string, string | number>} Vars */

const strings = readJsonAttribute('data-strings');
const pluralRules = new Intl.PluralRules(lang);

/** @param {string} path */
function lookup(path) {
  return path.split('.').reduce(
    /** @param {unknown} node */
    (node, key) => (node !== null && typeof node === 'object' ? /** @type {Record<string, unknown>} */ (node)[key] : undefined),
    strings,
  );
}

/**
 * @param {unknown} template
 * @param {Vars} vars
 */
function fill(template, vars) {
  const text = typeof template === 'string' ? template : '';
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (/** @type {string} */ _, /** @type {string} */ name) => {
    const value = vars[name];
    return value === undefined ? '' : String(value);
  });
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
  return fill(byForm[pluralRules.select(count)] ?? byForm.other, { ...vars, count: formatNumber(count) });
}
