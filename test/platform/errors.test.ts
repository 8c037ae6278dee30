import express, { type RequestHandler } from 'express';
import { request } from '../support/http';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  BadRequest,
  Conflict,
  errorHandler,
  Forbidden,
  HttpError,
  MethodNotAllowed,
  notFoundHandler,
  NotFound,
  PayloadTooLarge,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType,
} from '../../src/platform/errors';
import { createI18n } from '../../src/platform/i18n';
import { prelude } from '../../src/platform/prelude';
import { validated } from '../../src/platform/validate';
import { setupViews } from '../../src/platform/views';
import { buildApp } from '../support/app';
import { captureLogs } from '../support/logs';

/**
 * The platform pieces in the order createApp uses them, around one route; `pages` adds the
 * views and the browser error page.
 */
function appWith(route: RequestHandler, opts: { pages?: boolean } = {}) {
  const logs = captureLogs();
  const app = express();
  if (opts.pages) setupViews(app);
  app.use(prelude({ logger: logs.logger, i18n: createI18n(), cookieSecure: false }));
  app.all('/api/thing', route);
  app.all('/page', route);
  app.use(notFoundHandler);
  app.use(
    errorHandler(
      logs.logger,
      opts.pages
        ? (_req, res, status, message) => {
            res.page('error', { title: String(status), status, message }, status);
          }
        : undefined,
    ),
  );
  return { app, logs };
}

const throwing = (err: unknown): RequestHandler => () => {
  throw err;
};

describe('error handler: typed errors', () => {
  it.each([
    ['BadRequest', 400, new BadRequest('Bad input', 'SOME_CODE'), { error: 'Bad input', code: 'SOME_CODE' }],
    ['Unauthorized', 401, new Unauthorized(), { error: 'Not signed in' }],
    ['Forbidden', 403, new Forbidden('Not yours', 'CSRF'), { error: 'Not yours', code: 'CSRF' }],
    ['NotFound', 404, new NotFound('No such thing'), { error: 'No such thing' }],
    ['MethodNotAllowed', 405, new MethodNotAllowed(), { error: 'Method not allowed' }],
    ['Conflict', 409, new Conflict('Taken', 'PIN_TAKEN'), { error: 'Taken', code: 'PIN_TAKEN' }],
    ['PayloadTooLarge', 413, new PayloadTooLarge(), { error: 'Payload too large' }],
    ['UnsupportedMediaType', 415, new UnsupportedMediaType('Not that type', 'BAD_TYPE'), { error: 'Not that type', code: 'BAD_TYPE' }],
    ['TooManyRequests', 429, new TooManyRequests('Slow down'), { error: 'Slow down' }],
  ] as [string, number, HttpError, object][])('when a route throws %s, then status %i and exactly {error, code?}', async (_name, status, err, body) => {
    const { app } = appWith(throwing(err));
    const res = await request(app).get('/api/thing');
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toEqual(body);
  });

  it('when a typed error carries details, then they are in the body', async () => {
    const { app } = appWith(throwing(new BadRequest('Bad input', 'VALIDATION', { field: 'name' })));
    expect((await request(app).get('/api/thing')).body).toEqual({ error: 'Bad input', code: 'VALIDATION', details: { field: 'name' } });
  });

  it('when an async handler rejects with a typed error, then it is mapped the same way', async () => {
    const { app } = appWith(async () => {
      await Promise.resolve();
      throw new Conflict('Later', 'LATE');
    });
    const res = await request(app).get('/api/thing');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Later', code: 'LATE' });
  });

  it('when 429 is thrown without Retry-After, then one is added; a route\'s own value is kept', async () => {
    const plain = appWith(throwing(new TooManyRequests()));
    expect((await request(plain.app).get('/api/thing')).headers['retry-after']).toBe('60');
    const own = appWith((_req, res) => {
      res.setHeader('Retry-After', '7');
      throw new TooManyRequests();
    });
    expect((await request(own.app).get('/api/thing')).headers['retry-after']).toBe('7');
  });

  it('when a zod schema rejects input, then 400 VALIDATION with the issues', async () => {
    const { app } = appWith(validated({ body: z.strictObject({ name: z.string() }) }, (_input, _req, res) => res.json({ ok: true })));
    const res = await request(app).post('/api/thing').send({ name: 5 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.any(String), code: 'VALIDATION', details: { issues: [{ path: 'body.name', message: expect.any(String) }] } });
  });

  it('when a bare ZodError is thrown, then 400 VALIDATION too', async () => {
    const { app } = appWith(() => {
      z.object({ n: z.number() }).parse({ n: 'x' });
    });
    const res = await request(app).get('/api/thing');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION');
    expect(res.body.details.issues[0].path).toBe('n');
  });

  it('when a library throws an error with a 4xx status, then that status with its message', async () => {
    const { app } = appWith(throwing(Object.assign(new Error('Range not satisfiable'), { status: 416 })));
    const res = await request(app).get('/api/thing');
    expect(res.status).toBe(416);
    expect(res.body).toEqual({ error: 'Range not satisfiable' });
  });
});

