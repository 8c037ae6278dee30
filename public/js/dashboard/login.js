// The PIN sign-in form. A 401 here is a wrong PIN, not an ended session, so it goes through
// the plain API rather than the session rule of the other pages.
import { api, ApiError } from '../core/api.js';
import { requireElement } from '../core/dom.js';
import { setFieldError } from '../core/forms.js';

const form = requireElement('#pin-form', HTMLFormElement);
const input = requireElement('#pin', HTMLInputElement);
const error = requireElement('#pin-error', HTMLElement);
const button = requireElement('button[type="submit"]', HTMLButtonElement, form);
const idleLabel = button.textContent;

input.addEventListener('input', () => {
  input.value = input.value.replace(/\D+/g, '');
  if (!error.hidden) setFieldError(input, '');
});

/** @param {string} pin */
async function signIn(pin) {
  button.disabled = true;
  button.textContent = form.dataset.working ?? '';
  try {
    await api('POST', '/auth/login', { pin });
    window.location.assign(form.dataset.next || '/dashboard');
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 0;
    const key = status === 429 ? 'errorThrottled' : status === 400 ? 'errorEmpty' : status === 401 ? 'errorInvalid' : 'errorNetwork';
    setFieldError(input, form.dataset[key]);
    input.select();
    input.focus();
    button.disabled = false;
    button.textContent = idleLabel;
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const pin = input.value.trim();
  if (!pin) {
    setFieldError(input, form.dataset.errorEmpty);
    input.focus();
    return;
  }
  void signIn(pin);
});
