import { pipeline } from 'node:stream/promises';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { requestedRange } from '../../platform/byte-ranges';
import { HttpError, MethodNotAllowed, NotFound } from '../../platform/errors';
import type { FileStore } from '../../platform/file-store';
import { idParam, validated } from '../../platform/validate';
import { describedAs } from '../../platform/route-names';
import { actorOf, requireSignedIn } from '../request';
import { id, NAME_MAX, pageQuery, queryId } from '../schemas';
import { ASSET_TYPES, BULK_DELETE_MAX, newFileKey, type AssetsService, type ServedFile } from './service';
import { discardFailedUpload, receivedFiles, receiveUploads, uploadBatch } from './upload';

export const ASSETS_PAGE_DEFAULT = 50;
export const ASSETS_PAGE_MAX = 200;

/** The text fields of an upload: where the files go. */
const uploadTarget = z.strictObject({
  brandId: queryId.optional(),
  campaignId: queryId.optional(),
  postId: queryId.optional(),
});

const listAssets = z.strictObject({
  brandId: queryId.optional(),
  campaignId: queryId.optional(),
  postId: queryId.optional(),
  /** Part of the file name, matched as typed. */
  q: z.string().trim().max(NAME_MAX).optional(),
  type: z.enum(ASSET_TYPES).optional(),
  uploadedBy: queryId.optional(),
  ...pageQuery(ASSETS_PAGE_DEFAULT, ASSETS_PAGE_MAX),
});

/** The assets of a bulk delete: at least one, at most BULK_DELETE_MAX. */
const bulkDelete = z.strictObject({
  ids: z.array(id).min(1).max(BULK_DELETE_MAX),
});

export interface UploadLimits {
  files: FileStore;
  maxFiles: number;
  maxBytes: number;
}

/**
 * Names a file the browser shows rather than saves, with the parameters Express writes for an
 * attachment (`filename`, and RFC 5987's `filename*` for a name beyond Latin-1): a viewer such
 * as Chrome's for PDF then titles it, and saves it, under its own name instead of the stored key.
 */
function showNamed(res: Response, name: string): void {
  res.attachment(name);
  const disposition = res.get('Content-Disposition');
  if (disposition === undefined) throw new Error('res.attachment wrote no Content-Disposition');
  res.set('Content-Disposition', disposition.replace(/^attachment/, 'inline'));
}

/**
 * Sends a stored file (or the one byte range asked for) with a type from the stored
 * record, never from the name; `attachment` makes the browser save it under its name.
 */
async function sendStored(req: Request, res: Response, assets: AssetsService, file: ServedFile, disposition: 'attachment' | 'as-type'): Promise<void> {
  res.set('X-Content-Type-Options', 'nosniff');
  res.set('Cache-Control', 'private, max-age=3600');
  res.set('Accept-Ranges', 'bytes');
  // Checked before the file's own headers are set: a refusal answers JSON, not the file's type.
  const range = requestedRange(req, file.size);
  if (range === 'unsatisfiable') {
    res.set('Content-Range', `bytes */${file.size}`);
    throw new HttpError(416, 'The range asked for is outside the file', 'RANGE_NOT_SATISFIABLE');
  }
  if (disposition === 'attachment' || !file.inline) res.attachment(file.name ?? undefined);
  else if (file.name !== null) showNamed(res, file.name);
  res.set('Content-Type', file.mimeType);
  if (range) res.status(206).set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
  res.set('Content-Length', String(range ? range.end - range.start + 1 : file.size));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  try {
    await pipeline(await assets.open(file.key, range), res);
  } catch (err) {
    // A client that goes away mid-file is not a server error.
    if (!res.destroyed) throw err;
  }
}

/** `/api/assets`: everyone uploads into their brands and reads their brands' files. */
export function assetsRoutes(assets: AssetsService, limits: UploadLimits) {
  const router = Router();
  router.use(requireSignedIn);

  router.post(
    '/',
    receiveUploads({
      ...limits,
      newKey: newFileKey,
      async checkFields(req) {
        const fields = uploadTarget.parse(req.body ?? {});
        if (Object.keys(fields).length > 0) await assets.checkTarget(actorOf(req), fields);
      },
    }),
    validated({ body: uploadTarget }, async ({ body }, req, res) => {
      res.status(201).json({ assets: await assets.upload(actorOf(req), body, receivedFiles(req), uploadBatch(res)) });
    }),
  );

  router.get(
    '/',
    validated({ query: listAssets }, async ({ query }, req, res) => {
      res.json({ assets: await assets.list(actorOf(req), query) });
    }),
  );

  router.delete(
    '/',
    validated({ body: bulkDelete }, async ({ body }, req, res) => {
      res.json({ ok: true, deleted: await assets.removeMany(actorOf(req), body.ids) });
    }),
  );

  router.get(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ asset: await assets.get(actorOf(req), params.id) });
    }),
  );

  router.get(
    '/:id/download',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await sendStored(req, res, assets, await assets.download(actorOf(req), params.id), 'attachment');
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await assets.remove(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  router.use(discardFailedUpload);
  return router;
}

const READ_ONLY = 'GET, HEAD';

const readOnly: RequestHandler = (req, res) => {
  if (req.method === 'GET' || req.method === 'HEAD') throw new NotFound('No such file');
  res.set('Allow', READ_ONLY);
  throw new MethodNotAllowed('Uploaded files are read-only');
};

/**
 * `/api/uploads/<key>`: stored files, read-only, for signed-in members of the asset's
 * brand. The key is taken as sent, undecoded, and must be one a stored asset has, so no
 * path (`..`, `%2f`, an absolute one, a folder) can reach anything else.
 */
export function uploadsRoutes(assets: AssetsService) {
  const router = Router();

  // Patterns without parameters, so Express decodes nothing of the path on the way.
  router.get(describedAs(/^\/[^/]+$/, '/:key'), requireSignedIn, async (req, res) => {
    await sendStored(req, res, assets, await assets.fileAt(actorOf(req), req.path.slice(1)), 'as-type');
  });

  router.all(describedAs(/.*/, '/*path'), readOnly);
  return router;
}
