// The two dialogs every list page needs, both on the shared modal: a form that creates or
// edits a record through the API, and the red confirmation before deleting one.
import { t, tIsolated } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { announce, call, errorMessage, invalidFields, me, options } from './common.js';

/**
 * @template R
 * @typedef {object} EditOptions
 * @property {string} title
 * @property {string} [confirmText]
 * @property {import('../core/modal.js').ModalField[]} fields
 * @property {Node | null} [content]
 * @property {Node | null} [notice] above the fields (see openModal)
 * @property {(values: Record<string, string>) => Record<string, string | undefined>} [check] what the page can tell before asking the server
 * @property {(values: Record<string, string>) => Promise<R>} send calls the API and returns the saved record
 * @property {(err: unknown) => { name: string, message: string } | null} [refusedField] the field a refusal is about
 * @property {import('../core/modal.js').ModalOptions['onOpen']} [onOpen]
 */

/**
 * Opens a form in the modal. `check(values)` returns `{field: message}` for what the page can
 * tell before asking the server; `send(values)` calls the API and returns the saved record;
 * `refusedField(err)` may name the field a refusal is about (`{name, message}`).
 * Resolves with that record, or null when cancelled.
 * @template R
 * @param {EditOptions<R>} options
 * @returns {Promise<R | null>}
 */
export async function editInModal({ title, confirmText, fields, content, notice, check = () => ({}), send, refusedField = () => null, onOpen }) {
  /** @type {{ record: R } | null} */
  let saved = null;
  const { confirmed } = await openModal({
    title,
    confirmText: confirmText ?? t('common.save'),
    fields,
    content,
    notice,
    onOpen,
    onConfirm: async ({ values, setFieldError, setError }) => {
      const problems = Object.entries(check(values)).flatMap(([name, message]) => (message ? [[name, message]] : []));
      if (problems.length) {
        for (const [name, message] of problems.reverse()) setFieldError(name, message);
        return false;
      }
      try {
        saved = { record: await send(values) };
      } catch (err) {
        const refused = refusedField(err);
        if (refused) {
          setFieldError(refused.name, refused.message);
          return false;
        }
        for (const name of Object.keys(invalidFields(err)).reverse()) setFieldError(name, t('errors.invalidField'));
        setError(errorMessage(err));
        return false;
      }
      return true;
    },
  });
  // Set by onConfirm, which the type checker does not follow into.
  const outcome = /** @type {{ record: R } | null} */ (saved);
  return confirmed && outcome ? outcome.record : null;
}

/**
 * @typedef {object} DeleteOptions
 * @property {string} title
 * @property {string} message
 * @property {string} confirmText
 * @property {string} url
 * @property {import('../core/modal.js').ModalOptions['returnFocus']} [returnFocus]
 */

/**
 * Asks in the red confirmation modal, then sends DELETE `url`; resolves with the answer, or null.
 * @param {DeleteOptions} options
 * @returns {Promise<unknown>}
 */
export async function confirmDelete({ title, message, confirmText, url, returnFocus }) {
  /** @type {{ answer: unknown } | null} */
  let done = null;
  const { confirmed } = await openModal({
    title,
    message,
    danger: true,
    isConfirm: true,
    confirmText,
    cancelText: t('common.cancel'),
    returnFocus,
    onConfirm: async ({ setError }) => {
      try {
        done = { answer: await call('DELETE', url) };
        return true;
      } catch (err) {
        setError(errorMessage(err));
        return false;
      }
    },
  });
  const outcome = /** @type {{ answer: unknown } | null} */ (done);
  return confirmed && outcome ? outcome.answer : null;
}

/**
 * The delete flow of a list page, by the keys of its locale section: `deleteTitle`,
 * `deleteMessage` and `deleteConfirm` in the red modal, then `deleted` announced; `vars` fill
 * them. Resolves with whether the record was deleted.
 * @param {string} section
 * @param {import('../core/i18n.js').Vars} vars
 * @param {string} url
 * @param {DeleteOptions['returnFocus']} returnFocus
 */
export async function deleteWithConfirmation(section, vars, url, returnFocus) {
  const answer = await confirmDelete({
    title: t(`${section}.deleteTitle`),
    message: t(`${section}.deleteMessage`, vars),
    confirmText: t(`${section}.deleteConfirm`),
    url,
    returnFocus,
  });
  if (answer) announce(tIsolated(`${section}.deleted`, vars));
  return Boolean(answer);
}

/**
 * `{endDate: message}` when both days are set and out of order.
 * @param {Record<string, string>} values
 * @returns {Record<string, string>}
 */
export function checkDays(values) {
  return values.startDate && values.endDate && values.endDate < values.startDate ? { endDate: t('errors.endBeforeStart') } : {};
}

/**
 * Empty text fields become null, which the API reads as "not set".
 * @param {string | undefined} value
 */
export function orNull(value) {
  const text = typeof value === 'string' ? value.trim() : value;
  return text === '' || text === undefined ? null : text;
}

/**
 * The brand select of a form, shown only to people in more than one brand (with one, that
 * brand is the only answer); `value` is the brand chosen at first, the user's first by default.
 * @param {import('./common.js').Brand[]} brands
 * @param {{ value?: number | null, hint?: string, label?: string }} [opts]
 * @returns {import('../core/modal.js').ModalField[]}
 */
export function brandField(brands, { value, hint, label = t('common.brand') } = {}) {
  if (brands.length < 2) return [];
  return [{ name: 'brandId', label, type: 'select', options: options(brands), value: String(value ?? me.brandIds.at(0) ?? brands[0].id), hint }];
}

/**
 * The brand a form's values name, or the one brand there is to choose (the form then has no
 * brand field).
 * @param {Partial<Record<string, string>>} values
 * @param {import('./common.js').Brand[]} brands
 */
export function chosenBrand(values, brands) {
  return Number(values.brandId ?? me.brandIds.at(0) ?? brands.at(0)?.id);
}
