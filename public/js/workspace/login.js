// The workspace sign-in form: email and password to POST /api/auth/login, which sets the
// httpOnly session cookie; the token in its answer is not kept, since the pages need only
// the cookie. Then on along the first-login path, or to the page that was asked for.
// A 401 here is a wrong password, not an ended session: the plain API, not the session rule.
import { api, ApiError } from '../core/api.js';
import { requireElement } from '../core/dom.js';
import { t } from '../core/i18n.js';

/** @typedef {{ mustChangePassword: boolean, profileCompleted: boolean }} SignedInUser */

const form = requireElement('#login-form', HTMLFormElement);
const email = requireElement('#login-email', HTMLInputElement);
const password = requireElement('#login-password', HTMLInputElement);
const error = requireElement('#login-error', HTMLElement);
const submit = requireElement('button[type="submit"]', HTMLButtonElement, form);
const idle = submit.textContent;

/**
 * One message for the form, both fields described by it; `field` is the one it is about.
 * @param {string} message
 * @param {HTMLInputElement} [field]
 */
function showError(message, field) {
  error.textContent = message;
  error.hidden = !message;
  for (const input of [email, password]) input.setAttribute('aria-invalid', String(Boolean(message) && (!field || field === input)));
  if (message) (field ?? email).focus();
}

/**
 * The first-login path: a new password, then the profile, then the workspace (and its tour).
 * @param {SignedInUser} user
 * @param {string | undefined} next
 */
function destinationFor(user, next) {
  if (user.mustChangePassword) return '/change-password';
  if (!user.profileCompleted) return '/workspace/welcome';
  return next || '/workspace';
}

for (const input of [email, password]) input.addEventListener('input', () => showError(''));

async function signIn() {
  submit.disabled = true;
  submit.textContent = t('login.working');
  try {
    const { user } = /** @type {{ user: SignedInUser }} */ (await api('POST', '/api/auth/login', { email: email.value.trim(), password: password.value }));
    window.location.assign(destinationFor(user, form.dataset.next));
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 0;
    const key = status === 429 ? 'errorThrottled' : status === 401 ? 'errorInvalid' : status === 400 ? 'errorInvalid' : 'errorNetwork';
    showError(t(`login.${key}`), password);
    password.select();
    submit.disabled = false;
    submit.textContent = idle;
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  if (!email.value.trim()) {
    showError(t('login.errorEmail'), email);
    return;
  }
  if (!password.value) {
    showError(t('login.errorPassword'), password);
    return;
  }
  void signIn();
});
