// Changing the password: forced after a first sign-in (/change-password), or by choice from
// Settings. The server ends every other session of the user; this one stays.
import { ApiError, call, errorMessage, t } from './common.js';
import { formHelpers } from './form.js';

const MIN_LENGTH = 10;

for (const form of document.querySelectorAll('.ws-password-form')) {
  const ui = formHelpers(form);
  const current = form.elements.currentPassword;
  const next = form.elements.newPassword;
  const confirm = form.elements.confirmPassword;

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    ui.clear();
    const ok = ui.check([
      [current, current.value ? '' : t('password.currentRequired')],
      [next, next.value.length >= MIN_LENGTH ? '' : t('password.tooShort', { min: MIN_LENGTH })],
      [confirm, confirm.value === next.value ? '' : t('password.mismatch')],
    ]);
    if (!ok) return;
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
      else if (code === 'VALIDATION') ui.check([[next, t('password.tooShort', { min: MIN_LENGTH })]]);
      else ui.error(errorMessage(err));
    } finally {
      ui.busy(false);
    }
  });
}
