import { Router } from 'express';
import { z } from 'zod';
import { idParam, validated } from '../../platform/validate';
import { actorOf } from '../request';
import { day, id, longText, nonEmpty, pageQuery, queryId, name } from '../schemas';
import { TASK_DUE_FILTERS, TASK_PRIORITIES, TASK_SCOPES, TASK_SORTS, TASK_STATUSES, TASK_VISIBILITIES } from '../domain';
import type { TasksService } from './service';

export const TASKS_PAGE_DEFAULT = 100;
export const TASKS_PAGE_MAX = 500;

const status = z.enum(TASK_STATUSES);

const priority = z.enum(TASK_PRIORITIES);

const taskFields = {
  title: name,
  description: longText.optional(),
  status: status.optional(),
  priority: priority.optional(),
  dueDate: day.optional(),
  visibility: z.enum(TASK_VISIBILITIES).optional(),
  assigneeId: id.nullable().optional(),
  projectId: id.nullable().optional(),
  campaignId: id.nullable().optional(),
  postId: id.nullable().optional(),
};

const createTask = z.strictObject({ ...taskFields, brandId: id.optional() });
const updateTask = nonEmpty(z.strictObject({ ...taskFields, title: name.optional() }));

const listTasks = z.strictObject({
  scope: z.enum(TASK_SCOPES).default('all'),
  brandId: queryId.optional(),
  status: status.optional(),
  projectId: queryId.optional(),
  campaignId: queryId.optional(),
  postId: queryId.optional(),
  assigneeId: queryId.optional(),
  priority: priority.optional(),
  due: z.enum(TASK_DUE_FILTERS).optional(),
  sort: z.enum(TASK_SORTS).default('due'),
  ...pageQuery(TASKS_PAGE_DEFAULT, TASKS_PAGE_MAX),
});

/** `/api/tasks`: everyone's to-do list, within what each may see. */
export function tasksRoutes(tasks: TasksService) {
  const router = Router();

  router.get(
    '/',
    validated({ query: listTasks }, async ({ query }, req, res) => {
      res.json({ tasks: await tasks.list(actorOf(req), query) });
    }),
  );

  router.post(
    '/',
    validated({ body: createTask }, async ({ body }, req, res) => {
      res.status(201).json({ task: await tasks.create(actorOf(req), body) });
    }),
  );

  router.get(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ task: await tasks.get(actorOf(req), params.id) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateTask }, async ({ params, body }, req, res) => {
      res.json({ task: await tasks.update(actorOf(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await tasks.remove(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
