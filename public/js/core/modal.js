// The one modal dialog of both applications: every destructive action is confirmed here,
// never with window.confirm. Built on <dialog>.showModal(), which makes the rest of the page
// inert; the Tab trap below also keeps focus from leaving for the browser's own toolbar.
//
//   const { confirmed, values } = await openModal({
//     title, message, isConfirm: true, danger: true, confirmText, cancelText,
//     fields: [{ name: 'url', label, type: 'url', required: true }],   // optional form fields
//     content: someNode,                                                // optional custom content
//     notice: someNode,                                                 // optional, above all else (a live notice)
//     onConfirm: async ({ values, setFieldError, setError }) => { ... },
//   });
//
// onConfirm runs while the dialog stays open with its buttons busy. If it returns false the
// dialog stays open (after calling setFieldError/setError to say why); if it throws, a
// generic error shows and the dialog stays open; otherwise the dialog closes and the
// promise resolves with confirmed true. Cancel, Escape and the close button resolve with
// confirmed false. Focus returns to the element that opened the dialog, or to `returnFocus`
// (an element or a function giving one) when the opener is gone, e.g. a deleted row's button.
// Default button texts come from the modal.* locale keys, which the layout renders into
// data-modal-strings on <body>.

import { element } from './dom.js';
import { setFieldError as showFieldError } from './forms.js';
import { readJsonAttribute } from './page.js';

/**
 * @typedef {object} ModalField
 * @property {string} name
 * @property {string} label
 * @property {'text' | 'email' | 'password' | 'url' | 'number' | 'date' | 'datetime-local' | 'select' | 'textarea'} [type]
 * @property {string} [value]
 * @property {{ value: string, label: string }[]} [options] of a select
 * @property {string} [hint]
 * @property {boolean} [required]
 * @property {number} [maxlength]
 * @property {number} [rows] of a textarea
 * @property {string} [min]
 * @property {string} [max]
 * @property {string} [pattern]
 * @property {string} [placeholder]
 * @property {string} [autocomplete]
 * @property {string} [inputmode]
 * @property {string} [dir]
 */

/**
 * @typedef {object} ConfirmContext
 * @property {Record<string, string>} values the fields' values by name
 * @property {(name: string, message: string) => void} setFieldError
 * @property {(message: string) => void} setError
 * @property {HTMLDialogElement} dialog
 */

/**
 * @typedef {object} ModalOptions
 * @property {string} [title]
 * @property {string} [message]
 * @property {boolean} [isConfirm] with a Cancel button (default true)
 * @property {boolean} [danger] red, for destructive actions
 * @property {string} [confirmText]
 * @property {string} [cancelText]
 * @property {ModalField[]} [fields]
 * @property {Node | null} [content]
 * @property {Node | null} [notice] at the top of the body, above the message and fields: what the
 *   form should know of the record it edits (a colleague changed it meanwhile)
 * @property {(context: ConfirmContext) => unknown} [onConfirm] false (or a promise of false) keeps the dialog open
 * @property {HTMLElement | null | (() => HTMLElement | null)} [returnFocus]
 * @property {'normal' | 'wide'} [size] wide for a panel with two columns (a record with its comments)
 * @property {(controls: Map<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => void} [onOpen] once it shows: fields that follow others (a project select following the brand) are wired here
 */

/**
 * @typedef {object} ModalResult
 * @property {boolean} confirmed
 * @property {Record<string, string> | undefined} values
 */

/** @typedef {{ confirm?: string, delete?: string, ok?: string, cancel?: string, close?: string, error?: string }} ModalStrings */

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

let counter = 0;

/**
 * @param {ModalField} field
 * @param {string} id
 * @param {string} describedBy
 * @returns {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement}
 */
function fieldControl(field, id, describedBy) {
  const common = {
    id,
    name: field.name,
    required: field.required,
    'aria-describedby': describedBy,
    autocomplete: field.autocomplete,
    inputmode: field.inputmode,
    dir: field.dir,
  };
  if (field.type === 'select') {
    const select = element('select', common);
    for (const option of field.options ?? []) {
      select.append(element('option', { value: option.value, text: option.label, selected: option.value === (field.value ?? '') }));
    }
    return select;
  }
  if (field.type === 'textarea') {
    const area = element('textarea', { ...common, rows: field.rows ?? 3, maxlength: field.maxlength });
    area.value = field.value ?? '';
    return area;
  }
  const input = element('input', {
    ...common,
    type: field.type ?? 'text',
    placeholder: field.placeholder,
    maxlength: field.maxlength,
    min: field.min,
    max: field.max,
    pattern: field.pattern,
  });
  input.value = field.value ?? '';
  return input;
}

/**
 * @param {ModalField[]} fields
 * @param {string} prefix
 */
function buildFields(fields, prefix) {
  const wrap = element('div', { className: 'modal-fields' });
  /** @type {Map<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>} */
  const controls = new Map();
  fields.forEach((field, index) => {
    const id = `${prefix}-field-${index}`;
    const hintId = field.hint ? `${id}-hint` : undefined;
    const errorId = `${id}-error`;
    const control = fieldControl(field, id, [hintId, errorId].filter(Boolean).join(' '));
    wrap.append(
      element('div', { className: 'field' }, [
        element('label', { for: id, text: field.label }),
        control,
        field.hint ? element('p', { id: hintId, className: 'field-hint', text: field.hint }) : null,
        element('p', { id: errorId, className: 'field-error', hidden: true }),
      ]),
    );
    controls.set(field.name, control);
  });
  return { wrap, controls };
}

/**
 * Opens the modal; resolves with {confirmed, values} once it closes.
 * @param {ModalOptions} [options]
 * @returns {Promise<ModalResult>}
 */
