import type { Response } from 'express';
import { sendCsv } from '../platform/csv';

type CsvFile = { fileName: string; chunks: Iterable<string> | AsyncIterable<string> };

/** UTF-8's byte order mark, which Excel needs to read a CSV file as UTF-8. */
export const BOM = '\uFEFF';

/**
 * A CSV file as Excel opens it: a UTF-8 byte order mark first, without which Excel reads the
 * file in the machine's legacy code page and turns Arabic names into mojibake. The import
 * skips the mark, so an export can be imported again.
 */
function excelCsv(file: CsvFile): CsvFile {
  const chunks = file.chunks;
  async function* withMark() {
    yield BOM;
    yield* chunks;
  }
  return { ...file, chunks: withMark() };
}

/** A dashboard download as a CSV attachment that Excel opens with every script intact. */
export function sendExcelCsv(res: Response, file: CsvFile): Promise<void> {
  return sendCsv(res, excelCsv(file));
}
