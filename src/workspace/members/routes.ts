import { Router } from 'express';
import { z } from 'zod';
import { idParam, validated } from '../../platform/validate';
import { ROLES } from '../domain';
import { actorOf } from '../request';
import { email, id, name, nonEmpty, password } from '../schemas';
import type { MembersService } from './service';

const role = z.enum(ROLES);
const brandIds = z.array(id).max(100);

const createMember = z.strictObject({ name, email, password, role, brandIds: brandIds.optional() });
const updateMember = nonEmpty(
  z.strictObject({ name: name.optional(), email: email.optional(), role: role.optional(), brandIds: brandIds.optional(), password: password.optional() }),
);

/** `/api/members`: the team, which is the users table. */
export function membersRoutes(members: MembersService) {
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

  return router;
}
