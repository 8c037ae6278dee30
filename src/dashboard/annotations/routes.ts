import { Router, type Request, type RequestHandler } from 'express';
import { z } from 'zod';
import { singleLine } from '../../platform/text';
import { idParam, validated } from '../../platform/validate';
import type { AuditTrail } from '../audit/service';
import { auditOf } from '../request';
import { Forbidden } from '../../platform/errors';
import { formatDay } from '../dates';
import { day, isoDate, orderedRange, repeatable, valueName } from '../schemas';
import { mayWriteNotes, type AnnotationsService } from './service';

/** Writes are for whoever mayWriteNotes says; every session reads. */
const writer: RequestHandler = (req, _res, next) => {
  if (!mayWriteNotes(req.dashboard!.session)) throw new Forbidden('Administrators only', 'ADMIN_ONLY');
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

/** The note's own words, for the audit trail. */
const recorded = (n: { date: string; endDate: string | null; text: string; museum: string | null }) => ({ date: n.date, endDate: n.endDate, text: n.text, museum: n.museum });

/** Mounted behind the dashboard session. */
function reader(req: Request) {
  return req.dashboard!.session;
}

/** `/api/dashboard/annotations`: every session reads the notes its access allows; administrators write, and each write is in the audit trail. */
export function annotationsRoutes(notes: AnnotationsService, trail: AuditTrail) {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'private, no-store');
    next();
  });

  router.get(
    '/',
    validated({ query: listQuery }, async ({ query }, req, res) => {
      res.json({ annotations: await notes.list(reader(req), { from: dayText(query.from), to: dayText(query.to), museums: query.museum }) });
    }),
  );

  router.post(
    '/',
    writer,
    validated({ body: createBody }, async ({ body }, req, res) => {
      const annotation = await notes.create(reader(req).name, body);
      await trail.record(auditOf(req), 'annotationCreated', { target: `annotation:${annotation.id}`, targetName: annotation.text.slice(0, 80), after: recorded(annotation) });
      res.status(201).json({ annotation });
    }),
  );

  router.patch(
    '/:id',
    writer,
    validated({ params: idParam, body: updateBody }, async ({ params, body }, req, res) => {
      const { before, after } = await notes.update(params.id, body);
      await trail.record(auditOf(req), 'annotationChanged', { target: `annotation:${after.id}`, targetName: after.text.slice(0, 80), before: recorded(before), after: recorded(after) });
      res.json({ annotation: after });
    }),
  );

  router.delete(
    '/:id',
    writer,
    validated({ params: idParam }, async ({ params }, req, res) => {
      const before = await notes.remove(params.id);
      await trail.record(auditOf(req), 'annotationDeleted', { target: `annotation:${before.id}`, targetName: before.text.slice(0, 80), before: recorded(before) });
      res.json({ ok: true });
    }),
  );

  return router;
}
