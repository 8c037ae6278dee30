// Asking for a link to choose a new password. The server answers the same for any address,
// so the page says the same too: a link is on its way if an account uses it.
import { api, ApiError } from '../core/api.js';
import { requireElement } from '../core/dom.js';
import { formFeedback } from '../core/forms.js';
import { t } from '../core/i18n.js';

const form = requireElement('#forgot-form', HTMLFormElement);
const email = requireElement('#forgot-email', HTMLInputElement);
const sent = requireElement('[data-forgot-sent]', HTMLElement);
const intro = requireElement('[data-forgot-intro]', HTMLElement);
const ui = formFeedback(form);

form.addEventListener('submit', (event) => {
  event.preventDefault();
  ui.clear();
  const address = email.value.trim();
  if (!ui.check([[email, address ? '' : t('forgot.errorEmail')]])) return;
  void (async () => {
    ui.busy(true);
    try {
      await api('POST', '/api/auth/password-reset', { email: address });
      form.hidden = true;
      intro.hidden = true;
      sent.textContent = t('forgot.sent', { email: address });
      sent.hidden = false;
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      if (status === 400) ui.check([[email, t('forgot.errorEmail')]]);
      else ui.error(t(status === 429 ? 'forgot.errorThrottled' : 'login.errorNetwork'));
    } finally {
      ui.busy(false);
    }
  })();
});
