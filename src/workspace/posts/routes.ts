import { Router } from 'express';
import { z } from 'zod';
import { idParam, validated } from '../../platform/validate';
import { actorOf } from '../request';
import { id, longText, moment, name, nonEmpty, optionalText, pageQuery, queryId } from '../schemas';
import { PLATFORMS, POST_STATUSES } from '../domain';
import { commentBody } from '../comments/routes';
import type { PostsService } from './service';

export const POSTS_PAGE_DEFAULT = 50;
export const POSTS_PAGE_MAX = 200;

const status = z.enum(POST_STATUSES);

const postFields = {
  title: name,
  caption: longText.optional(),
  platform: z.enum(PLATFORMS).nullable().optional(),
  status: status.optional(),
  scheduledAt: moment.optional(),
  // Checked by the service, which answers with the publishing codes of the API.
  publicationUrl: optionalText(2000).optional(),
  campaignId: id.nullable().optional(),
  brandId: id.optional(),
  attachments: z.array(id).max(50).optional(),
};

const createPost = z.strictObject(postFields);
const updatePost = nonEmpty(z.strictObject({ ...postFields, title: postFields.title.optional(), comment: commentBody.optional() }));

/** The most posts one request changes or deletes: a board's selection, a column at most. */
export const BULK_MAX = 200;
const postIds = z.array(id).min(1).max(BULK_MAX);
const bulkUpdate = z.union([
  z.strictObject({ ids: postIds, status, comment: commentBody.optional() }),
  z.strictObject({ ids: postIds, campaignId: id.nullable() }),
]);
const bulkDelete = z.strictObject({ ids: postIds });

const listPosts = z.strictObject({
  campaignId: queryId.optional(),
  status: status.optional(),
  brandId: queryId.optional(),
  ...pageQuery(POSTS_PAGE_DEFAULT, POSTS_PAGE_MAX),
});

/** `/api/posts`: everyone creates in their brands; the owner, managers and superadmins change. */
export function postsRoutes(posts: PostsService) {
  const router = Router();

  router.get(
    '/',
    validated({ query: listPosts }, async ({ query }, req, res) => {
      res.json({ posts: await posts.list(actorOf(req), query) });
    }),
  );

  router.patch(
    '/',
    validated({ body: bulkUpdate }, async ({ body }, req, res) => {
      const { ids, ...change } = body;
      res.json({ posts: await posts.updateMany(actorOf(req), ids, change) });
    }),
  );

  router.delete(
    '/',
    validated({ body: bulkDelete }, async ({ body }, req, res) => {
      res.json({ ok: true, deleted: await posts.removeMany(actorOf(req), body.ids) });
    }),
  );

  router.post(
    '/',
    validated({ body: createPost }, async ({ body }, req, res) => {
      res.status(201).json({ post: await posts.create(actorOf(req), body) });
    }),
  );

  router.get(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ post: await posts.get(actorOf(req), params.id) });
    }),
  );

  router.get(
    '/:id/activity',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ events: await posts.history(actorOf(req), params.id) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updatePost }, async ({ params, body }, req, res) => {
      res.json({ post: await posts.update(actorOf(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await posts.remove(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
