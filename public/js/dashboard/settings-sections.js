// The Settings page's sections and what their forms and tables share: status lines, field
// problems, the confirmation of a delete, the buttons of a row.
import { ApiError } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { showFieldErrors } from '../core/forms.js';
import { t } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { call, cell, errorText } from './common.js';

export const sections = {
  seasons: requireElement('#seasons', HTMLElement),
  users: requireElement('#users', HTMLElement),
  import: requireElement('#import', HTMLElement),
};

/** @typedef {'seasons' | 'users'} Kind */

/**
 * @param {HTMLElement} section
 * @param {string} message
 * @param {'success' | 'error'} [kind]
 */
export function say(section, message, kind = 'success') {
  const status = requireElement('[data-status]', HTMLElement, section);
  status.textContent = message;
  status.dataset.kind = kind;
}

/**
 * Marks each problem on its field (by the field's name) and focuses the first; true when
 * there is none.
 * @param {HTMLFormElement} form
 * @param {Record<string, string>} problems
 */
export function report(form, problems) {
  const fields = [...form.querySelectorAll('input[id], select[id]')].flatMap((input) =>
    (input instanceof HTMLInputElement || input instanceof HTMLSelectElement) && document.getElementById(`${input.id}-error`) ? [input] : [],
  );
  return showFieldErrors(fields.map((input) => [input, problems[input.name]]));
}

/**
 * @param {HTMLElement} section
 * @param {number} count
 */
export function showTable(section, count) {
  requireElement('[data-table]', HTMLElement, section).hidden = count === 0;
  requireElement('[data-empty]', HTMLElement, section).hidden = count > 0;
}

/**
 * Deletes a season or a user after the confirmation modal; `kind` names its strings, section and API.
 * @param {Kind} kind
 * @param {{ id: number, name: string }} record
 * @param {() => void} removed
 */
function confirmDelete(kind, record, removed) {
  return openModal({
    title: t(`settings.${kind}.deleteTitle`),
    message: t(`settings.${kind}.deleteMessage`, { name: record.name }),
    danger: true,
    confirmText: t(`settings.${kind}.delete`),
    returnFocus: () => document.getElementById(`${kind}-title`),
    onConfirm: async ({ setError }) => {
      try {
        await call('DELETE', `/api/${kind}/${record.id}`);
      } catch (err) {
        // Someone else removed it already: the outcome is the one wanted.
        if (!(err instanceof ApiError && err.status === 404)) {
          setError(errorText(err, 'errors.generic'));
          return false;
        }
      }
      removed();
      say(sections[kind], t(`settings.${kind}.deleted`, { name: record.name }));
      return true;
    },
  });
}

/**
 * @param {string} label
 * @param {string} accessibleName
 * @param {string} className
 * @param {() => unknown} onClick
 */
export function rowButton(label, accessibleName, className, onClick) {
  const button = element('button', { type: 'button', className: `button button-small ${className}`, 'aria-label': accessibleName, text: label });
  button.addEventListener('click', () => void onClick());
  return button;
}

/**
 * The Edit and Delete buttons of a season's or a user's row (and any `extra` ones before
 * Delete), named after the record for screen readers.
 * @param {Kind} kind
 * @param {{ id: number, name: string }} record
 * @param {string} editLabel
 * @param {() => unknown} edit
 * @param {() => void} removed
 * @param {HTMLButtonElement[]} [extra]
 */
export function actionsCell(kind, record, editLabel, edit, removed, extra = []) {
  const name = record.name;
  return cell(
    element('div', { className: 'row-actions' }, [
      rowButton(t(editLabel), t(`settings.${kind}.editNamed`, { name }), '', edit),
      ...extra,
      rowButton(t(`settings.${kind}.delete`), t(`settings.${kind}.deleteNamed`, { name }), 'button-danger-quiet', () => confirmDelete(kind, record, removed)),
    ]),
    'actions-col',
  );
}

/**
 * The text values of a form, by name; a control the page's markup lacks has none.
 * @param {HTMLFormElement} form
 * @returns {Partial<Record<string, string>>}
 */
export function formValues(form) {
  return Object.fromEntries([...new FormData(form)].map(([name, value]) => [name, typeof value === 'string' ? value : '']));
}
