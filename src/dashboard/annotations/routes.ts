import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { singleLine } from '../../platform/text';
import { idParam, validated } from '../../platform/validate';
import { auditOf, privateAnswers, viewerOf } from '../request';
import { Forbidden } from '../../platform/errors';
import { formatDay } from '../dates';
import { day, isoDate, orderedRange, repeatable, valueName } from '../schemas';
import { mayWriteNotes, type AnnotationsService } from './service';

/** Writes are for whoever mayWriteNotes says; every session reads. */
const writer: RequestHandler = (req, _res, next) => {
  if (!mayWriteNotes(viewerOf(req))) throw new Forbidden('Administrators only', 'ADMIN_ONLY');
  next();
};

const MAX_TEXT = 500;
const text = singleLine(MAX_TEXT);
const museum = singleLine(200).nullable();

const listQuery = orderedRange(
  z.strictObject({
    from: day.optional(),
    to: day.optional(),
    museum: repeatable(valueName),
    lang: z.string().optional(),
  }),
);
const createBody = z.strictObject({ date: isoDate, endDate: isoDate.nullable().optional(), text, museum: museum.optional() });
const updateBody = z
  .strictObject({ date: isoDate.optional(), endDate: isoDate.nullable().optional(), text: text.optional(), museum: museum.optional() })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

const dayText = (value: number | undefined) => (value === undefined ? undefined : formatDay(value));

/** `/api/dashboard/annotations`: every session reads the notes its access allows; administrators write, and each write is in the audit trail. */
export function annotationsRoutes(notes: AnnotationsService) {
  const router = Router();
  router.use(privateAnswers);

  router.get(
    '/',
    validated({ query: listQuery }, async ({ query }, req, res) => {
      res.json({ annotations: await notes.list(viewerOf(req), { from: dayText(query.from), to: dayText(query.to), museums: query.museum }) });
    }),
  );

  router.post(
    '/',
    writer,
    validated({ body: createBody }, async ({ body }, req, res) => {
      res.status(201).json({ annotation: await notes.create(auditOf(req), body) });
    }),
  );

  router.patch(
    '/:id',
    writer,
    validated({ params: idParam, body: updateBody }, async ({ params, body }, req, res) => {
      res.json({ annotation: await notes.update(auditOf(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    writer,
    validated({ params: idParam }, async ({ params }, req, res) => {
      await notes.remove(auditOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
