// Changing the password: forced after a first sign-in (/change-password), or by choice from
// Settings. The server ends every other session of the user; this one stays.
import { ApiError } from '../core/api.js';
import { requireElement } from '../core/dom.js';
import { formFeedback } from '../core/forms.js';
import { t } from '../core/i18n.js';
import { call, errorMessage } from './common.js';

/**
 * @param {HTMLFormElement} form
 * @param {import('../core/forms.js').FormFeedback} ui
 * @param {{ current: HTMLInputElement, next: HTMLInputElement }} fields
 */
async function change(form, ui, { current, next }) {
  ui.busy(true);
  try {
    await call('POST', '/api/auth/password', { currentPassword: current.value, newPassword: next.value });
    if (form.dataset.after) {
      window.location.assign(form.dataset.after);
      return;
    }
    form.reset();
    ui.success(t('password.done'));
  } catch (err) {
    const code = err instanceof ApiError ? err.code : undefined;
    if (code === 'WRONG_PASSWORD') ui.check([[current, t('password.wrong')]]);
    else if (code === 'SAME_PASSWORD') ui.check([[next, t('password.same')]]);
    else if (code === 'VALIDATION') ui.check([[next, t('password.tooShort', { min: next.minLength })]]);
    else ui.error(errorMessage(err));
  } finally {
    ui.busy(false);
  }
}

for (const form of document.querySelectorAll('.ws-password-form')) {
  if (!(form instanceof HTMLFormElement)) continue;
  const ui = formFeedback(form);
  const current = requireElement('[name="currentPassword"]', HTMLInputElement, form);
  // The server renders its own shortest length into the field's minlength.
  const next = requireElement('[name="newPassword"]', HTMLInputElement, form);
  const confirm = requireElement('[name="confirmPassword"]', HTMLInputElement, form);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    ui.clear();
    const ok = ui.check([
      [current, current.value ? '' : t('password.currentRequired')],
      [next, next.value.length >= next.minLength ? '' : t('password.tooShort', { min: next.minLength })],
      [confirm, confirm.value === next.value ? '' : t('password.mismatch')],
    ]);
    if (ok) void change(form, ui, { current, next });
  });
}
