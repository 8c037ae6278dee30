import helmet from 'helmet';

/** helmet's headers, with a CSP that the pages meet without any inline script. */
export function securityHeaders(httpsOnly: boolean) {
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
