import { z } from 'zod';

/**
 * The one rule for text that people type, in both applications: names and titles are a
 * single line without control characters; longer text (descriptions, captions) keeps its
 * line breaks, written as \n whatever the sender's system used, and no other control
 * character; and no text may hold invalid UTF-16 (a lone surrogate), which no database or
 * page could show as what was sent.
 */

// C0 and C1 controls (line breaks among them), DEL, and the line and paragraph separators.
// eslint-disable-next-line no-control-regex -- finding control characters is the point of this pattern.
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// The same without \n and \t, which longer text may hold.
// eslint-disable-next-line no-control-regex -- as above.
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const wellFormed = (value: string) => value.isWellFormed();

/**
 * Embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) reorder the text around
 * them: in a name or a title shown among other text, they can make it read as something
 * else ("Trojan Source"). The marks LRM and RLM, which only nudge neutral characters, stay.
 */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/**
 * What shows nothing on a page: white space, format and default-ignorable characters (zero-width
 * spaces and joiners, the byte-order mark, the Hangul fillers), combining marks with nothing
 * to sit on, and the blank Braille pattern, which fonts draw as an empty cell.
 */
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cf}\p{Mn}\p{Me}\u2800]+$/u;

/** Whether `value` may stand as a name or a title: one line, no control character, valid UTF-16. */
export function isSingleLineText(value: string): boolean {
  return wellFormed(value) && !LINE_BREAKING.test(value);
}
const WELL_FORMED = 'must be valid text (it holds a lone surrogate)';

/**
 * A name or a title: trimmed, one line, between `min` and `max` characters, with something a
 * reader can see (an empty optional text is still allowed) and nothing that reorders it.
 */
export function singleLine(max: number, min = 1) {
  return z
    .string()
    .refine(wellFormed, WELL_FORMED)
    .refine(isSingleLineText, 'must be a single line without control characters')
    .refine((v) => !BIDI_CONTROL.test(v), 'must not contain bidirectional embedding, override or isolate characters')
    .transform((v) => v.trim())
    .refine((v) => v === '' || !INVISIBLE_ONLY.test(v), 'must hold visible characters')
    .pipe(z.string().min(min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`).max(max));
}

/** Longer text: line breaks written as \n, trimmed at both ends, at most `max` characters. */
export function multiLine(max: number) {
  return z
    .string()
    .refine(wellFormed, WELL_FORMED)
    .transform((v) => v.replace(/\r\n?/g, '\n').trim())
    .refine((v) => !CONTROL_BUT_LINES.test(v), 'must not contain control characters other than line breaks and tabs')
    .pipe(z.string().max(max));
}

/**
 * Arabic letters that people type in several ways, and the one way search compares them in:
 * alef with hamza or madda and wasla as bare alef, hamza on waw or yaa as the bare letter,
 * taa marbuta as haa, alef maqsura (and the Persian yaa) as yaa.
 */
const FOLDED_LETTERS: Readonly<Record<string, string>> = {
  '\u0622': '\u0627',
  '\u0623': '\u0627',
  '\u0625': '\u0627',
  '\u0671': '\u0627',
  '\u0672': '\u0627',
  '\u0673': '\u0627',
  '\u0624': '\u0648',
  '\u0626': '\u064a',
  '\u0629': '\u0647',
  '\u0649': '\u064a',
  '\u06cc': '\u064a',
};

/** Marks search ignores: tashkeel (harakat, shadda, sukun, tanween, dagger alef), Quranic marks, tatweel. */
const DROPPED_MARKS = [
  ...range(0x0610, 0x061a),
  ...range(0x064b, 0x065f),
  0x0670,
  ...range(0x06d6, 0x06dc),
  ...range(0x06df, 0x06e8),
  ...range(0x06ea, 0x06ed),
  0x0640,
].map((code) => String.fromCharCode(code));

function range(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

const FOLDED = new RegExp(`[${Object.keys(FOLDED_LETTERS).join('')}]`, 'g');
const DROPPED = new RegExp(`[${DROPPED_MARKS.join('')}]`, 'g');

/**
 * Text as search compares it: lower case, Arabic letter variants folded and marks dropped, so
 * that `اطلالة` finds `إطلالة` and `تعرفوا` finds `تعرّفوا`. Both the typed text and the stored
 * text go through it (SQLite calls this function; PostgreSQL runs `searchFoldTranslation`).
 */
export function foldForSearch(text: string): string {
  return text.toLowerCase().replace(DROPPED, '').replace(FOLDED, (c) => FOLDED_LETTERS[c]);
}

/**
 * The same folding as arguments of SQL's `translate(text, from, to)`: each letter of `from`
 * becomes the letter at its place in `to`, and those past the end of `to` are removed.
 */
export const searchFoldTranslation = {
  from: Object.keys(FOLDED_LETTERS).join('') + DROPPED_MARKS.join(''),
  to: Object.values(FOLDED_LETTERS).join(''),
};

/**
 * Where `text` holds `needle` as search compares them (`foldForSearch`), as [start, end) places
 * in `text` itself, each match after the one before; none when the needle folds to nothing.
 */
export function foldedMatches(text: string, needle: string): [number, number][] {
  const sought = foldForSearch(needle);
  if (sought === '') return [];
  let folded = '';
  // The place in `text` of each folded character; `ends` where that character ends.
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  // A string iterates by code point, a lone surrogate as one.
  for (const character of text) {
    const next = at + character.length;
    const piece = foldForSearch(character);
    folded += piece;
    // One entry per UTF-16 unit, as indexOf counts in `folded`.
    for (let unit = 0; unit < piece.length; unit += 1) {
      starts.push(at);
      ends.push(next);
    }
    at = next;
  }
  const matches: [number, number][] = [];
  for (let found = folded.indexOf(sought); found !== -1; found = folded.indexOf(sought, found + sought.length)) {
    let end = ends[found + sought.length - 1];
    // Marks that follow the last letter belong to it: a mark left outside would be drawn apart.
    for (let mark = text.codePointAt(end); mark !== undefined && foldForSearch(String.fromCodePoint(mark)) === ''; mark = text.codePointAt(end)) end += 1;
    matches.push([starts[found], end]);
  }
  return matches;
}
