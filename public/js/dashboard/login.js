import { api, ApiError } from '../core/api.js';

const form = document.getElementById('pin-form');
const input = document.getElementById('pin');
const error = document.getElementById('pin-error');
const button = form.querySelector('button[type="submit"]');
const idleLabel = button.textContent;

function showError(message) {
  error.textContent = message;
  error.hidden = !message;
  input.setAttribute('aria-invalid', message ? 'true' : 'false');
}

input.addEventListener('input', () => {
  input.value = input.value.replace(/\D+/g, '');
  if (!error.hidden) showError('');
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const pin = input.value.trim();
  if (!pin) {
    showError(form.dataset.errorEmpty);
    input.focus();
    return;
  }
  button.disabled = true;
  button.textContent = form.dataset.working;
  try {
    await api('POST', '/auth/login', { pin });
    window.location.assign(form.dataset.next || '/dashboard');
  } catch (err) {
    const status = err instanceof ApiError ? err.status : 0;
    const key = status === 429 ? 'errorThrottled' : status === 400 ? 'errorEmpty' : status === 401 ? 'errorInvalid' : 'errorNetwork';
    showError(form.dataset[key]);
    input.select();
    input.focus();
    button.disabled = false;
    button.textContent = idleLabel;
  }
});
