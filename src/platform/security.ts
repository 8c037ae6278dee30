import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import helmet from 'helmet';
import { recordHeaders } from './http-tuning';

/**
 * The one script written into the pages, at the top of the head of those that have scripts
 * (the others format nothing). The first Intl formatter of a kind that a browser's page process
 * builds first lists every locale the browser has for it: 15 to 30 ms in one call that cannot
 * be split, four times that on a slow phone, and then kept by the process for every later page
 * of the tab. Run here, that happens while the stylesheets are still on their way; run by the
 * page's scripts, it held up the first reader's input after the page had painted. Numbers and
 * dates are the two kinds the pages build.
 */
export const LOCALE_LISTS_SCRIPT =
  'Intl.NumberFormat.supportedLocalesOf(document.documentElement.lang);Intl.DateTimeFormat.supportedLocalesOf(document.documentElement.lang)';

/** The CSP allows that script by its hash, and so allows no other inline script. */
const LOCALE_LISTS_HASH = `'sha256-${createHash('sha256').update(LOCALE_LISTS_SCRIPT).digest('base64')}'`;

export function helmetFor(httpsOnly: boolean) {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'script-src': ["'self'", LOCALE_LISTS_HASH],
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
 * helmet's headers, with a CSP that the pages meet with no inline script but the one above.
 * None of them depends on the request, so they are recorded once (see http-tuning.ts).
 */
export function securityHeaders(httpsOnly: boolean): (res: ServerResponse) => void {
  return recordHeaders(helmetFor(httpsOnly));
}
