// Tasks: mine (assigned to me), the ones I assigned, or all I may see. Anyone creates a task
// and assigns it to any member of the brand; a private task is seen only by its creator, its
// assignee and superadmins.
import { ApiError, newestOnly } from '../core/api.js';
import { element, findElement, requireElement } from '../core/dom.js';
import { formatDay } from '../core/format.js';
import { t } from '../core/i18n.js';
import { announce, avatar, byId, call, callAll, domain, errorMessage, isManager, me, options, revealTarget, targetOf, vocabularyOptions } from './common.js';
import { commentThread } from './conversation.js';
import { actionButton } from './icons.js';
import { openModal } from '../core/modal.js';
import { brandField, chosenBrand, deleteWithConfirmation, editInModal, orNull } from './records.js';

/**
 * A task as the API answers it.
 * @typedef {object} Task
 * @property {number} id
 * @property {number} brandId
 * @property {string} title
 * @property {string | null} description
 * @property {import('../../../src/workspace/domain').TaskStatus} status
 * @property {import('../../../src/workspace/domain').TaskPriority} priority
 * @property {string | null} dueDate
 * @property {import('../../../src/workspace/domain').TaskVisibility} visibility
 * @property {number | null} assigneeId
 * @property {number | null} projectId
 * @property {number | null} campaignId
 * @property {number | null} ownerId
 */

/** @typedef {{ id: number, name: string }} Named */
/** @typedef {import('../../../src/workspace/domain').TaskPriority} TaskPriority */
/** @typedef {import('../../../src/workspace/domain').TaskVisibility} TaskVisibility */

/** @type {TaskPriority} */
const DEFAULT_PRIORITY = 'medium';
/** @type {TaskVisibility} */
const DEFAULT_VISIBILITY = 'brand';

const list = requireElement('[data-tasks]', HTMLElement);
const state = requireElement('[data-state]', HTMLElement);
const scopes = requireElement('[data-scopes]', HTMLElement);
const scopeButtons = [...scopes.querySelectorAll('[data-scope]')].filter((node) => node instanceof HTMLButtonElement);
/** The tabs the page offers, the first being its default. */
const offered = scopeButtons.map((button) => button.dataset.scope ?? '');

const asked = new URL(window.location.href).searchParams.get('scope');
/** The task a search result opened (`?task=`), which may be in any tab: without a tab asked for, it shows under "All". */
const target = targetOf('task');
const ALL = 'all';
let scope = asked && offered.includes(asked) ? asked : target !== null && offered.includes(ALL) ? ALL : offered[0];
/** @type {Task[]} */
let tasks = [];
/** The list of the chosen tab; a tab chosen while another's list is on its way wins. */
const listLoads = newestOnly();
/** @type {Map<number, import('./common.js').Member>} */
let people = new Map();
/** @type {import('./common.js').Brand[]} */
let brands = [];
/** @type {Named[]} */
let projects = [];
/** @type {Named[]} */
let campaigns = [];

const today = () => new Date().toISOString().slice(0, 10);
/** @param {Task} task */
const runsTask = (task) => isManager() || task.ownerId === me.id;
/** @param {Task} task */
const mayChange = (task) => runsTask(task) || task.assigneeId === me.id;

/**
 * @param {Task} task
 * @param {string} status
 */
async function changeStatus(task, status) {
  const id = `task-status-${task.id}`;
  try {
    const { task: saved } = /** @type {{ task: Task }} */ (await call('PATCH', `/api/tasks/${task.id}`, { status }));
    announce(t('tasks.statusChanged', { title: saved.title, status: t(`tasks.status.${saved.status}`) }));
    await afterChange(() => replace(saved), `#${id}`);
  } catch (err) {
    requireElement(`#${id}`, HTMLSelectElement).value = task.status;
    announce(errorMessage(err));
  }
}

/** @param {Task} task */
function statusControl(task) {
  const id = `task-status-${task.id}`;
  const select = element(
    'select',
    { id, className: 'task-status-select', disabled: !mayChange(task) },
    domain.taskStatuses.map((s) => element('option', { value: s, text: t(`tasks.status.${s}`), selected: s === task.status })),
  );
  select.addEventListener('change', () => void changeStatus(task, select.value));
  return element('div', { className: 'task-status' }, [element('label', { for: id, className: 'sr-only', text: t('tasks.statusOf', { title: task.title }) }), select]);
}

