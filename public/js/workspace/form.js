// The plain forms of the workspace pages (password, profile, settings): field errors under
// their inputs, one message for the whole form, and a busy submit button.
export function formHelpers(form) {
  const formError = form.querySelector('.form-error');
  const formSuccess = form.querySelector('.form-success');
  const submit = form.querySelector('button[type="submit"]');

  function fieldError(input, message) {
    const box = document.getElementById(`${input.id}-error`);
    if (box) {
      box.textContent = message ?? '';
      box.hidden = !message;
    }
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
  }

  // A message goes as soon as its field is edited, so that stale ones never sit under fixed values.
  form.addEventListener('input', (event) => {
    if (event.target.id && event.target.getAttribute('aria-invalid') === 'true') fieldError(event.target, '');
  });

  return {
    fieldError,
    /** Shows one message per input (first one focused); returns whether there were none. */
    check(problems) {
      let first = null;
      for (const [input, message] of problems) {
        fieldError(input, message);
        if (message && !first) first = input;
      }
      first?.focus();
      return first === null;
    },
    clear() {
      for (const input of form.querySelectorAll('input, select, textarea')) if (input.id) fieldError(input, '');
      if (formError) formError.hidden = true;
      if (formSuccess) formSuccess.hidden = true;
    },
    error(message) {
      if (!formError) return;
      formError.textContent = message;
      formError.hidden = !message;
    },
    success(message) {
      if (!formSuccess) return;
      formSuccess.textContent = message;
      formSuccess.hidden = !message;
    },
    busy(value) {
      if (!submit) return;
      submit.disabled = value;
      submit.setAttribute('aria-busy', String(value));
    },
  };
}
