import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/platform/logger';

export interface CapturedLogs {
  logger: Logger;
  /** Every line logged so far, parsed. */
  entries(): Record<string, unknown>[];
  /** Everything logged so far, as written: for "this secret never appears" checks. */
  text(): string;
}

/** The production logger (same redaction), writing into memory instead of stdout. */
export function captureLogs(level = 'info'): CapturedLogs {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const text = () => chunks.join('');
  return {
    logger: createLogger(level, stream),
    text,
    entries: () =>
      text()
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
