// Settings: the language (kept in the profile and the `lang` cookie) and the onboarding tour,
// which starts again on the board once it is marked as not seen. The password form has its
// own script.
import { call, errorMessage } from './common.js';

const languageForm = document.querySelector('.ws-language-form');
const languageError = languageForm.querySelector('.form-error');

languageForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  const language = languageForm.elements.language.value;
  languageError.hidden = true;
  try {
    await call('PATCH', '/api/auth/me', { language });
    const url = new URL(window.location.href);
    url.searchParams.set('lang', language);
    window.location.assign(url);
  } catch (err) {
    languageError.textContent = errorMessage(err);
    languageError.hidden = false;
  }
});

const restart = document.querySelector('[data-restart-tour]');
const tourError = document.querySelector('[data-tour-error]');
restart.addEventListener('click', async () => {
  restart.disabled = true;
  try {
    await call('POST', '/api/auth/onboarding', { completed: false });
    window.location.assign('/workspace');
  } catch (err) {
    tourError.textContent = errorMessage(err);
    tourError.hidden = false;
    restart.disabled = false;
  }
});
