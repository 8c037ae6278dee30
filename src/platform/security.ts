import type { ServerResponse } from 'node:http';
import helmet from 'helmet';

function helmetFor(httpsOnly: boolean) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        'form-action': ["'self'"],
        'upgrade-insecure-requests': httpsOnly ? [] : null,
      },
    },
    strictTransportSecurity: httpsOnly,
  });
}

/**
 * helmet's headers, with a CSP that the pages meet without any inline script. None of them
 * depends on the request, so helmet runs once, against a recorder, and every answer gets
 * the recorded headers in one loop: helmet's chain of thirteen middleware per request cost
 * more than the headers themselves.
 */
export function securityHeaders(httpsOnly: boolean): (res: ServerResponse) => void {
  const headers: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.push([name, value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  helmetFor(httpsOnly)({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
  });
  return (res) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}
