import { Router } from 'express';
import { z } from 'zod';
import { idParam, validated } from '../../platform/validate';
import { actorOf } from '../request';
import { id, longText, name, nonEmpty, pageQuery, queryId } from '../schemas';
import { BUDGET_KINDS } from '../domain';
import type { BudgetService } from './service';

export const BUDGET_PAGE_DEFAULT = 100;
export const BUDGET_PAGE_MAX = 500;

/** Minor units (cents, fils) as a whole number; the cap keeps every sum an exact number. */
export const AMOUNT_MAX = 1_000_000_000_000;

const kind = z.enum(BUDGET_KINDS);

const entryFields = {
  kind: kind.optional(),
  category: name,
  description: longText.optional(),
  amount: z.number().int('must be a whole number of minor units').min(0).max(AMOUNT_MAX),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code')
    .transform((v) => v.toUpperCase()),
  date: z.iso.date().optional(),
};

const createEntry = z.strictObject({ ...entryFields, campaignId: id });
const updateEntry = nonEmpty(
  z.strictObject({ ...entryFields, category: name.optional(), amount: entryFields.amount.optional(), currency: entryFields.currency.optional() }),
);
const listEntries = z.strictObject({
  brandId: queryId.optional(),
  campaignId: queryId.optional(),
  kind: kind.optional(),
  ...pageQuery(BUDGET_PAGE_DEFAULT, BUDGET_PAGE_MAX),
});
const summaryQuery = z.strictObject({ campaignId: queryId });

/** `/api/budget-entries`: planned and spent money per campaign. */
export function budgetRoutes(budget: BudgetService) {
  const router = Router();

  router.get(
    '/',
    validated({ query: listEntries }, async ({ query }, req, res) => {
      res.json({ entries: await budget.list(actorOf(req), query) });
    }),
  );

  router.get(
    '/summary',
    validated({ query: summaryQuery }, async ({ query }, req, res) => {
      res.json({ summary: await budget.summary(actorOf(req), query.campaignId) });
    }),
  );

  router.post(
    '/',
    validated({ body: createEntry }, async ({ body }, req, res) => {
      res.status(201).json({ entry: await budget.create(actorOf(req), body) });
    }),
  );

  router.get(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ entry: await budget.get(actorOf(req), params.id) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateEntry }, async ({ params, body }, req, res) => {
      res.json({ entry: await budget.update(actorOf(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await budget.remove(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
