import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { request } from '../support/http';
import { assert, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createHttpServer } from '../../src/platform/http-server';
import { bodyBytesOf, DeclaredRequest, matchedRouteOf, REQUEST_FIELDS } from '../../src/platform/http-tuning';
import { createLogger, requestLog } from '../../src/platform/logger';
import { describedAs } from '../../src/platform/route-names';
import { routesOf } from '../../src/platform/route-table';
import { helmetFor, securityHeaders } from '../../src/platform/security';

/** Accessors along Express's request prototype chain, by name. */
function requestAccessors(): Set<string> {
  const names = new Set<string>();
  for (let proto: object | null = express.request; proto; proto = Object.getPrototypeOf(proto)) {
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) if (d.get || d.set) names.add(name);
  }
  return names;
}

describe('declared request fields', () => {
  it('when the declared fields are listed, then none hides a getter of Express or Node', () => {
    const accessors = requestAccessors();
    expect(accessors.has('query')).toBe(true);
    const hidden = Reflect.ownKeys(REQUEST_FIELDS).filter((k) => typeof k === 'string' && accessors.has(k));
    expect(hidden).toEqual([]);
  });

  it("when a request goes through Express, then Express's getters answer and unset fields read as undefined", async () => {
    const app = express();
    app.use(express.json());
    app.get('/things/:id', (req, res) => {
      res.json({
        query: req.query,
        path: req.path,
        params: req.params,
        hostname: req.hostname,
        ip: req.ip,
        cookies: req.cookies ?? null,
        // No session middleware runs here, so the declared field is unset whatever express-session's type says.
        session: 'session' in req ? ((req.session as unknown) ?? null) : 'absent',
        body: req.body ?? null,
      });
    });
    app.post('/echo', (req, res) => {
      res.status(201).json(req.body);
    });
    const server = createHttpServer(app);
    const got = await request(server).get('/things/7?colour=blue').set('Host', 'museum.test');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      query: { colour: 'blue' },
      path: '/things/7',
      params: { id: '7' },
      hostname: 'museum.test',
      ip: expect.stringMatching(/127\.0\.0\.1/),
      cookies: null,
      session: null,
      body: null,
    });
    const echoed = await request(server).post('/echo').send({ a: 1 });
    expect(echoed.status).toBe(201);
    expect(echoed.body).toEqual({ a: 1 });
  });
});

