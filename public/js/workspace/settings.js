// Settings: the language (kept in the profile and the `lang` cookie) and the onboarding tour,
// which starts again on the board once it is marked as not seen. The password form has its
// own script.
import { requireElement } from '../core/dom.js';
import { call, errorMessage } from './common.js';

const languageForm = requireElement('.ws-language-form', HTMLFormElement);
const languageError = requireElement('.form-error', HTMLElement, languageForm);

/** @param {string} language */
async function saveLanguage(language) {
  try {
    await call('PATCH', '/api/auth/me', { language });
    const url = new URL(window.location.href);
    url.searchParams.set('lang', language);
    window.location.assign(url);
  } catch (err) {
    languageError.textContent = errorMessage(err);
    languageError.hidden = false;
  }
}

languageForm.addEventListener('submit', (event) => {
  event.preventDefault();
  languageError.hidden = true;
  const chosen = languageForm.querySelector('input[name="language"]:checked');
  if (chosen instanceof HTMLInputElement) void saveLanguage(chosen.value);
});

const restart = requireElement('[data-restart-tour]', HTMLButtonElement);
const tourError = requireElement('[data-tour-error]', HTMLElement);

async function restartTour() {
  restart.disabled = true;
  try {
    await call('POST', '/api/auth/onboarding', { completed: false });
    window.location.assign('/workspace');
  } catch (err) {
    tourError.textContent = errorMessage(err);
    tourError.hidden = false;
    restart.disabled = false;
  }
}

restart.addEventListener('click', () => void restartTour());
