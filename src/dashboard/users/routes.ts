import { auditOf, viewerOf } from '../request';
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import { singleLine } from '../../platform/text';
import { attemptLimiter, clientAddress, type AttemptCounter } from '../../platform/rate-limit';
import { idParam, validated } from '../../platform/validate';
import { PIN_MAX_DIGITS, PIN_MIN_DIGITS } from '../pins';
import { DASHBOARD_ROLES } from '../domain';
import type { AdminActor, DashboardUsersService } from './service';

const name = singleLine(200);
const role = z.enum(DASHBOARD_ROLES);
const list = z.array(singleLine(200)).max(1000);
const email = z.email('must be an e-mail address').max(254);
const pin = z
  .string()
  .regex(new RegExp(`^\\d{${PIN_MIN_DIGITS},${PIN_MAX_DIGITS}}$`), `PIN must be ${PIN_MIN_DIGITS} to ${PIN_MAX_DIGITS} digits`);

const createBody = z.strictObject({
  name,
  pin: pin.optional(),
  role,
  allowedMuseums: list.optional(),
  allowedChannels: list.optional(),
  email: email.nullable().optional(),
});

const updateBody = z
  .strictObject({ name: name.optional(), role: role.optional(), allowedMuseums: list.optional(), allowedChannels: list.optional(), email: email.nullable().optional() })
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');

const newPinBody = z.strictObject({ pin: pin.optional() });

/** PINs an administrator may choose and find taken, in a window: each such answer names a PIN in use. */
export const PIN_CONFLICT_LIMIT = 5;
export const PIN_CONFLICT_WINDOW_MS = 15 * 60 * 1000;

function adminOf(req: Request): AdminActor {
  return { ...auditOf(req), userId: viewerOf(req).userId, address: clientAddress(req) };
}

/** Mounted behind dashboardAccess(auth, 'admin'). */
export function usersRoutes(deps: { users: DashboardUsersService; attempts: AttemptCounter; clock: Clock }) {
  const { users } = deps;
  const conflictLimit = attemptLimiter({
    counter: deps.attempts,
    clock: deps.clock,
    isFailure: (res) => res.statusCode === 409,
    rules: [
      {
        name: 'pin-conflict',
        limit: PIN_CONFLICT_LIMIT,
        windowMs: PIN_CONFLICT_WINDOW_MS,
        message: 'Too many PINs found taken; let Settings make one',
        code: 'PIN_THROTTLED',
        // Only a chosen PIN can tell anything; per administrator, whatever the address.
        key: (req) => ((req.body as { pin?: unknown } | undefined)?.pin === undefined ? undefined : String(viewerOf(req).userId ?? 'admin')),
      },
    ],
  });
  const router = Router();

  router.get('/', async (_req, res) => {
    res.json({ users: await users.list() });
  });

  router.post(
    '/',
    conflictLimit,
    validated({ body: createBody }, async ({ body }, req, res) => {
      res.status(201).json(await users.create(adminOf(req), body));
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateBody }, async ({ params, body }, req, res) => {
      res.json({ user: await users.update(auditOf(req), params.id, body) });
    }),
  );

  router.post(
    '/:id/pin',
    conflictLimit,
    validated({ params: idParam, body: newPinBody }, async ({ params, body }, req, res) => {
      res.json(await users.newPin(adminOf(req), params.id, body.pin));
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await users.remove(auditOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
