// The dashboard's header: signing out, which ends the session and returns to the PIN page.
import { api } from '../core/api.js';

for (const button of document.querySelectorAll('[data-dashboard-logout]')) {
  if (!(button instanceof HTMLButtonElement)) continue;
  button.addEventListener('click', () => {
    button.disabled = true;
    // Whatever the answer, the PIN page is where a signed-out user belongs.
    void api('POST', '/auth/logout')
      .catch(() => undefined)
      .then(() => window.location.assign('/dashboard/login'));
  });
}
