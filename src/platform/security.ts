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
 * helmet's headers, with a CSP that the pages meet without any inline script. None of them
 * depends on the request, so they are recorded once (see http-tuning.ts).
 */
export function securityHeaders(httpsOnly: boolean): (res: ServerResponse) => void {
  return recordHeaders(helmetFor(httpsOnly));
}
