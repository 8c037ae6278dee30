// Settings: the language (kept in the profile and the `lang` cookie), how each kind of
// notification reaches the member and their time zone, and the onboarding tour, which starts
// again on the board once it is marked as not seen. The password form has its own script.
import { requireElement } from '../core/dom.js';
import { t } from '../core/i18n.js';
import { announce, call, errorMessage } from './common.js';

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

const notificationForm = requireElement('[data-notification-settings]', HTMLFormElement);
const notificationError = requireElement('.form-error', HTMLElement, notificationForm);
const notificationSave = requireElement('button[type="submit"]', HTMLButtonElement, notificationForm);

/** Every kind's choice and the time zone, as the form shows them. */
function notificationSettings() {
  /** @type {Record<string, string>} */
  const settings = {};
  for (const select of notificationForm.querySelectorAll('select[data-notification-kind]')) {
    if (select instanceof HTMLSelectElement) settings[select.name] = select.value;
  }
  const zone = notificationForm.elements.namedItem('timeZone');
  return { settings, timeZone: zone instanceof HTMLSelectElement ? zone.value : undefined };
}

async function saveNotifications() {
  notificationError.hidden = true;
  notificationSave.disabled = true;
  try {
    await call('PATCH', '/api/auth/me/notifications-settings', notificationSettings());
    announce(t('notificationSettings.saved'));
  } catch (err) {
    notificationError.textContent = errorMessage(err);
    notificationError.hidden = false;
  } finally {
    notificationSave.disabled = false;
  }
}

notificationForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void saveNotifications();
});
