// Errors in forms, the same way on every page: a field's message under it (in the element
// `<input id>-error`), the field marked aria-invalid, and focus on the first field in error.

/**
 * Shows `message` under `control` and marks it invalid; an empty message clears both.
 * @param {Element} control
 * @param {string | null | undefined} message
 */
export function setFieldError(control, message) {
  const box = document.getElementById(`${control.id}-error`);
  if (box) {
    box.textContent = message ?? '';
    box.hidden = !message;
  }
  control.setAttribute('aria-invalid', message ? 'true' : 'false');
}

/** @typedef {[HTMLElement, string | null | undefined]} Problem a control and its message ('' when it is fine) */

/**
 * Shows each control's message (clearing those without one) and focuses the first control in
 * error; true when there is none.
 * @param {Problem[]} problems
 */
export function showFieldErrors(problems) {
  /** @type {HTMLElement | null} */
  let first = null;
  for (const [control, message] of problems) {
    setFieldError(control, message);
    if (message && !first) first = control;
  }
  first?.focus();
  return first === null;
}

/**
 * Clears a field's message as soon as the field is edited, so that none sits under a
 * corrected value.
 * @param {HTMLElement} root
 */
export function clearErrorsOnInput(root) {
  root.addEventListener('input', (event) => {
    const target = event.target;
    if (target instanceof HTMLElement && target.id && target.getAttribute('aria-invalid') === 'true') setFieldError(target, '');
  });
}

/**
 * @param {Element | null} box
 * @param {string} message
 */
function say(box, message) {
  if (!box) return;
  box.textContent = message;
  box.toggleAttribute('hidden', !message);
}

/**
 * The feedback of a form: field errors, one message for the whole form (its
 * `[data-form-error]`), one for success (`[data-form-success]`), and a busy submit button.
 * @param {HTMLFormElement} form
 */
export function formFeedback(form) {
  const formError = form.querySelector('[data-form-error]');
  const formSuccess = form.querySelector('[data-form-success]');
  const submit = form.querySelector('button[type="submit"]');
  clearErrorsOnInput(form);
  return {
    /** @param {Problem[]} problems */
    check: (problems) => showFieldErrors(problems),
    clear() {
      for (const control of form.querySelectorAll('input[id], select[id], textarea[id]')) setFieldError(control, '');
      say(formError, '');
      say(formSuccess, '');
    },
    /** @param {string} message */
    error: (message) => say(formError, message),
    /** @param {string} message */
    success: (message) => say(formSuccess, message),
    /** @param {boolean} value */
    busy(value) {
      if (!(submit instanceof HTMLButtonElement)) return;
      submit.disabled = value;
      submit.setAttribute('aria-busy', String(value));
    },
  };
}

/** @typedef {ReturnType<typeof formFeedback>} FormFeedback */
