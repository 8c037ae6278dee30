/** A spreadsheet runs a cell that starts with one of these as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r\n]/;

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