describe('what http-tuning.ts relies on', () => {
  it('when Express handles a request, then it has replaced the prototype, and the declared fields were own fields before that', async () => {
    const app = express();
    let seen: { protoIsApps: boolean; chainHasExpress: boolean; ownBody: boolean } | undefined;
    app.get('/', (req, res) => {
      seen = {
        protoIsApps: Object.getPrototypeOf(req) === app.request,
        chainHasExpress: Object.prototype.isPrototypeOf.call(express.request, req),
        ownBody: Object.hasOwn(req, 'body') && Object.hasOwn(req, 'cookies'),
      };
      res.end();
    });
    await request(createHttpServer(app)).get('/');
    expect(seen).toEqual({ protoIsApps: true, chainHasExpress: true, ownBody: true });
  });

  it('when a body arrives and nothing reads it, then Node has still handed every chunk to push()', async () => {
    let counted = -1;
    const server = createHttpServer((req, res) => {
      setTimeout(() => {
        assert.instanceOf(req, DeclaredRequest);
        counted = bodyBytesOf(req);
        res.end();
      }, 150);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      server.closeAllConnections();
      server.close();
    });
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(`POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 8000\r\n\r\n${'a'.repeat(8000)}`);
      });
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
    });
    expect(counted).toBe(8000);
  });

  it.each([false, true])('when helmet runs on a real request (HTTPS only: %s), then it sets exactly the headers recorded once', async (httpsOnly) => {
    const real = express();
    real.use(helmetFor(httpsOnly));
    real.get('/', (_req, res) => void res.end());
    const recorded = express();
    const apply = securityHeaders(httpsOnly);
    recorded.get('/', (_req, res) => {
      apply(res);
      res.end();
    });
    const headersOf = async (app: express.Express) => {
      const res = await request(app).get('/');
      const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = res.headers;
      return rest;
    };
    expect(await headersOf(recorded)).toEqual(await headersOf(real));
    expect(Object.keys(await headersOf(real)).length).toBeGreaterThan(5);
  });

  it('when a request has gone through the request logger, then req.log is one child logger carrying its id', async () => {
    const app = express();
    const log = requestLog(createLogger('silent'));
    let seen: { same: boolean; bindings: Record<string, unknown>; own: boolean } | undefined;
    app.get('/', (req, res) => {
      log(req, res);
      seen = { same: req.log === req.log, bindings: req.log.bindings(), own: Object.hasOwn(req, 'log') };
      res.end();
    });
    await request(createHttpServer(app)).get('/');
    expect(seen).toEqual({ same: true, bindings: { reqId: expect.any(String) }, own: false });
    expect(typeof Object.getOwnPropertyDescriptor(express.request, 'log')?.get).toBe('function');
  });

  it('when a route of a mounted router answers, or fails to the app\'s error handler, then the pattern it matched is kept under its mount path, req.route still reads it, and nothing of the address is in it', async () => {
    const app = express();
    const seen: Record<string, { pattern: string | undefined; route: unknown; own: boolean }> = {};
    const inner = express.Router();
    inner.get('/:id', (req, res) => {
      if (req.params.id === 'broken') throw new Error('broken');
      res.json({ route: (req.route as { path: string }).path });
    });
    inner.get('/', (_req, res) => res.end());
    app.use('/api/things', inner);
    app.use((err: Error, req: express.Request, res: express.Response, _next: express.NextFunction) => {
      seen[err.message] = { pattern: matchedRouteOf(req), route: (req.route as { path: string } | undefined)?.path, own: Object.hasOwn(req, 'route') };
      res.status(500).end();
    });
    app.use((req, res, next) => {
      res.on('finish', () => (seen[req.url] = { pattern: matchedRouteOf(req), route: undefined, own: Object.hasOwn(req, 'route') }));
      next();
    });
    const server = createHttpServer(app);
    expect((await request(server).get('/api/things/41')).body).toEqual({ route: '/:id' });
    expect((await request(server).get('/API/Things/broken')).status).toBe(500);
    expect(seen.broken).toEqual({ pattern: '/api/things/:id', route: '/:id', own: false });
    expect((await request(server).get('/nothing/here')).status).toBe(404);
    expect(seen['/nothing/here']).toEqual({ pattern: undefined, route: undefined, own: false });

    const answered: (string | undefined)[] = [];
    const outer = express();
    outer.use((req, res, next) => {
      res.on('finish', () => answered.push(matchedRouteOf(req)));
      next();
    });
    outer.use('/api/things', inner);
    const served = createHttpServer(outer);
    await request(served).get('/api/things/42');
    await request(served).get('/api/things');
    await vi.waitFor(() => expect(answered).toEqual(['/api/things/:id', '/api/things']));
  });

  it('when a route on a regular expression answers, then its pattern is the name the route table gives it, never the expression or the address', async () => {
    const app = express();
    const inner = express.Router();
    inner.get(describedAs(/^\/[^/]+$/, '/:key'), (_req, res) => res.end());
    inner.all(/.*/, (_req, res) => res.status(405).end());
    app.use('/api/files', inner);
    const answered: (string | undefined)[] = [];
    const outer = express();
    outer.use((req, res, next) => {
      res.on('finish', () => answered.push(matchedRouteOf(req)));
      next();
    });
    outer.use(app);
    const server = createHttpServer(outer);
    expect((await request(server).get('/api/files/secret-name.pdf')).status).toBe(200);
    expect((await request(server).post('/api/files/secret-name.pdf')).status).toBe(405);
    await vi.waitFor(() => expect(answered).toHaveLength(2));
    expect(answered).toEqual(['/api/files/:key', '/api/files/.*']);
    expect(routesOf(app.router).map((r) => `${r.method} ${r.path}`)).toEqual(['get /api/files/:key', 'all /api/files/.*']);
  });
});
