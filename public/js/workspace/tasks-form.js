// The task form, for a new task and an edit: who it is for, its status, priority and due date,
// its project and campaign (those of its brand), and who sees it, where the user may decide that.
import { ApiError } from '../core/api.js';
import { element } from '../core/dom.js';
import { t } from '../core/i18n.js';
import { call, domain, me, options, vocabularyOptions } from './common.js';
import { formGuard } from './live.js';
import { brandField, editInModal, orNull } from './records.js';

/** A task as the API answers it, with what the user may do to it. @typedef {import('./task-panel.js').Task} Task */
/** @typedef {{ id: number, name: string, brandId: number }} Named */
/** @typedef {import('../../../src/workspace/domain').TaskPriority} TaskPriority */
/** @typedef {import('../../../src/workspace/domain').TaskVisibility} TaskVisibility */

/**
 * What the form offers, as the page has read it.
 * @typedef {object} TaskFormData
 * @property {Map<number, import('./common.js').Member>} people
 * @property {import('./common.js').Brand[]} brands
 * @property {Named[]} projects
 * @property {Named[]} campaigns
 * @property {{ id: number, brandId: number } | null} pageProject on a project's page, the project, fixed
 */

/** @type {TaskPriority} */
const DEFAULT_PRIORITY = 'medium';
/** @type {TaskVisibility} */
const DEFAULT_VISIBILITY = 'brand';

/** The records of `brandId` among `records`. @param {Named[]} records */
const inBrand = (records) => (/** @type {number} */ brandId) => records.filter((r) => r.brandId === brandId);

/**
 * The form's fields; the project and campaign choices are those of `brandId`, the brand the
 * task is (or will be) in.
 * @param {Task | null} task
 * @param {number} brandId
 * @param {TaskFormData} data
 * @returns {import('../core/modal.js').ModalField[]}
 */
function taskFields(task, brandId, { people, brands, projects, campaigns, pageProject }) {
  const projectsOf = inBrand(projects);
  const campaignsOf = inBrand(campaigns);
  return [
    { name: 'title', label: t('tasks.fieldTitle'), required: true, maxlength: 200, value: task?.title ?? '' },
    { name: 'description', label: t('common.description'), type: 'textarea', rows: 3, maxlength: 10000, value: task?.description ?? '' },
    {
      name: 'assigneeId',
      label: t('tasks.assignee'),
      type: 'select',
      options: options([...people.values()], (p) => (p.id === me.id ? t('tasks.you') : p.name), t('tasks.nobody')),
      value: String(task?.assigneeId ?? ''),
    },
    { name: 'status', label: t('common.status'), type: 'select', options: vocabularyOptions(domain.taskStatuses, 'tasks.status'), value: task?.status ?? domain.taskStatuses[0] },
    { name: 'priority', label: t('tasks.fieldPriority'), type: 'select', options: vocabularyOptions(domain.taskPriorities, 'tasks.priority'), value: task?.priority ?? DEFAULT_PRIORITY },
    { name: 'dueDate', label: t('tasks.dueDate'), type: 'date', value: task?.dueDate ?? '' },
    ...(task || pageProject ? [] : brandField(brands, { value: brandId })),
    {
      name: 'projectId',
      label: t('tasks.project'),
      type: 'select',
      options: options(projectsOf(brandId), (p) => p.name, t('tasks.noProject')),
      value: String(task ? (task.projectId ?? '') : (pageProject?.id ?? '')),
    },
    {
      name: 'campaignId',
      label: t('common.campaign'),
      type: 'select',
      options: options(campaignsOf(brandId), (c) => c.name, t('tasks.noCampaign')),
      value: String(task?.campaignId ?? ''),
    },
    // Who sees a task is for those who may change it to decide.
    ...(task && !task.can.changeVisibility
      ? []
      : [
          {
            name: 'visibility',
            label: t('tasks.visibility'),
            type: /** @type {const} */ ('select'),
            options: vocabularyOptions(domain.taskVisibilities, 'tasks.visibilities'),
            value: task?.visibility ?? DEFAULT_VISIBILITY,
          },
        ]),
  ];
}

/**
 * A select's options replaced, its choice kept when still offered.
 * @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | undefined} select
 * @param {import('./common.js').Option[]} choices
 */
function offer(select, choices) {
  if (!(select instanceof HTMLSelectElement)) return;
  const kept = select.value;
  select.replaceChildren(...choices.map((o) => element('option', { value: o.value, text: o.label })));
  select.value = choices.some((o) => o.value === kept) ? kept : '';
}

/**
 * A new task's brand changes its project and campaign choices to that brand's, so a task is
 * never placed in another brand's project (the server refuses that too: BRAND_MISMATCH).
 * @param {Map<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>} controls
 * @param {TaskFormData} data
 */
function followBrand(controls, { projects, campaigns }) {
  const projectsOf = inBrand(projects);
  const campaignsOf = inBrand(campaigns);
  const brand = controls.get('brandId');
  brand?.addEventListener('change', () => {
    const brandId = Number(brand.value);
    offer(controls.get('projectId'), options(projectsOf(brandId), (p) => p.name, t('tasks.noProject')));
    offer(controls.get('campaignId'), options(campaignsOf(brandId), (c) => c.name, t('tasks.noCampaign')));
  });
}

/** The brand a new task starts in: the project's on its page, else the user's first. @param {TaskFormData} data */
const firstBrand = ({ pageProject, brands }) => pageProject?.brandId ?? me.brandIds.at(0) ?? brands.at(0)?.id ?? 0;

/** @param {string | undefined} value */
const idOrNull = (value) => (value ? Number(value) : null);

/**
 * Asks for a new task, or for a change to `task`, and sends it; resolves with the task as the
 * server saved it, or null when the form was left. A colleague's change while the form is open
 * offers to reload it, and the form opens again on the task as it is now.
 * @param {Task | null} task
 * @param {TaskFormData} data
 * @returns {Promise<Task | null>}
 */
export async function editTask(task, data) {
  const brandId = task?.brandId ?? firstBrand(data);
  const guard = task ? formGuard('task', task.id) : null;
  const saved = await editInModal({
    notice: guard?.element,
    title: task ? t('tasks.editTitle') : t('tasks.newTitle'),
    confirmText: task ? t('common.save') : t('tasks.create'),
    fields: taskFields(task, brandId, data),
    onOpen: (controls) => followBrand(controls, data),
    check: (values) => ({ title: values.title.trim() ? '' : t('tasks.titleRequired') }),
    refusedField: (err) => (err instanceof ApiError && err.code === 'ASSIGNEE_NOT_MEMBER' ? { name: 'assigneeId', message: t('errors.ASSIGNEE_NOT_MEMBER') } : null),
    send: async (values) => {
      /** @type {Record<string, unknown>} */
      const body = {
        title: values.title.trim(),
        description: orNull(values.description),
        assigneeId: idOrNull(values.assigneeId),
        status: values.status,
        priority: values.priority,
        dueDate: values.dueDate || null,
        projectId: idOrNull(values.projectId),
        campaignId: idOrNull(values.campaignId),
        visibility: values.visibility,
      };
      if (task) return /** @type {{ task: Task }} */ (await call('PATCH', `/api/tasks/${task.id}`, body)).task;
      return /** @type {{ task: Task }} */ (await call('POST', '/api/tasks', { ...body, brandId: values.brandId ? Number(values.brandId) : brandId })).task;
    },
  });
  const latest = /** @type {Task | null} */ (guard?.finish() ?? null);
  if (saved) return saved;
  return latest ? editTask(latest, data) : null;
}
