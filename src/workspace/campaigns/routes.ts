import { Router } from 'express';
import { z } from 'zod';
import { idParam, validated } from '../../platform/validate';
import { actorOf } from '../request';
import { day, id, longText, name, nonEmpty, optionalText, queryId, NAME_MAX } from '../schemas';
import { CAMPAIGN_STATUSES } from '../domain';
import type { CampaignsService } from './service';

const status = z.enum(CAMPAIGN_STATUSES);

const campaignFields = {
  name,
  description: longText.optional(),
  startDate: day.optional(),
  endDate: day.optional(),
  status: status.optional(),
};

const createCampaign = z.strictObject({ ...campaignFields, brandId: id });
const updateCampaign = nonEmpty(z.strictObject({ ...campaignFields, name: name.optional() }));
const listCampaigns = z.strictObject({ brandId: queryId.optional(), status: status.optional() });

const trackFields = {
  name,
  channel: optionalText(NAME_MAX).optional(),
  startDate: day.optional(),
  endDate: day.optional(),
  goal: longText.optional(),
};

const createTrack = z.strictObject(trackFields);
const updateTrack = nonEmpty(z.strictObject({ ...trackFields, name: name.optional() }));

/** `/api/campaigns`: everyone reads their brands' campaigns; managers and superadmins write. */
export function campaignsRoutes(campaigns: CampaignsService) {
  const router = Router();

  router.get(
    '/',
    validated({ query: listCampaigns }, async ({ query }, req, res) => {
      res.json({ campaigns: await campaigns.list(actorOf(req), query) });
    }),
  );

  router.post(
    '/',
    validated({ body: createCampaign }, async ({ body }, req, res) => {
      res.status(201).json({ campaign: await campaigns.create(actorOf(req), body) });
    }),
  );

  router.get(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ campaign: await campaigns.get(actorOf(req), params.id) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateCampaign }, async ({ params, body }, req, res) => {
      res.json({ campaign: await campaigns.update(actorOf(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ ok: true, deleted: await campaigns.remove(actorOf(req), params.id) });
    }),
  );

  router.get(
    '/:id/tracks',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ tracks: await campaigns.listTracks(actorOf(req), params.id) });
    }),
  );

  router.post(
    '/:id/tracks',
    validated({ params: idParam, body: createTrack }, async ({ params, body }, req, res) => {
      res.status(201).json({ track: await campaigns.createTrack(actorOf(req), params.id, body) });
    }),
  );

  return router;
}

/** `/api/tracks/:id`: one campaign track. */
export function tracksRoutes(campaigns: CampaignsService) {
  const router = Router();

  router.get(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      res.json({ track: await campaigns.getTrack(actorOf(req), params.id) });
    }),
  );

  router.patch(
    '/:id',
    validated({ params: idParam, body: updateTrack }, async ({ params, body }, req, res) => {
      res.json({ track: await campaigns.updateTrack(actorOf(req), params.id, body) });
    }),
  );

  router.delete(
    '/:id',
    validated({ params: idParam }, async ({ params }, req, res) => {
      await campaigns.removeTrack(actorOf(req), params.id);
      res.json({ ok: true });
    }),
  );

  return router;
}
