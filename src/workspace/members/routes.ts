import { Router } from 'express';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import { attemptLimiter, type AttemptCounter } from '../../platform/rate-limit';
import { idParam, validated } from '../../platform/validate';
import { ROLES } from '../domain';
import { actorOf } from '../request';
import { email, id, language, name, nonEmpty, password } from '../schemas';
import type { MembersService } from './service';

const role = z.enum(ROLES);
const brandIds = z.array(id).max(100);

/** Without a password, the member is invited by mail. */
const createMember = z.strictObject({ name, email, password: password.optional(), role, brandIds: brandIds.optional(), language: language.optional() });
const updateMember = nonEmpty(
  z.strictObject({ name: name.optional(), email: email.optional(), role: role.optional(), brandIds: brandIds.optional(), password: password.optional() }),
);

/** Invitations resent to one member in a window: each is a mail in their inbox. */
export const RESENDS_PER_MEMBER = 3;
export const RESEND_WINDOW_MS = 15 * 60 * 1000;

/** `/api/members`: the team, which is the users table, and the invitations of those who have not joined yet. */
export function membersRoutes(deps: { members: MembersService; attempts: AttemptCounter; clock: Clock }) {
  const { members, clock } = deps;
  // Only a resend that sends counts: a refused one mails nobody.
  const resendLimit = attemptLimiter({
    counter: deps.attempts,
    clock,
    isFailure: (res) => res.statusCode < 300,
    rules: [
      {
        name: 'invitation-member',
        windowMs: RESEND_WINDOW_MS,
        limit: RESENDS_PER_MEMBER,
        message: 'This invitation was sent again too often; try again later',
        key: (req) => String(req.params.id),
      },
    ],
  });
  const router = Router();

  router.get('/', async (req, res) => {
    res.json({ members: await members.list(actorOf(req)) });
  });

  router.post(
    '/',
    validated({ body: createMember }, async ({ body }, req, res) => {
      res.status(201).json({ member: await members.create(actorOf(req), body) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateMember }, async ({ params, body }, req, res) => {
      res.json({ member: await members.update(actorOf(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await members.remove(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  router.post(
    '/:id/invitation',
    resendLimit,
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ member: await members.resendInvitation(actorOf(req), params.id) });
    }),
  );

  router.delete(
    '/:id/invitation',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await members.revokeInvitation(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
