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

/** Whether `value` may stand as a name or a title: one line, no control character, valid UTF-16. */
export function isSingleLineText(value: string): boolean {
  return wellFormed(value) && !LINE_BREAKING.test(value);
}
const WELL_FORMED = 'must be valid text (it holds a lone surrogate)';

/** A name or a title: trimmed, one line, between `min` and `max` characters. */
export function singleLine(max: number, min = 1) {
  return z
    .string()
    .refine(wellFormed, WELL_FORMED)
    .refine(isSingleLineText, 'must be a single line without control characters')
    .transform((v) => v.trim())
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
