/**
 * The kinds of file the workspace accepts, recognised from their bytes alone: the name and
 * the Content-Type a client sends are never trusted. Anything else (SVG, HTML, scripts,
 * executables, archives) is refused, so nothing stored can run in a browser.
 */

export type AssetKind = 'image' | 'video' | 'document';

export interface FileType {
  mimeType: string;
  /** The extension of the stored file's generated name. */
  ext: string;
  kind: AssetKind;
}

export const OFFICE = {
  docx: { mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: 'docx', kind: 'document' },
  xlsx: { mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ext: 'xlsx', kind: 'document' },
  pptx: { mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', ext: 'pptx', kind: 'document' },
} as const satisfies Record<string, FileType>;

const TYPES = {
  jpeg: { mimeType: 'image/jpeg', ext: 'jpg', kind: 'image' },
  png: { mimeType: 'image/png', ext: 'png', kind: 'image' },
  gif: { mimeType: 'image/gif', ext: 'gif', kind: 'image' },
  webp: { mimeType: 'image/webp', ext: 'webp', kind: 'image' },
  avif: { mimeType: 'image/avif', ext: 'avif', kind: 'image' },
  mp4: { mimeType: 'video/mp4', ext: 'mp4', kind: 'video' },
  mov: { mimeType: 'video/quicktime', ext: 'mov', kind: 'video' },
  webm: { mimeType: 'video/webm', ext: 'webm', kind: 'video' },
  pdf: { mimeType: 'application/pdf', ext: 'pdf', kind: 'document' },
} as const satisfies Record<string, FileType>;

/** Every stored type, by MIME type: what may be served. */
export const ACCEPTED_TYPES: ReadonlyMap<string, FileType> = new Map(
  [...Object.values(TYPES), ...Object.values(OFFICE)].map((t) => [t.mimeType, t]),
);

/** A zip file: an Office document, until its entries say otherwise. */
export const ZIP_CANDIDATE = 'zip' as const;

/** How many leading bytes `sniff` needs to decide. */
export const SNIFF_BYTES = 64;

const ascii = (head: Buffer, start: number, end: number) => head.toString('latin1', start, end);
const startsWith = (head: Buffer, bytes: number[]) => bytes.every((b, i) => head[i] === b);

/** ISO base media (MP4, MOV, AVIF): the brands of the leading `ftyp` box. */
function isoBrands(head: Buffer): string[] | undefined {
  if (head.length < 12 || ascii(head, 4, 8) !== 'ftyp') return undefined;
  const boxSize = Math.min(head.readUInt32BE(0), head.length);
  const brands = [ascii(head, 8, 12)];
  for (let at = 16; at + 4 <= boxSize; at += 4) brands.push(ascii(head, at, at + 4));
  return brands;
}

/** Matroska's EBML header names its document type; only WebM is accepted. */
function isWebm(head: Buffer): boolean {
  return startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]) && head.includes('webm', 4, 'latin1');
}

const VIDEO_BRANDS = new Set(['isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'avc1', 'M4V ', 'dash', 'mmp4', 'MSNV']);
const IMAGE_BRANDS = new Set(['avif', 'avis']);

/** The type of a file from its first `SNIFF_BYTES` bytes; undefined when it is not accepted. */
export function sniff(head: Buffer): FileType | typeof ZIP_CANDIDATE | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return TYPES.jpeg;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return TYPES.png;
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return TYPES.gif;
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return TYPES.webp;
  if (ascii(head, 0, 5) === '%PDF-') return TYPES.pdf;
  if (isWebm(head)) return TYPES.webm;
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return ZIP_CANDIDATE;
  const brands = isoBrands(head);
  if (brands) {
    if (IMAGE_BRANDS.has(brands[0])) return TYPES.avif;
    if (brands[0] === 'qt  ') return TYPES.mov;
    if (brands.some((b) => VIDEO_BRANDS.has(b))) return TYPES.mp4;
  }
  return undefined;
}

/**
 * Which Office document a zip file is, from its entry names: the Open Packaging parts
 * list plus the main folder of Word, Excel or PowerPoint. Documents that carry macros
 * (`vbaProject.bin`) are refused.
 */
export function officeType(entries: readonly string[]): FileType | undefined {
  if (!entries.includes('[Content_Types].xml')) return undefined;
  if (entries.some((e) => e.toLowerCase().endsWith('vbaproject.bin'))) return undefined;
  const has = (folder: string) => entries.some((e) => e.startsWith(folder));
  if (has('word/')) return OFFICE.docx;
  if (has('xl/')) return OFFICE.xlsx;
  if (has('ppt/')) return OFFICE.pptx;
  return undefined;
}

const EOCD = 0x06054b50;
const CENTRAL_ENTRY = 0x02014b50;
const EOCD_MIN = 22;
const COMMENT_MAX = 0xffff;
const DIRECTORY_MAX_BYTES = 4 * 1024 * 1024;

/** Reads `length` bytes of the file at `offset`. */
export type ReadBytes = (offset: number, length: number) => Promise<Buffer>;

/**
 * The entry names of a zip file, from its central directory at the end; undefined when
 * the directory cannot be found or read (a damaged zip, a zip64 one, or not a zip).
 */
export async function zipEntries(size: number, read: ReadBytes): Promise<string[] | undefined> {
  if (size < EOCD_MIN) return undefined;
  const tailLength = Math.min(size, EOCD_MIN + COMMENT_MAX);
  const tail = await read(size - tailLength, tailLength);
  let at = -1;
  for (let i = tail.length - EOCD_MIN; i >= 0; i -= 1) {
    if (tail.readUInt32LE(i) === EOCD) {
      at = i;
      break;
    }
  }
  if (at < 0) return undefined;
  const count = tail.readUInt16LE(at + 10);
  const dirSize = tail.readUInt32LE(at + 12);
  const dirOffset = tail.readUInt32LE(at + 16);
  if (dirSize > DIRECTORY_MAX_BYTES || dirOffset + dirSize > size) return undefined;
  const dir = await read(dirOffset, dirSize);
  const names: string[] = [];
  let p = 0;
  for (let n = 0; n < count; n += 1) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== CENTRAL_ENTRY) return undefined;
    const nameLength = dir.readUInt16LE(p + 28);
    const next = p + 46 + nameLength + dir.readUInt16LE(p + 30) + dir.readUInt16LE(p + 32);
    if (next > dir.length) return undefined;
    names.push(dir.toString('utf8', p + 46, p + 46 + nameLength));
    p = next;
  }
  return names;
}
