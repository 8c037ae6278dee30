// The two dialogs every list page needs, both on the shared modal: a form that creates or
// edits a record through the API, and the red confirmation before deleting one.
import { openModal } from '../core/modal.js';
import { announce, call, errorMessage, invalidFields, me, options, t } from './common.js';

/**
 * Opens a form in the modal. `check(values)` returns `{field: message}` for what the page can
 * tell before asking the server; `send(values)` calls the API and returns the saved record;
 * `refusedField(err)` may name the field a refusal is about (`{name, message}`).
 * Resolves with that record, or null when cancelled.
 */
export async function editInModal({ title, confirmText, fields, content, check = () => ({}), send, refusedField = () => null }) {
  let saved = null;
  const { confirmed } = await openModal({
    title,
    confirmText: confirmText ?? t('common.save'),
    fields,
    content,
    onConfirm: async ({ values, setFieldError, setError }) => {
      const problems = Object.entries(check(values)).filter(([, message]) => message);
      if (problems.length) {
        for (const [name, message] of problems.reverse()) setFieldError(name, message);
        return false;
      }
      try {
        saved = await send(values);
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
    },
  });
  return confirmed ? saved : null;
}

/** Asks in the red confirmation modal, then sends DELETE `url`; resolves with the answer, or null. */
export async function confirmDelete({ title, message, confirmText, url, returnFocus }) {
  let answer = null;
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
        answer = await call('DELETE', url);
      } catch (err) {
        setError(errorMessage(err));
        return false;
      }
    },
  });
  return confirmed ? answer : null;
}

/**
 * The delete flow of a list page, by the keys of its locale section: `deleteTitle`,
 * `deleteMessage` and `deleteConfirm` in the red modal, then `deleted` announced; `vars` fill
 * them. Resolves with the server's answer, or null when cancelled.
 */
export async function deleteWithConfirmation(section, vars, url, returnFocus) {
  const answer = await confirmDelete({
    title: t(`${section}.deleteTitle`),
    message: t(`${section}.deleteMessage`, vars),
    confirmText: t(`${section}.deleteConfirm`),
    url,
    returnFocus,
  });
  if (answer) announce(t(`${section}.deleted`, vars));
  return answer;
}

/** `{endDate: message}` when both days are set and out of order. */
export function checkDays(values) {
  return values.startDate && values.endDate && values.endDate < values.startDate ? { endDate: t('errors.endBeforeStart') } : {};
}

/** Empty text fields become null, which the API reads as "not set". */
export function orNull(value) {
  const text = typeof value === 'string' ? value.trim() : value;
  return text === '' || text === undefined ? null : text;
}

/**
 * The brand select of a form, shown only to people in more than one brand (with one, that
 * brand is the only answer); `value` is the brand chosen at first, the user's first by default.
 */
export function brandField(brands, { value, hint, label = t('common.brand') } = {}) {
  if (brands.length < 2) return [];
  return [{ name: 'brandId', label, type: 'select', options: options(brands), value: String(value ?? me.brandIds[0] ?? brands[0].id), hint }];
}

/** The brand a form's values name, or the one brand there is to choose. */
export function chosenBrand(values, brands) {
  return Number(values.brandId ?? me.brandIds[0] ?? brands[0]?.id);
}
