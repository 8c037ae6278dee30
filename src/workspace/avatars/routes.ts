import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from '../../platform/errors';
import { validated } from '../../platform/validate';
import { toUserBody } from '../members/service';
import { actorOf, userOf } from '../request';
import type { AvatarsService } from './service';

/** Pictures larger than this are refused before they are decoded. */
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;

const keyParam = z.object({ key: z.string().max(100) });

/** `/api/auth/me/avatar`: the signed-in user's own picture. Mounted behind the workspace's signed-in access. */
export function ownAvatarRoutes(avatars: AvatarsService) {
  const receive = multer({ storage: multer.memoryStorage(), limits: { files: 1, fileSize: AVATAR_MAX_BYTES, fields: 0, parts: 1 } }).single('file');
  const router = Router();

  router.post(
    '/',
    (req, _res, next) => {
      if (!req.is('multipart/form-data')) throw new UnsupportedMediaType('Send the picture as multipart/form-data in the field "file"', 'UPLOAD_FORMAT');
      receive(req, _res, (err?: unknown) => {
        if (err instanceof multer.MulterError) {
          next(err.code === 'LIMIT_FILE_SIZE' ? new PayloadTooLarge('A profile picture may be at most 10 MB', 'FILE_TOO_LARGE') : new BadRequest(`Upload refused: ${err.message}`, 'UPLOAD_REFUSED'));
          return;
        }
        next(err);
      });
    },
    async (req, res) => {
      if (!req.file) throw new BadRequest('Send the picture in the field "file"', 'NO_FILES');
      res.json({ user: toUserBody(await avatars.set(userOf(req), req.file.buffer)) });
    },
  );

  router.delete('/', async (req, res) => {
    res.json({ user: toUserBody(await avatars.clear(userOf(req))) });
  });

  return router;
}

/** `/api/avatars/<key>`: profile pictures, for everyone who can see their person. */
export function avatarFilesRoutes(avatars: AvatarsService) {
  const router = Router();
  router.get(
    '/:key',
    validated({ params: keyParam }, async ({ params }, req, res) => {
      const { stream, size } = await avatars.open(actorOf(req), params.key);
      res.set({
        'Content-Type': 'image/webp',
        'Content-Length': String(size),
        'X-Content-Type-Options': 'nosniff',
        // A new picture gets a new address, so this one never changes.
        'Cache-Control': 'private, max-age=31536000, immutable',
      });
      try {
        await pipeline(stream, res);
      } catch (err) {
        // A client that goes away mid-picture is not a server error.
        if (!res.destroyed) throw err;
      }
    }),
  );
  return router;
}
