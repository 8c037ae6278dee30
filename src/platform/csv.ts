import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';

/**
 * A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection"),
 * and some skip white space before them, so spaces or tabs first do not make it safe.
 */
const FORMULA_START = /^(\s*[=+\-@]|[\t\r\n])/;

/** One CSV cell: neutralised against formula injection, then quoted when needed. */
export function csvCell(value: string | number): string {
  // A number (a negative change included) is data, never a formula.
  if (typeof value === 'number') return String(value);
  let text = value;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: readonly (string | number)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** A CSV file as an attachment, written as its chunks come (a large export is never held whole). */
export async function sendCsv(res: Response, file: { fileName: string; chunks: Iterable<string> | AsyncIterable<string> }): Promise<void> {
  res.type('text/csv; charset=utf-8');
  res.attachment(file.fileName);
  await pipeline(Readable.from(file.chunks), res).catch((err: unknown) => {
    // A client that stops reading halfway is not a server error.
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
  });
}

/** A name as part of a file name: letters and digits of any script kept, anything else a hyphen. */
export function fileNamePart(text: string): string {
  return text.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '').slice(0, 40);
}
