// The page's language and translated strings, for the page scripts of both applications.
// The server renders the locale subtrees a page needs into a data-strings attribute (EJS
// escapes it), so no user-facing string is written in a script.

/** The JSON held in the first element that carries `attribute`; {} when absent or unreadable. */
export function readJsonAttribute(attribute) {
  const holder = document.querySelector(`[${attribute}]`);
  try {
    return JSON.parse(holder?.getAttribute(attribute) || '{}');
  } catch {
    return {};
  }
}

const strings = readJsonAttribute('data-strings');

export const lang = document.documentElement.lang === 'ar' ? 'ar' : 'en';
export const isRtl = document.documentElement.dir === 'rtl';

function lookup(path) {
  return path.split('.').reduce((node, key) => (node === undefined || node === null ? undefined : node[key]), strings);
}

function fill(template, vars) {
  return String(template ?? '').replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name) => (vars[name] === undefined ? '' : String(vars[name])));
}

/** A translated string with {{name}} placeholders filled in. */
export function t(path, vars = {}) {
  const value = lookup(path);
  return typeof value === 'string' ? fill(value, vars) : path;
}

export function has(path) {
  return typeof lookup(path) === 'string';
}

const pluralRules = new Intl.PluralRules(lang);
const countFormat = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });

/**
 * A string with plural forms (zero, one, two, few, many, other), chosen by Intl for `count`.
 * Both locales hold all six forms, so their key sets stay identical.
 */
export function tn(path, count, vars = {}) {
  const forms = lookup(path) ?? {};
  return fill(forms[pluralRules.select(count)] ?? forms.other, { ...vars, count: countFormat.format(count) });
}