/** @param {Task} task */
function taskItem(task) {
  const assignee = task.assigneeId === null ? undefined : people.get(task.assigneeId);
  const project = projects.find((p) => p.id === task.projectId);
  const campaign = campaigns.find((c) => c.id === task.campaignId);
  const overdue = task.dueDate !== null && task.status !== 'done' && task.dueDate < today();
  const actions = [
    actionButton({ text: t('comments.open'), label: t('comments.openNamed', { title: task.title }), icon: 'comment', onClick: () => openComments(task) }),
    mayChange(task) ? actionButton({ text: t('common.edit'), label: t('tasks.editNamed', { title: task.title }), icon: 'edit', onClick: () => saveTask(task) }) : null,
    runsTask(task)
      ? actionButton({ text: t('common.delete'), label: t('tasks.deleteNamed', { title: task.title }), icon: 'trash', danger: true, onClick: () => deleteTask(task) })
      : null,
  ];
  return element('li', { className: `record${task.status === 'done' ? ' task-done' : ''}`, 'data-task-id': task.id }, [
    element('div', { className: 'record-head' }, [
      element('div', { className: 'record-title' }, [
        element('h3', { text: task.title }),
        element('p', { className: 'record-meta' }, [
          element('span', { className: `badge priority-${task.priority === 'urgent' ? 'high' : task.priority}`, text: t(`tasks.priority.${task.priority}`) }),
          task.visibility === 'private' ? element('span', { className: 'badge badge-muted', text: t('tasks.private') }) : null,
          task.dueDate
            ? element('span', { className: overdue ? 'is-overdue' : '' }, [t(overdue ? 'tasks.overdue' : 'tasks.due', { date: formatDay(task.dueDate) })])
            : null,
          project ? element('span', { text: t('tasks.inProject', { name: project.name }) }) : null,
          campaign ? element('span', { text: t('tasks.inCampaign', { name: campaign.name }) }) : null,
        ]),
      ]),
      statusControl(task),
    ]),
    task.description ? element('p', { className: 'record-text', text: task.description }) : null,
    element('div', { className: 'record-foot record-sub' }, [
      element('div', { className: 'person' }, [
        avatar(assignee ?? null, 'small'),
        element('span', { className: 'person-sub', text: assignee ? (assignee.id === me.id ? t('tasks.assignedToYou') : t('tasks.assignedTo', { name: assignee.name })) : t('tasks.unassigned') }),
      ]),
      element('div', { className: 'record-actions' }, actions),
    ]),
  ]);
}

/** @param {Task} saved */
function replace(saved) {
  tasks = belongsHere(saved) ? tasks.map((task) => (task.id === saved.id ? saved : task)) : tasks.filter((task) => task.id !== saved.id);
}

/**
 * Whether a task belongs in the list of the tab on show, by the server's rule for that scope:
 * a task made for someone else is not one of "my tasks".
 * @param {Task} task
 */
function belongsHere(task) {
  if (scope === 'assigned') return task.assigneeId === me.id;
  if (scope === 'created') return task.ownerId === me.id;
  return true;
}

function showScope() {
  for (const button of scopeButtons) button.setAttribute('aria-pressed', String(button.dataset.scope === scope));
}

/** @param {string} [focusSelector] */
function render(focusSelector) {
  list.replaceChildren(...tasks.map(taskItem));
  state.textContent = tasks.length ? '' : t(`tasks.empty.${scope}`);
  showScope();
  if (focusSelector) findElement(focusSelector, HTMLElement, list)?.focus();
}

/**
 * Reads the chosen tab's list. An answer for a tab chosen before is dropped (its request
 * aborted), so it can never replace the list of the tab chosen since.
 * @param {string} [focusSelector]
 */
async function loadTasks(focusSelector) {
  list.setAttribute('aria-busy', 'true');
  const url = `/api/tasks?scope=${scope}`;
  try {
    tasks = /** @type {Task[]} */ (await listLoads.run((signal) => callAll(url, 'tasks', 500, { signal })));
    render(focusSelector);
  } catch (err) {
    state.textContent = errorMessage(err);
  }
  list.setAttribute('aria-busy', 'false');
}

/**
 * Shows a change this page made: in the list as it is, or, while the list is being read (its
 * answer may come from before the change), by reading it again.
 * @param {() => void} change
 * @param {string} [focusSelector]
 */
async function afterChange(change, focusSelector) {
  if (listLoads.pending) return loadTasks(focusSelector);
  change();
  render(focusSelector);
}

scopes.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-scope]') : null;
  if (!(button instanceof HTMLElement) || !button.dataset.scope || button.dataset.scope === scope) return;
  scope = button.dataset.scope;
  const url = new URL(window.location.href);
  url.searchParams.set('scope', scope);
  // The task a search opened may not be in this tab: a reload should not look for it.
  url.searchParams.delete('task');
  window.history.replaceState(null, '', url);
  // The tab shows at once as chosen, and the other tab's tasks go: they are not this tab's.
  showScope();
  tasks = [];
  list.replaceChildren();
  state.textContent = t('common.loading');
  void loadTasks();
});

/**
 * @param {Task | null} task
 * @returns {import('../core/modal.js').ModalField[]}
 */
