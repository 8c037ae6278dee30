// What the server rendered into the page for its scripts: the page's language and reading
// direction, and JSON held in data attributes (EJS escapes them, so no value can break out).

/** @typedef {import('../../../src/platform/languages').Language} Language */

/** @type {Language} */
export const lang = document.documentElement.lang === 'ar' ? 'ar' : 'en';
export const isRtl = document.documentElement.dir === 'rtl';

/**
 * The JSON held in the first element that carries `attribute`; {} when absent or unreadable.
 * It is the server's word on what the page holds, so callers state its shape with a cast.
 * @param {string} attribute
 * @returns {unknown}
 */
export function readJsonAttribute(attribute) {
  const holder = document.querySelector(`[${attribute}]`);
  try {
    /** @type {unknown} */
    const value = JSON.parse(holder?.getAttribute(attribute) || '{}');
    return value;
  } catch {
    return {};
  }
}
