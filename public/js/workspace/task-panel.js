// One task in the modal, wherever it was opened from (its card or item, a search result, a
// notification): its description, its status, assignee, priority, due date and project, and
// its comments. Whoever may change the task (the server says so in `task.can`) changes each
// of the five in place, saved as soon as it changes; the others read them. A colleague's
// change redraws what is read; fields being changed stay, under a notice that offers the
// task as it is now.
import { ApiError } from '../core/api.js';
import { element, findElement } from '../core/dom.js';
import { formatDay } from '../core/format.js';
import { setFieldError } from '../core/forms.js';
import { t, tIsolated } from '../core/i18n.js';
import { announce, call, domain, errorMessage, me, options, vocabularyOptions } from './common.js';
import { commentThread } from './conversation.js';
import { byOther, flash, subscribeWhileShown } from './live.js';

/** @typedef {import('../../../src/workspace/tasks/service').TaskView} Task */
/** @typedef {{ id: number, name: string }} Named */

/** The fields the panel shows, in order. */
const FIELDS = /** @type {const} */ (['status', 'assigneeId', 'priority', 'dueDate', 'projectId']);
/** @typedef {typeof FIELDS[number]} Field */

/** @type {Record<Field, string>} */
const LABELS = { status: 'common.status', assigneeId: 'tasks.filterAssignee', priority: 'tasks.fieldPriority', dueDate: 'tasks.dueDate', projectId: 'tasks.project' };

let serial = 0;

/**
 * A field's value as the form holds it ('' for none).
 * @param {Task} task
 * @param {Field} field
 */
const formValue = (task, field) => String(task[field] ?? '');

/**
 * A field's value as the API takes it.
 * @param {Field} field
 * @param {string} value
 */
function apiValue(field, value) {
  if (field === 'assigneeId' || field === 'projectId') return value ? Number(value) : null;
  if (field === 'dueDate') return value || null;
  return value;
}

/**
 * @param {object} opts
 * @param {Task} opts.task
 * @param {Named[]} opts.people who may be given the task: the members of its brand
 * @param {Named[]} opts.projects the projects of its brand
 * @param {(saved: Task) => Promise<void> | void} opts.onSaved the page's list follows a change
 * @returns {HTMLElement}
 */
export function taskPanel({ task, people, projects, onSaved }) {
  serial += 1;
  const prefix = `task-panel-${serial}`;
  let current = task;

  /** @param {Field} field */
  const choicesOf = (field) => {
    if (field === 'status') return vocabularyOptions(domain.taskStatuses, 'tasks.status');
    if (field === 'priority') return vocabularyOptions(domain.taskPriorities, 'tasks.priority');
    if (field === 'assigneeId') return options(people, (p) => (p.id === me.id ? t('common.you', { name: p.name }) : p.name), t('tasks.unassigned'));
    return options(projects, (p) => p.name, t('tasks.noProject'));
  };

  /** What a reader sees of a field. @param {Field} field */
  function shown(field) {
    const value = formValue(current, field);
    if (field === 'dueDate') return value ? formatDay(value) : t('tasks.noDue');
    return choicesOf(field).find((o) => o.value === value)?.label ?? '';
  }

  /** The fields as facts, for whoever may not change them. */
  const facts = () =>
    element(
      'dl',
      { className: 'task-facts', tabindex: -1 },
      FIELDS.flatMap((field) => [element('dt', { text: t(LABELS[field]) }), element('dd', {}, [element('bdi', { text: shown(field) })])]),
    );

  // Saves one at a time, in the order they were made, so the last choice is the one kept.
  let saving = Promise.resolve();

  /**
   * @param {Field} field
   * @param {HTMLInputElement | HTMLSelectElement} control
   */
  async function save(field, control) {
    const value = control.value;
    if (value === formValue(current, field)) return;
    control.setAttribute('aria-busy', 'true');
    try {
      const { task: saved } = /** @type {{ task: Task }} */ (await call('PATCH', `/api/tasks/${current.id}`, { [field]: apiValue(field, value) }));
      current = saved;
      setFieldError(control, '');
      announce(tIsolated('tasks.updated', { title: saved.title }));
      // Handed to someone else, the task may no longer be the user's to change: it reads from now on.
      if (!saved.can.edit) {
        details.replaceChildren(...detailsOf());
        findElement('.task-facts', HTMLElement, details)?.focus();
      }
      await onSaved(saved);
    } catch (err) {
      control.value = formValue(current, field);
      setFieldError(control, err instanceof ApiError && err.code === 'ASSIGNEE_NOT_MEMBER' ? t('errors.ASSIGNEE_NOT_MEMBER') : errorMessage(err));
    }
    control.setAttribute('aria-busy', 'false');
  }

  /** The five fields, each saved as soon as it changes. */
  function fields() {
    return element(
      'div',
      { className: 'task-fields' },
      FIELDS.map((field) => {
        const id = `${prefix}-${field}`;
        const control =
          field === 'dueDate'
            ? element('input', { id, type: 'date', value: formValue(current, field), 'aria-describedby': `${id}-error` })
            : element(
                'select',
                { id, 'aria-describedby': `${id}-error` },
                choicesOf(field).map((o) => element('option', { value: o.value, text: o.label, selected: o.value === formValue(current, field) })),
              );
        control.addEventListener('change', () => {
          saving = saving.then(() => save(field, control));
        });
        return element('div', { className: 'field' }, [
          element('label', { for: id, text: t(LABELS[field]) }),
          control,
          element('p', { id: `${id}-error`, className: 'field-error', role: 'alert', hidden: true }),
        ]);
      }),
    );
  }

  /** The description, and the fields or the facts, of the task as it is now. @returns {HTMLElement[]} */
  const detailsOf = () => [
    ...(current.description ? [element('p', { className: 'record-text', dir: 'auto', text: current.description })] : []),
    current.can.edit ? fields() : facts(),
  ];

  const details = element('div', { className: 'task-details' }, detailsOf());
  // A colleague's change, said here: the page's own live region is behind the dialog.
  const notice = element('div', { className: 'live-notice', role: 'status' });
  const panel = element('div', { className: 'task-panel' }, [notice, details, current.can.comment ? commentThread({ taskId: current.id }) : null]);

  /** Draws the task as it is now, and says so. @param {Task} latest */
  function redraw(latest) {
    current = latest;
    details.replaceChildren(...detailsOf());
    flash(details);
  }

  // A colleague's change: facts are drawn again as they are now; fields the member may be
  // changing are left as they are, and a notice offers to draw them again.
  subscribeWhileShown(panel, 'task', (event) => {
    if (event.id !== current.id) return;
    const latest = /** @type {Task | undefined} */ (event.task);
    if (!latest) {
      notice.replaceChildren(element('p', { text: t('live.taskGone') }));
      for (const control of details.querySelectorAll('input, select')) control.setAttribute('disabled', '');
      return;
    }
    if (!byOther(event)) return;
    if (!current.can.edit) {
      redraw(latest);
      notice.replaceChildren(element('p', { text: t('live.shownChanged') }));
      return;
    }
    const reload = element('button', { type: 'button', className: 'button button-small', text: t('live.reload') });
    reload.addEventListener('click', () => {
      redraw(latest);
      notice.replaceChildren();
      findElement('input, select, [tabindex]', HTMLElement, details)?.focus();
    });
    notice.replaceChildren(element('p', { text: t('live.taskChanged') }), reload);
  });
  return panel;
}
