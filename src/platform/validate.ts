import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { BadRequest } from './errors';

export interface Schemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

type Parsed<S extends Schemas> = {
  body: S['body'] extends z.ZodType ? z.output<S['body']> : undefined;
  query: S['query'] extends z.ZodType ? z.output<S['query']> : undefined;
  params: S['params'] extends z.ZodType ? z.output<S['params']> : undefined;
};

function check(schema: z.ZodType | undefined, value: unknown, where: string) {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ path: [where, ...i.path].join('.'), message: i.message }));
    throw new BadRequest(`Invalid ${where}: ${issues[0].path} ${issues[0].message}`, 'VALIDATION', { issues });
  }
  return result.data;
}

/**
 * Wraps a handler so it only ever sees input that passed its zod schemas.
 * A rejected promise reaches the error handler through Express 5 itself.
 */
export function validated<S extends Schemas>(
  schemas: S,
  handler: (input: Parsed<S>, req: Request, res: Response, next: NextFunction) => unknown,
): RequestHandler {
  const checked: RequestHandler = (req, res, next) => {
    const input = {
      body: check(schemas.body, req.body ?? {}, 'body'),
      query: check(schemas.query, req.query, 'query'),
      params: check(schemas.params, req.params, 'params'),
    } as Parsed<S>;
    return handler(input, req, res, next);
  };
  declared.set(checked, schemas);
  return checked;
}

// The schemas each checked handler was made with, so the API description is written from the
// very schemas that check requests (src/platform/openapi.ts).
const declared = new WeakMap<RequestHandler, Schemas>();

/** The schemas `handler` checks its input with, when it was made by `validated`. */
export function schemasOf(handler: unknown): Schemas | undefined {
  return typeof handler === 'function' ? declared.get(handler as RequestHandler) : undefined;
}

/** Path ids are positive integers; anything else is bad input (400); an unknown one is the route's 404. */
export const idParam = z.object({ id: z.string().regex(/^[1-9]\d{0,15}$/).transform(Number) });
