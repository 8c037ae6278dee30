import type { Request } from 'express';

/**
 * A cookie of the request as cookie-parser read it, when it is text. cookie-parser types its
 * result as any and turns `j:`-prefixed values into objects; none of this server's cookies is one.
 */
export function cookieOf(req: Request, name: string): string | undefined {
  const value: unknown = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}
