import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { setBaseLogger } from './http-tuning';

export type Logger = pino.Logger;

declare module 'node:http' {
  interface IncomingMessage {
    /** This request's id, also sent back in X-Request-Id and logged with its errors. */
    id: string;
    /** The logger with this request's id bound. */
    log: Logger;
  }
}

const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.pin',
  '*.password',
  '*.password_hash',
  '*.passwordHash',
  '*.token',
];

/** Logs JSON lines to stdout, or to `destination` (tests read what was logged). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' } }, destination);
}

/** The caller's X-Request-Id when it is a plain token (a proxy's trace id), else a new one. */
function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
}

/**
 * A request's address as the log keeps it: the token of a single-use link (an invitation's
 * path, a reset's `token=`) would let anyone who reads the log use it first.
 */
export function loggedUrl(url: string): string {
  return url.replace(/^(\/invite\/)[^/?#]+/, '$1[redacted]').replace(/([?&]token=)[^&#]*/g, '$1[redacted]');
}

function levelOf(status: number): pino.Level {
  return status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
}

/**
 * Gives a request an id (sent back in X-Request-Id) and logs its answer once it is sent:
 * 5xx at error, 4xx at info, the rest at debug; the probes (`/healthz`, `/livez`) never. pino-http did the same,
 * but built a child logger and serialized the request for every request whatever the
 * level, which cost about a third of what bare Express spends on a request. Here a line,
 * and `req.log`, are built only when used.
 */
export function requestLog(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const id = requestId(req);
    req.id = id;
    setBaseLogger(req, logger);
    res.setHeader('X-Request-Id', id);
    if (req.url === '/healthz' || req.url === '/livez') return;
    const started = performance.now();
    // 'close' comes after 'finish', or alone when the client went away before the answer;
    // either way once, so `on` (without `once`'s wrapper).
    res.on('close', () => {
      // A client that went away before its answer is no server fault, but worth seeing.
      const level = res.writableFinished ? levelOf(res.statusCode) : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const line = {
        req: { id, method: req.method, url: loggedUrl((req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '') },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(performance.now() - started),
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      logger[level](line, res.writableFinished ? 'request completed' : 'request aborted');
    });
  };
}
