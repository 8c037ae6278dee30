import { Router } from 'express';
import { z } from 'zod';
import { idParam, validated } from '../../platform/validate';
import { actorOf } from '../request';
import { day, id, longText, name, nonEmpty, queryId } from '../schemas';
import { PROJECT_STATUSES } from '../domain';
import type { ProjectsService } from './service';

const status = z.enum(PROJECT_STATUSES);

const projectFields = {
  name,
  description: longText.optional(),
  status: status.optional(),
  startDate: day.optional(),
  endDate: day.optional(),
};

const createProject = z.strictObject({ ...projectFields, brandId: id });
const updateProject = nonEmpty(z.strictObject({ ...projectFields, name: name.optional() }));
const listProjects = z.strictObject({ brandId: queryId.optional(), status: status.optional() });

/** `/api/projects`: everyone reads their brands' projects; managers and superadmins write. */
export function projectsRoutes(projects: ProjectsService) {
  const router = Router();

  router.get(
    '/',
    validated({ query: listProjects }, async ({ query }, req, res) => {
      res.json({ projects: await projects.list(actorOf(req), query) });
    }),
  );

  router.post(
    '/',
    validated({ body: createProject }, async ({ body }, req, res) => {
      res.status(201).json({ project: await projects.create(actorOf(req), body) });
    }),
  );

  router.get(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ project: await projects.get(actorOf(req), params.id) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateProject }, async ({ params, body }, req, res) => {
      res.json({ project: await projects.update(actorOf(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await projects.remove(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
