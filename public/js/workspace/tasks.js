// Tasks: mine (assigned to me), the ones I assigned, or all I may see. Anyone creates a task
// and assigns it to any member of the brand; a private task is seen only by its creator, its
// assignee and superadmins.
import { announce, avatar, byId, call, callAll, element, errorMessage, formatDay, isManager, me, options, t } from './common.js';
import { actionButton } from './icons.js';
import { brandField, chosenBrand, deleteWithConfirmation, editInModal, orNull } from './records.js';

const STATUSES = ['todo', 'doing', 'done'];
const PRIORITIES = ['low', 'medium', 'high', 'urgent'];

const list = document.querySelector('[data-tasks]');
const state = document.querySelector('[data-state]');
const scopes = document.querySelector('[data-scopes]');

let scope = new URL(window.location.href).searchParams.get('scope') ?? 'assigned';
let tasks = [];
let people = new Map();
let brands = [];
let projects = [];
let campaigns = [];

const today = () => new Date().toISOString().slice(0, 10);
const runsTask = (task) => isManager() || task.ownerId === me.id;
const mayChange = (task) => runsTask(task) || task.assigneeId === me.id;

function statusControl(task) {
  const id = `task-status-${task.id}`;
  const select = element(
    'select',
    { id, className: 'task-status-select', disabled: !mayChange(task) },
    STATUSES.map((s) => element('option', { value: s, text: t(`tasks.status.${s}`), selected: s === task.status })),
  );
  select.addEventListener('change', async () => {
    try {
      const { task: saved } = await call('PATCH', `/api/tasks/${task.id}`, { status: select.value });
      replace(saved);
      render(`#${id}`);
      announce(t('tasks.statusChanged', { title: saved.title, status: t(`tasks.status.${saved.status}`) }));
    } catch (err) {
      select.value = task.status;
      announce(errorMessage(err));
    }
  });
  return element('div', { className: 'task-status' }, [element('label', { for: id, className: 'sr-only', text: t('tasks.statusOf', { title: task.title }) }), select]);
}

function taskItem(task) {
  const assignee = people.get(task.assigneeId);
  const project = projects.find((p) => p.id === task.projectId);
  const campaign = campaigns.find((c) => c.id === task.campaignId);
  const overdue = task.dueDate && task.status !== 'done' && task.dueDate < today();
  const actions = [
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
        element('span', { className: 'person-sub', text: assignee ? t('tasks.assignedTo', { name: assignee.id === me.id ? t('tasks.you') : assignee.name }) : t('tasks.unassigned') }),
      ]),
      element('div', { className: 'record-actions' }, actions),
    ]),
  ]);
}

function replace(saved) {
  tasks = tasks.map((task) => (task.id === saved.id ? saved : task));
}

function render(focusSelector) {
  list.replaceChildren(...tasks.map(taskItem));
  state.textContent = tasks.length ? '' : t(`tasks.empty.${scope}`);
  for (const button of scopes.querySelectorAll('[data-scope]')) button.setAttribute('aria-pressed', String(button.dataset.scope === scope));
  if (focusSelector) list.querySelector(focusSelector)?.focus();
}

async function loadTasks() {
  list.setAttribute('aria-busy', 'true');
  try {
    tasks = await callAll(`/api/tasks?scope=${scope}`, 'tasks', 500);
    render();
  } catch (err) {
    state.textContent = errorMessage(err);
  } finally {
    list.setAttribute('aria-busy', 'false');
  }
}

scopes.addEventListener('click', async (event) => {
  const button = event.target.closest('[data-scope]');
  if (!button || button.dataset.scope === scope) return;
  scope = button.dataset.scope;
  const url = new URL(window.location.href);
  url.searchParams.set('scope', scope);
  window.history.replaceState(null, '', url);
  await loadTasks();
});

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
    { name: 'status', label: t('common.status'), type: 'select', options: STATUSES.map((s) => ({ value: s, label: t(`tasks.status.${s}`) })), value: task?.status ?? 'todo' },
    { name: 'priority', label: t('tasks.fieldPriority'), type: 'select', options: PRIORITIES.map((p) => ({ value: p, label: t(`tasks.priority.${p}`) })), value: task?.priority ?? 'medium' },
    { name: 'dueDate', label: t('tasks.dueDate'), type: 'date', value: task?.dueDate ?? '' },
    ...(task ? [] : brandField(brands)),
    { name: 'projectId', label: t('tasks.project'), type: 'select', options: options(projects, (p) => p.name, t('tasks.noProject')), value: String(task?.projectId ?? '') },
    { name: 'campaignId', label: t('common.campaign'), type: 'select', options: options(campaigns, (c) => c.name, t('tasks.noCampaign')), value: String(task?.campaignId ?? '') },
    {
      name: 'visibility',
      label: t('tasks.visibility'),
      type: 'select',
      options: [
        { value: 'brand', label: t('tasks.visibilityBrand') },
        { value: 'private', label: t('tasks.visibilityPrivate') },
      ],
      value: task?.visibility ?? 'brand',
    },
  ];
}

const idOrNull = (value) => (value ? Number(value) : null);

async function saveTask(task) {
  const saved = await editInModal({
    title: task ? t('tasks.editTitle') : t('tasks.newTitle'),
    confirmText: task ? t('common.save') : t('tasks.create'),
    fields: taskFields(task),
    check: (values) => ({ title: values.title.trim() ? '' : t('tasks.titleRequired') }),
    refusedField: (err) => (err.code === 'ASSIGNEE_NOT_MEMBER' ? { name: 'assigneeId', message: t('errors.ASSIGNEE_NOT_MEMBER') } : null),
    send: async (values) => {
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
      // Only whoever runs a task may change who sees it; an assignee's edit leaves that alone.
      if (task && !runsTask(task)) delete body.visibility;
      if (task) return (await call('PATCH', `/api/tasks/${task.id}`, body)).task;
      const placedElsewhere = body.projectId || body.campaignId;
      return (await call('POST', '/api/tasks', placedElsewhere ? body : { ...body, brandId: chosenBrand(values, brands) })).task;
    },
  });
  if (!saved) return;
  if (task) replace(saved);
  else tasks = [saved, ...tasks];
  render(`[data-task-id="${saved.id}"] select`);
  announce(t(task ? 'tasks.updated' : 'tasks.created', { title: saved.title }));
}

async function deleteTask(task) {
  const deleted = await deleteWithConfirmation(
    'tasks',
    { title: task.title },
    `/api/tasks/${task.id}`,
    () => document.querySelector('[data-new-task]'),
  );
  if (!deleted) return;
  tasks = tasks.filter((x) => x.id !== task.id);
  render();
}

document.querySelector('[data-new-task]').addEventListener('click', () => saveTask(null));

async function start() {
  try {
    const [m, b, p, c] = await Promise.all([call('GET', '/api/members'), call('GET', '/api/brands'), call('GET', '/api/projects'), call('GET', '/api/campaigns')]);
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
