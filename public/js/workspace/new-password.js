// A new password sent with the token of a single-use link (a password reset, an accepted
// invitation), then on to the page the form names. A link that stopped working meanwhile
// says so in place.
import { api, ApiError } from '../core/api.js';
import { requireElement } from '../core/dom.js';
import { formFeedback } from '../core/forms.js';
import { t } from '../core/i18n.js';

const form = requireElement('.ws-new-password-form', HTMLFormElement);
const ui = formFeedback(form);
// The server renders its own shortest length into the field's minlength.
const next = requireElement('[name="newPassword"]', HTMLInputElement, form);
const confirm = requireElement('[name="confirmPassword"]', HTMLInputElement, form);
// The request's name for the password, and the key of what a dead link says, differ by link.
const { endpoint = '', token = '', after = '/login', field = 'newPassword', gone = 'reset.expired' } = form.dataset;

async function send() {
  ui.busy(true);
  try {
    const answer = /** @type {{ user?: { profileCompleted: boolean } } | null} */ (await api('POST', endpoint, { token, [field]: next.value }));
    window.location.assign(answer?.user && !answer.user.profileCompleted ? '/workspace/welcome' : after);
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 0;
    if (status === 410) ui.error(t(gone));
    else if (status === 400) ui.check([[next, t('password.tooShort', { min: next.minLength })]]);
    else ui.error(t('login.errorNetwork'));
    ui.busy(false);
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  ui.clear();
  const ok = ui.check([
    [next, next.value.length >= next.minLength ? '' : t('password.tooShort', { min: next.minLength })],
    [confirm, confirm.value === next.value ? '' : t('password.mismatch')],
  ]);
  if (ok) void send();
});
