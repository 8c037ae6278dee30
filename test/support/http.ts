import type { RequestListener, Server } from 'node:http';
import supertest from 'supertest';
import { createHttpServer } from '../../src/platform/http-server';

/**
 * supertest on the HTTP server that server.ts serves on (createHttpServer), so that route
 * tests exercise the same request and response objects as production.
 */
export function request(app: RequestListener | Server | string) {
  return supertest(typeof app === 'function' ? createHttpServer(app) : app);
}

export type HttpTest = supertest.Test;
export type HttpResponse = supertest.Response;
