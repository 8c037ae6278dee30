import type { ServerResponse } from 'node:http';
import helmet from 'helmet';
import { recordHeaders } from './http-tuning';

export function helmetFor(httpsOnly: boolean) {
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
 * helmet's headers, with a CSP that allows no inline script: every script the pages run is a
 * file of their own origin. None of the headers depends on the request, so they are recorded
 * once (see http-tuning.ts).
 */
export function securityHeaders(httpsOnly: boolean): (res: ServerResponse) => void {
  return recordHeaders(helmetFor(httpsOnly));
}