function taskFields(task) {
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
    ...(task ? [] : brandField(brands)),
    { name: 'projectId', label: t('tasks.project'), type: 'select', options: options(projects, (p) => p.name, t('tasks.noProject')), value: String(task?.projectId ?? '') },
    { name: 'campaignId', label: t('common.campaign'), type: 'select', options: options(campaigns, (c) => c.name, t('tasks.noCampaign')), value: String(task?.campaignId ?? '') },
    {
      name: 'visibility',
      label: t('tasks.visibility'),
      type: 'select',
      options: vocabularyOptions(domain.taskVisibilities, 'tasks.visibilities'),
      value: task?.visibility ?? DEFAULT_VISIBILITY,
    },
  ];
}

/** @param {string | undefined} value */
const idOrNull = (value) => (value ? Number(value) : null);

/** @param {Task | null} task */
async function saveTask(task) {
  const saved = await editInModal({
    title: task ? t('tasks.editTitle') : t('tasks.newTitle'),
    confirmText: task ? t('common.save') : t('tasks.create'),
    fields: taskFields(task),
    check: (values) => ({ title: values.title?.trim() ? '' : t('tasks.titleRequired') }),
    refusedField: (err) => (err instanceof ApiError && err.code === 'ASSIGNEE_NOT_MEMBER' ? { name: 'assigneeId', message: t('errors.ASSIGNEE_NOT_MEMBER') } : null),
    send: async (values) => {
      /** @type {Record<string, unknown>} */
      const body = {
        title: (values.title ?? '').trim(),
        description: orNull(values.description),
        assigneeId: idOrNull(values.assigneeId),
        status: values.status,
        priority: values.priority,
        dueDate: values.dueDate || null,
        projectId: idOrNull(values.projectId),
        campaignId: idOrNull(values.campaignId),
        visibility: values.visibility,
      };
      // Only whoever runs a task may change who sees it; an assignee's edit leaves that alone.
      if (task && !runsTask(task)) delete body.visibility;
      if (task) return /** @type {{ task: Task }} */ (await call('PATCH', `/api/tasks/${task.id}`, body)).task;
      const placedElsewhere = body.projectId || body.campaignId;
      return /** @type {{ task: Task }} */ (await call('POST', '/api/tasks', placedElsewhere ? body : { ...body, brandId: chosenBrand(values, brands) })).task;
    },
  });
  if (!saved) return;
  announce(t(task ? 'tasks.updated' : 'tasks.created', { title: saved.title }));
  await afterChange(() => {
    if (task) replace(saved);
    else if (belongsHere(saved)) tasks = [saved, ...tasks];
  }, `[data-task-id="${saved.id}"] select`);
}

/** @param {Task} task */
async function deleteTask(task) {
  const deleted = await deleteWithConfirmation('tasks', { title: task.title }, `/api/tasks/${task.id}`, () => document.querySelector('[data-new-task]'));
  if (!deleted) return;
  await afterChange(() => {
    tasks = tasks.filter((x) => x.id !== task.id);
  });
}

requireElement('[data-new-task]', HTMLButtonElement).addEventListener('click', () => void saveTask(null));

/**
 * The task with its comment thread.
 * @param {Task} task
 */
async function openComments(task) {
  await openModal({
    title: task.title,
    content: element('div', { className: 'task-panel' }, [
      task.description ? element('p', { className: 'record-text', dir: 'auto', text: task.description }) : null,
      commentThread(`/api/tasks/${task.id}/comments`),
    ]),
    isConfirm: false,
    confirmText: t('common.close'),
  });
}

/**
 * The task a link names (`?task=ID`, from a search result or a notification): its item shown
 * and focused, and its comments opened.
 */
async function openLinkedTask() {
  if (target === null) return;
  const url = new URL(window.location.href);
  url.searchParams.delete('task');
  window.history.replaceState(null, '', url);
  let task = tasks.find((x) => x.id === target);
  if (task) revealTarget(list, 'data-task-id', target);
  else {
    try {
      task = /** @type {{ task: Task }} */ (await call('GET', `/api/tasks/${target}`)).task;
    } catch {
      announce(t('taskPanel.notFound'));
      return;
    }
  }
  await openComments(task);
}

async function start() {
  try {
    const [m, b, p, c] = /** @type {[{ members: import('./common.js').Member[] }, { brands: import('./common.js').Brand[] }, { projects: Named[] }, { campaigns: Named[] }]} */ (
      await Promise.all([call('GET', '/api/members'), call('GET', '/api/brands'), call('GET', '/api/projects'), call('GET', '/api/campaigns')])
    );
    people = byId(m.members);
    brands = b.brands;
    projects = p.projects;
    campaigns = c.campaigns;
  } catch (err) {
    state.textContent = errorMessage(err);
    list.setAttribute('aria-busy', 'false');
    return;
  }
  await loadTasks();
}

await start();
await openLinkedTask();