export function openModal(options = {}) {
  // The layout renders the translated default texts once per page.
  const text = /** @type {ModalStrings} */ (readJsonAttribute('data-modal-strings'));
  const {
    title = '',
    message = '',
    isConfirm = true,
    danger = false,
    confirmText = isConfirm ? (danger ? text.delete : text.confirm) : text.ok,
    cancelText = text.cancel,
    fields = [],
    content = null,
    notice = null,
    onConfirm,
    returnFocus,
    size = 'normal',
    onOpen,
  } = options;

  counter += 1;
  const prefix = `modal-${counter}`;
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;

  const titleId = `${prefix}-title`;
  const messageId = `${prefix}-message`;
  const errorBox = element('p', { className: 'modal-error', role: 'alert', hidden: true });
  const { wrap: fieldsWrap, controls } = buildFields(fields, prefix);
  // A field's message goes once the field is edited, so it never sits under a corrected value.
  for (const [name, control] of controls) control.addEventListener('input', () => setFieldError(name, ''));

  const confirmButton = element('button', {
    type: 'submit',
    className: `button ${danger ? 'button-danger' : 'button-primary'}`,
    text: confirmText,
  });
  const cancelButton = isConfirm ? element('button', { type: 'button', className: 'button', text: cancelText }) : null;
  const closeButton = element('button', { type: 'button', className: 'modal-close', 'aria-label': text.close }, [
    element('span', { 'aria-hidden': 'true', text: '×' }),
  ]);

  const form = element('form', { className: 'modal-form', novalidate: true }, [
    element('div', { className: 'modal-header' }, [
      danger ? element('span', { className: 'modal-icon', 'aria-hidden': 'true', text: '!' }) : null,
      element('h2', { id: titleId, className: 'modal-title', text: title }),
      closeButton,
    ]),
    element('div', { className: 'modal-body' }, [
      notice,
      message ? element('p', { id: messageId, className: 'modal-message', text: message }) : null,
      fields.length ? fieldsWrap : null,
      content,
      errorBox,
    ]),
    element('div', { className: 'modal-actions' }, [cancelButton, confirmButton]),
  ]);

  const dialog = element(
    'dialog',
    {
      className: `modal${danger ? ' modal-danger' : ''}${size === 'wide' ? ' modal-wide' : ''}`,
      'aria-modal': 'true',
      'aria-labelledby': titleId,
      'aria-describedby': message ? messageId : undefined,
      role: isConfirm && danger ? 'alertdialog' : undefined,
    },
    [form],
  );

  let busy = false;
  let settled = false;
  /** @type {(result: ModalResult) => void} */
  let resolvePromise = () => {};
  /** @type {Promise<ModalResult>} */
  const result = new Promise((resolve) => {
    resolvePromise = resolve;
  });

  function values() {
    /** @type {Record<string, string>} */
    const out = {};
    for (const [name, control] of controls) out[name] = control.value;
    return out;
  }

  /**
   * @param {string} name
   * @param {string} messageText
   */
  function setFieldError(name, messageText) {
    const control = controls.get(name);
    if (!control) return;
    showFieldError(control, messageText);
    if (messageText) control.focus();
  }

  /** @param {string} messageText */
  function setError(messageText) {
    errorBox.textContent = messageText;
    errorBox.hidden = !messageText;
  }

  function clearErrors() {
    setError('');
    for (const name of controls.keys()) setFieldError(name, '');
  }

  /** @param {boolean} value */
  function setBusy(value) {
    busy = value;
    confirmButton.disabled = value;
    confirmButton.setAttribute('aria-busy', String(value));
    if (cancelButton) cancelButton.disabled = value;
    closeButton.disabled = value;
  }

  /** @param {boolean} confirmed */
  function finish(confirmed) {
    if (settled) return;
    settled = true;
    if (dialog.open) dialog.close();
    dialog.remove();
    const target = opener && opener.isConnected ? opener : typeof returnFocus === 'function' ? returnFocus() : returnFocus;
    if (target?.isConnected) target.focus();
    resolvePromise({ confirmed, values: confirmed ? values() : undefined });
  }

  function cancel() {
    if (!busy) finish(false);
  }

  async function accept() {
    if (!onConfirm) {
      finish(true);
      return;
    }
    setBusy(true);
    try {
      const outcome = await onConfirm({ values: values(), setFieldError, setError, dialog });
      setBusy(false);
      if (outcome !== false) finish(true);
    } catch {
      setBusy(false);
      setError(text.error ?? '');
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    clearErrors();
    void accept();
  });

  cancelButton?.addEventListener('click', cancel);
  closeButton.addEventListener('click', cancel);

  // Escape fires "cancel"; closing is ours to decide so that a running action is not cut off.
  dialog.addEventListener('cancel', (event) => {
    event.preventDefault();
    cancel();
  });
  // The browser may still close the dialog itself (a second Escape); settle the promise then.
  dialog.addEventListener('close', () => finish(false));

  dialog.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const focusable = [...dialog.querySelectorAll(FOCUSABLE)].filter((node) => node instanceof HTMLElement && node.getClientRects().length > 0);
    if (focusable.length === 0) return;
    const first = /** @type {HTMLElement} */ (focusable[0]);
    const last = /** @type {HTMLElement} */ (focusable[focusable.length - 1]);
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });

  document.body.append(dialog);
  dialog.showModal();
  onOpen?.(controls);
  // A destructive action starts on Cancel, so a stray Enter does not delete anything.
  const firstField = controls.values().next().value ?? (content instanceof Element ? content.querySelector(FOCUSABLE) : null);
  (firstField instanceof HTMLElement ? firstField : danger && cancelButton ? cancelButton : confirmButton).focus();

  return result;
}
