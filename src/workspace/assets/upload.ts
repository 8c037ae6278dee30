import { Readable } from 'node:stream';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { BadRequest, HttpError, PayloadTooLarge, UnsupportedMediaType } from '../../platform/errors';
import { storageFailure, type FileStore } from '../../platform/file-store';
import { sniff, SNIFF_BYTES, type ZIP_CANDIDATE, type FileType } from './file-types';

/** A file of an upload request, stored under its generated key, not yet an asset. */
export interface ReceivedFile {
  key: string;
  size: number;
  /** From the file's first bytes; a zip still has to show it is an Office document. */
  type: FileType | typeof ZIP_CANDIDATE;
  /** As the client named it: to be cleaned before it is kept. */
  originalName: string;
}

/**
 * The files one upload request stores: all kept if the upload is accepted, else all
 * removed, including those whose writes were still in flight when it was refused or the
 * client went away.
 */
export class UploadBatch {
  private readonly keys = new Set<string>();
  private readonly writes = new Set<Promise<unknown>>();
  private readonly sources = new Set<Readable>();
  private state: 'open' | 'saving' | 'kept' | 'discarded' = 'open';
  private saving: Promise<unknown> | undefined;

  constructor(private readonly files: FileStore) {}

  async put(key: string, source: Readable): Promise<{ size: number }> {
    this.assertOpen();
    this.keys.add(key);
    this.sources.add(source);
    const write = this.files.put(key, source);
    this.writes.add(write);
    try {
      return await write;
    } finally {
      this.writes.delete(write);
      this.sources.delete(source);
    }
  }

  /** Runs `save` (the rows of the new assets); once it succeeds, the files stay. */
  async keep<T>(save: () => Promise<T>): Promise<T> {
    this.assertOpen();
    this.state = 'saving';
    const saved = save();
    this.saving = saved.then(
      () => (this.state = 'kept'),
      () => (this.state = 'open'),
    );
    return saved;
  }

  /** Removes every file of the batch once the writes in flight have stopped; idempotent. */
  async discard(): Promise<void> {
    await this.saving;
    if (this.state === 'kept') return;
    this.state = 'discarded';
    for (const source of this.sources) source.destroy();
    await Promise.allSettled([...this.writes]);
    const keys = [...this.keys];
    this.keys.clear();
    await Promise.all(keys.map((key) => this.files.delete(key)));
  }

  private assertOpen(): void {
    if (this.state !== 'open') throw new BadRequest('The upload was interrupted', 'UPLOAD_INTERRUPTED');
  }
}

/**
 * The first `bytes` bytes of a stream (fewer if it is shorter), put back in front of the
 * rest so that the stream still yields everything: the type is known before anything is
 * written. A stream that ended while being read is replaced by its bytes.
 */
function peek(source: Readable, bytes: number): Promise<{ head: Buffer; whole: Readable }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const stop = () => {
      source.off('readable', read);
      source.off('end', ended);
      source.off('error', reject);
    };
    const read = () => {
      for (let chunk: Buffer | null; length < bytes && (chunk = source.read() as Buffer | null) !== null; length += chunk.length) chunks.push(chunk);
      if (length < bytes) return;
      stop();
      const head = Buffer.concat(chunks);
      source.unshift(head);
      resolve({ head: head.subarray(0, bytes), whole: source });
    };
    const ended = () => {
      stop();
      const head = Buffer.concat(chunks);
      resolve({ head, whole: Readable.from([head]) });
    };
    source.on('readable', read);
    source.on('end', ended);
    source.on('error', reject);
  });
}

/**
 * A multer storage engine that writes through the file store under generated names. A
 * file whose first bytes are not of an accepted type is refused before anything of it is
 * written; `beforeFirstFile` runs once, when the first file arrives.
 */
function storeEngine(batch: UploadBatch, newKey: (type: FileType | typeof ZIP_CANDIDATE) => string, beforeFirstFile: () => Promise<void>): StorageEngine {
  let ready: Promise<void> | undefined;
  return {
    _handleFile(_req, file, done) {
      const store = async (): Promise<ReceivedFile> => {
        await (ready ??= beforeFirstFile());
        const { head, whole } = await peek(file.stream, SNIFF_BYTES);
        const type = sniff(head);
        if (!type) throw new UnsupportedMediaType(`"${file.originalname}" is not a file type the workspace accepts`, 'FILE_TYPE');
        const key = newKey(type);
        const { size } = await batch.put(key, whole);
        // busboy stops a file at the size limit and says so only here; multer answers 413.
        if ((file.stream as Readable & { truncated?: boolean }).truncated) {
          await batch.discard();
          throw new PayloadTooLarge(`"${file.originalname}" is larger than the limit`, 'FILE_TOO_LARGE');
        }
        return { key, size, type, originalName: file.originalname };
      };
      store().then((info) => done(null, info), done);
    },
    _removeFile(_req, _file, done) {
      batch.discard().then(() => done(null), done);
    },
  };
}

const megabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

function uploadError(err: unknown, opts: UploadOptions): unknown {
  // A write that failed also fails the file's stream, and multer may report that first.
  err = storageFailure(err);
  if (err instanceof HttpError) return err;
  if (err instanceof MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') return new PayloadTooLarge(`A file is larger than ${megabytes(opts.maxBytes)}`, 'FILE_TOO_LARGE');
    if (err.code === 'LIMIT_FILE_COUNT' || (err.code === 'LIMIT_UNEXPECTED_FILE' && err.field === 'files')) {
      return new BadRequest(`At most ${opts.maxFiles} files in one upload`, 'TOO_MANY_FILES');
    }
    return new BadRequest(`Upload refused: ${err.message}; send the files in the field "files"`, 'UPLOAD_REFUSED');
  }
  // busboy's own errors all come from a malformed body; anything else is ours.
  if (err instanceof Error && !(err as NodeJS.ErrnoException).code && /^(Malformed|Missing|Multipart|Unexpected end)/.test(err.message)) {
    return new BadRequest(`Malformed upload: ${err.message}`, 'UPLOAD_REFUSED');
  }
  return err;
}

export interface UploadOptions {
  files: FileStore;
  maxFiles: number;
  maxBytes: number;
  newKey: (type: FileType | typeof ZIP_CANDIDATE) => string;
  /** Refuses early, before any byte is stored, when the fields sent before the files already say no. */
  checkFields: (req: Request) => Promise<void>;
}

/** Room for the multipart framing and the few text fields around the files. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * Buffer sizes of the multipart parser and of each file stream: larger than busboy's
 * defaults, which roughly doubles upload throughput, and still bounded per request.
 */
const STREAM_BUFFER_BYTES = 1024 * 1024;

/**
 * Receives `multipart/form-data` with the files in the field `files`, streaming each one
 * to the file store. Leaves the batch in `res.locals` for the handler, which keeps it, and
 * for `discardFailedUpload`, which removes it when anything fails.
 */
export function receiveUploads(opts: UploadOptions): RequestHandler {
  return (req, res, next) => {
    if (!req.is('multipart/form-data')) throw new UnsupportedMediaType('Send the files as multipart/form-data in the field "files"', 'UPLOAD_FORMAT');
    if (Number(req.get('content-length') ?? 0) > opts.maxFiles * opts.maxBytes + ENVELOPE_BYTES) {
      throw new PayloadTooLarge('The upload is larger than the limits allow', 'FILE_TOO_LARGE');
    }
    const batch = new UploadBatch(opts.files);
    res.locals.uploadBatch = batch;
    res.on('close', () => {
      batch.discard().catch((err: unknown) => req.log.error({ err }, 'could not remove the files of an unfinished upload'));
    });
    // multer passes both buffer sizes on to busboy; its type declarations predate them.
    const options: multer.Options & { highWaterMark: number; fileHwm: number } = {
      storage: storeEngine(batch, opts.newKey, () => opts.checkFields(req)),
      limits: { files: opts.maxFiles, fileSize: opts.maxBytes, fields: 5, fieldSize: 32, fieldNameSize: 32, parts: opts.maxFiles + 5, headerPairs: 20 },
      defParamCharset: 'utf8',
      highWaterMark: STREAM_BUFFER_BYTES,
      fileHwm: STREAM_BUFFER_BYTES,
    };
    const upload = multer(options).array('files', opts.maxFiles);
    upload(req, res, (err?: unknown) => next(err === undefined ? undefined : uploadError(err, opts)));
  };
}

export function uploadBatch(res: Response): UploadBatch {
  return res.locals.uploadBatch as UploadBatch;
}

export function receivedFiles(req: Request): ReceivedFile[] {
  return (req.files ?? []) as unknown as ReceivedFile[];
}

/**
 * Last in the assets routes: whatever refused the upload, its files go before the answer,
 * and a request whose body was not read to the end closes its connection rather than
 * have Node read and discard the rest.
 */
export const discardFailedUpload: ErrorRequestHandler = async (err, req, res, next) => {
  if (!req.complete) res.set('Connection', 'close');
  const batch = res.locals.uploadBatch as UploadBatch | undefined;
  if (batch) await batch.discard();
  next(err);
};
