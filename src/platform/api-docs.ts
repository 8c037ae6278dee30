import { Router } from 'express';
import { describeApi } from './openapi';

type Description = ReturnType<typeof describeApi>;

/**
 * `GET /api/openapi.json` and `GET /api/docs`: the API as the app's own route table and
 * schemas describe it, written once on first asking (the routes are all in place by then and
 * never change while the process runs).
 */
export function apiDocsRoutes(info: { title: string; version: string }) {
  const router = Router();
  let description: Description | undefined;
  const described = (app: Parameters<typeof describeApi>[0]) => (description ??= describeApi(app, info));

  router.get('/api/openapi.json', (req, res) => {
    res.set('Cache-Control', 'no-cache');
    res.json(described(req.app.router));
  });

  router.get('/api/docs', (req, res) => {
    const api = described(req.app.router);
    const groups = new Map<string, { method: string; path: string; operation: OperationView }[]>();
    for (const [path, operations] of Object.entries(api.paths)) {
      for (const [method, operation] of Object.entries(operations) as [string, OperationView][]) {
        const tag = operation.tags[0];
        let group = groups.get(tag);
        if (group === undefined) {
          group = [];
          groups.set(tag, group);
        }
        group.push({ method: method.toUpperCase(), path, operation });
      }
    }
    res.page('api-docs', { title: res.locals.t('apiDocs.title'), groups: [...groups.entries()], version: info.version });
  });

  return router;
}

interface OperationView {
  tags: string[];
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
}
