import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createHttpServer, REQUEST_FIELDS } from '../../src/platform/http-server';

/** Accessors along Express's request prototype chain, by name. */
function requestAccessors(): Set<string> {
  const names = new Set<string>();
  for (let proto: object | null = express.request; proto; proto = Object.getPrototypeOf(proto)) {
    for (const [name, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) if (d.get || d.set) names.add(name);
  }
  return names;
}

describe('createHttpServer: requests with their fields declared up front', () => {
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
        session: 'session' in req ? (req.session ?? null) : 'absent',
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
