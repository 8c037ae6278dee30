// The workspace sign-in form: email and password to POST /api/auth/login, which sets the
// httpOnly session cookie; the token in its answer is not kept, since the pages need only
// the cookie. Then on along the first-login path, or to the page that was asked for.
import { api, ApiError } from '../core/api.js';
import { t } from './common.js';

const form = document.getElementById('login-form');
const email = document.getElementById('login-email');
const password = document.getElementById('login-password');
const error = document.getElementById('login-error');
const submit = form.querySelector('button[type="submit"]');
const idle = submit.textContent;

function showError(message, field) {
  error.textContent = message;
  error.hidden = !message;
  for (const input of [email, password]) input.setAttribute('aria-invalid', String(Boolean(message) && (!field || field === input)));
  if (message) (field ?? email).focus();
}

/** The first-login path: a new password, then the profile, then the workspace (and its tour). */
function destinationFor(user, next) {
  if (user.mustChangePassword) return '/change-password';
  if (!user.profileCompleted) return '/workspace/welcome';
  return next || '/workspace';
}

for (const input of [email, password]) input.addEventListener('input', () => showError(''));

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  if (!email.value.trim()) return showError(t('login.errorEmail'), email);
  if (!password.value) return showError(t('login.errorPassword'), password);
  submit.disabled = true;
  submit.textContent = t('login.working');
  try {
    const { user } = await api('POST', '/api/auth/login', { email: email.value.trim(), password: password.value });
    window.location.assign(destinationFor(user, form.dataset.next));
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 0;
    const key = status === 429 ? 'errorThrottled' : status === 401 ? 'errorInvalid' : status === 400 ? 'errorInvalid' : 'errorNetwork';
    showError(t(`login.${key}`), password);
    password.select();
    submit.disabled = false;
    submit.textContent = idle;
  }
});
