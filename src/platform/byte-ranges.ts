import type { Request } from 'express';

export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Whether a Range header holds a range whose last byte comes before its first (`bytes=5-2`).
 * RFC 9110 (§14.1.2) calls that range invalid, and a server ignores such a header and sends the
 * whole file; Express's parser counts it as unsatisfiable (416) instead, as it does a range
 * past the end, which really is unsatisfiable.
 */
function holdsReversedRange(header: string): boolean {
  const specs = /^\s*bytes\s*=(.*)$/i.exec(header)?.[1];
  if (specs === undefined) return false;
  return specs.split(',').some((spec) => {
    const bounds = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(spec);
    return bounds !== null && BigInt(bounds[2]) < BigInt(bounds[1]);
  });
}

/**
 * The one byte range of a file of `size` bytes that the request asks for: undefined for the
 * whole file (no Range, one to ignore, or several ranges, which are answered whole),
 * `unsatisfiable` when it asks only for bytes past the end.
 */
export function requestedRange(req: Request, size: number): ByteRange | 'unsatisfiable' | undefined {
  const header = req.headers.range;
  if (header === undefined || holdsReversedRange(header)) return undefined;
  const ranges = req.range(size, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  return Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0] : undefined;
}
