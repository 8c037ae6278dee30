import type { RequestHandler, Response } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { BadRequest, HttpError, PayloadTooLarge, UnsupportedMediaType } from '../../platform/errors';
import type { CsvImport } from './import';
import type { VisitsService } from './service';

/** Messages of busboy's errors, all caused by a malformed multipart body. */
const MALFORMED_MULTIPART = /^(Malformed|Missing Content-Type|Multipart: Boundary not found|Unexpected end of)/;

/** A multer storage engine that stages the file's rows instead of keeping its bytes. */
function stagingStorage(job: CsvImport): StorageEngine {
  return {
    _handleFile(_req, file, done) {
      job.stage(file.stream).then(() => done(null, {}), done);
    },
    _removeFile(_req, _file, done) {
      done(null);
    },
  };
}

function uploadError(err: unknown): unknown {
  if (err instanceof HttpError) return err;
  if (err instanceof MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') return new PayloadTooLarge('The file is too large', 'IMPORT_TOO_LARGE');
    return new BadRequest(`Upload refused: ${err.message}; send one file in the field "file"`, 'IMPORT_UPLOAD');
  }
  if (err instanceof Error && MALFORMED_MULTIPART.test(err.message)) return new BadRequest(`Malformed upload: ${err.message}`, 'IMPORT_UPLOAD');
  return err;
}

/**
 * Closes the connection after an early answer: otherwise Node would read and discard the
 * rest of an unread body, however large, to keep the connection alive.
 */
function refuseRest(res: Response): void {
  res.set('Connection', 'close');
}

export function currentImport(res: Response): CsvImport {
  return res.locals.csvImport as CsvImport;
}

/**
 * Receives an import and stages its rows while they stream in: a `text/csv` body is read
 * straight from the request, a multipart body from its field `file`. Whatever happens
 * next, the staged rows are dropped when the response ends without a commit.
 */
export function receiveCsv(visits: VisitsService): RequestHandler {
  const maxBytes = visits.importMaxBytes;
  return async (req, res, next) => {
    const type = (req.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (type !== 'text/csv' && type !== 'multipart/form-data') {
      throw new UnsupportedMediaType('Send the file as text/csv, or as multipart/form-data in the field "file"', 'IMPORT_TYPE');
    }
    const declared = Number(req.get('content-length') ?? 0);
    if (declared > maxBytes) {
      refuseRest(res);
      throw new PayloadTooLarge(`The file is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB`, 'IMPORT_TOO_LARGE');
    }

    const job = await visits.startImport();
    res.locals.csvImport = job;
    res.on('close', () => {
      job.discard().catch((err: unknown) => req.log.error({ err }, 'could not drop the rows of an unfinished import'));
    });

    if (type === 'text/csv') {
      try {
        await job.stage(req);
      } catch (err) {
        refuseRest(res);
        // The slot is free before the refusal is sent, so the client's next try is not told another import is running.
        await job.discard().catch((cause: unknown) => req.log.error({ err: cause }, 'could not drop the rows of an unfinished import'));
        throw err;
      }
      next();
      return;
    }
    const limits = { files: 1, fields: 10, fieldSize: 1024, parts: 12, fileSize: maxBytes };
    const upload = multer({ storage: stagingStorage(job), limits }).single('file');
    upload(req, res, (err?: unknown) => {
      if (err) {
        job.discard().then(
          () => next(uploadError(err)),
          () => next(uploadError(err)),
        );
        return;
      }
      if (!req.file) {
        next(new BadRequest('Send the CSV file in the field "file"', 'IMPORT_UPLOAD'));
        return;
      }
      next();
    });
  };
}
