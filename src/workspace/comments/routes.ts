import { Router } from 'express';
import { z } from 'zod';
import { idParam, validated } from '../../platform/validate';
import { multiLine } from '../../platform/text';
import { COMMENT_MAX_LENGTH } from '../domain';
import { actorOf } from '../request';
import type { CommentsService } from './service';

/** Plain text with its line breaks; a comment of nothing but blank space is refused. */
export const commentBody = multiLine(COMMENT_MAX_LENGTH).pipe(z.string().min(1, 'must not be empty'));
const newComment = z.strictObject({ body: commentBody });

/** `/api/posts/:id/comments` and `/api/tasks/:id/comments`: the thread of what the path names. */
export function threadRoutes(comments: CommentsService, on: 'post' | 'task') {
  const router = Router();
  const subject = (id: number) => (on === 'post' ? { postId: id } : { taskId: id });

  router.get(
    '/:id/comments',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ comments: await comments.list(actorOf(req), subject(params.id)) });
    }),
  );

  router.post(
    '/:id/comments',
    validated({ params: idParam, body: newComment }, async ({ params, body }, req, res) => {
      res.status(201).json({ comment: await comments.add(actorOf(req), subject(params.id), body.body) });
    }),
  );

  return router;
}

/** `/api/comments/:id`: the author, managers and superadmins delete. */
export function commentsRoutes(comments: CommentsService) {
  const router = Router();

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await comments.remove(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