describe('error handler: request bodies', () => {
  const echo: RequestHandler = (req, res) => {
    res.json({ got: req.body });
  };

  it('when the JSON is malformed, then 400 MALFORMED_JSON, never 500', async () => {
    const { app } = appWith(echo);
    const res = await request(app).post('/api/thing').set('Content-Type', 'application/json').send('{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: expect.any(String), code: 'MALFORMED_JSON' });
  });

  it('when a JSON body is over 1 MB, then 413; just under 1 MB is accepted', async () => {
    const { app } = appWith(echo);
    const big = JSON.stringify({ text: 'x'.repeat(1024 * 1024) });
    const res = await request(app).post('/api/thing').set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(typeof res.body.error).toBe('string');
    const fits = JSON.stringify({ text: 'x'.repeat(1024 * 1024 - 100) });
    expect((await request(app).post('/api/thing').set('Content-Type', 'application/json').send(fits)).status).toBe(200);
  });

  it('when the JSON body has a charset the parser does not know, then 415', async () => {
    const { app } = appWith(echo);
    const res = await request(app).post('/api/thing').set('Content-Type', 'application/json; charset=klingon').send('{}');
    expect(res.status).toBe(415);
    expect(typeof res.body.error).toBe('string');
  });
});

describe('error handler: unexpected errors', () => {
  it('when a route throws something unexpected, then 500 with a request id, no message and no stack; the log has both', async () => {
    const { app, logs } = appWith(throwing(new Error('database password is hunter2')));
    const res = await request(app).get('/api/thing');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error', code: 'INTERNAL', details: { requestId: expect.any(String) } });
    expect(res.body.details.requestId).not.toBe('');
    expect(res.body.details.requestId).toBe(res.headers['x-request-id']);
    expect(res.text).not.toContain('hunter2');
    expect(res.text).not.toMatch(/\bat .*\.ts:\d+/);
    const logged = logs.entries().find((e) => e.msg === 'unhandled error')!;
    expect(logged).toMatchObject({ level: 50, reqId: res.body.details.requestId });
    expect((logged.err as { stack: string }).stack).toContain('hunter2');
  });

  it('when the client sent a usable X-Request-Id, then the 500 reports that id; an unsafe one is replaced', async () => {
    const { app } = appWith(throwing(new Error('boom')));
    expect((await request(app).get('/api/thing').set('X-Request-Id', 'trace-42')).body.details.requestId).toBe('trace-42');
    const replaced = (await request(app).get('/api/thing').set('X-Request-Id', 'bad id <script>')).body.details.requestId;
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('when something that is not an Error is thrown, then still 500 JSON', async () => {
    const { app } = appWith(throwing('a string'));
    const res = await request(app).get('/api/thing');
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('INTERNAL');
  });

  it('when a typed 5xx is thrown, then its message and code with a request id', async () => {
    const { app } = appWith(throwing(new HttpError(503, 'Store unavailable', 'STORE_UNAVAILABLE')));
    const res = await request(app).get('/api/thing');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'Store unavailable', code: 'STORE_UNAVAILABLE', details: { requestId: expect.any(String) } });
  });

  it('when the response had already started, then the connection is cut rather than a second response written', async () => {
    const { app } = appWith((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '100' });
      res.write('partial');
      throw new Error('mid-stream');
    });
    await expect(request(app).get('/api/thing')).rejects.toThrow();
  });

  it('when a browser page fails, then the HTML error page shows no message and no stack', async () => {
    const { app } = appWith(throwing(new Error('secret internals')), { pages: true });
    const res = await request(app).get('/page').set('Accept', 'text/html');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('<html lang="en" dir="ltr">');
    expect(res.text).not.toContain('secret internals');
    expect(res.text).not.toMatch(/\bat .*:\d+:\d+/);
  });
});

describe('unknown paths', () => {
  it('when an /api path is unknown, then 404 JSON even for a browser', async () => {
    const { app } = await buildApp();
    for (const accept of ['application/json', 'text/html']) {
      const res = await request(app).get('/api/no-such-thing').set('Accept', accept);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
  });

  it('when an /auth path is unknown or a write goes nowhere, then 404 JSON', async () => {
    const { app } = await buildApp();
    expect((await request(app).get('/auth/nothing').set('Accept', 'text/html')).headers['content-type']).toMatch(/json/);
    const post = await request(app).post('/nowhere').send({});
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ error: expect.any(String) });
  });

  it('when a browser asks for an unknown page, then a 404 HTML page in its language', async () => {
    const { app } = await buildApp();
    const en = await request(app).get('/no-such-page').set('Accept', 'text/html,application/xhtml+xml');
    expect(en.status).toBe(404);
    expect(en.headers['content-type']).toMatch(/text\/html/);
    expect(en.text).toContain('<html lang="en" dir="ltr">');
    const ar = await request(app).get('/no-such-page').set('Accept', 'text/html').set('Cookie', 'lang=ar');
    expect(ar.status).toBe(404);
    expect(ar.text).toContain('<html lang="ar" dir="rtl">');
  });

  it('when a script asks for an unknown page with Accept JSON, then 404 JSON', async () => {
    const { app } = await buildApp();
    const res = await request(app).get('/no-such-page').set('Accept', 'application/json');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
  });
});
