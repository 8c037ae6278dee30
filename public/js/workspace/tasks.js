// Tasks: mine (assigned to me), the ones I assigned, or all I may see, as a list or as a board
// with one column per status. Filters, sort and view live in the address, so a reload or a
// shared link shows the same. A project's page (/workspace/projects/:id) is this page fixed to
// the project. Anyone creates a task and assigns it to any member of the brand; a private task
// is seen only by its creator, its assignee and superadmins. Colleagues' changes arrive as live
// events and are applied where the tasks stand, marked for a moment.
import { ApiError, newestOnly } from '../core/api.js';
import { dropTarget, element, findElement, requireElement } from '../core/dom.js';
import { formatDay } from '../core/format.js';
import { t, tIsolated } from '../core/i18n.js';
import { announce, avatar, byId, call, callAll, domain, errorMessage, linkedRecord, me, options, targetOf, vocabularyOptions } from './common.js';
import { actionButton, icon } from './icons.js';
import { menuButton } from './menu.js';
import { openModal } from '../core/modal.js';
import { brandField, deleteWithConfirmation, editInModal, orNull } from './records.js';
import { taskPanel } from './task-panel.js';
import { byOther, formGuard, highlights, keepingFocus, subscribe, tell } from './live.js';

/** A task as the API answers it, with what the user may do to it. @typedef {import('./task-panel.js').Task} Task */

/** @typedef {{ id: number, name: string, brandId: number }} Named */
/** @typedef {import('../../../src/workspace/domain').TaskStatus} TaskStatus */
/** @typedef {import('../../../src/workspace/domain').TaskPriority} TaskPriority */
/** @typedef {import('../../../src/workspace/domain').TaskVisibility} TaskVisibility */

/** @type {TaskPriority} */
const DEFAULT_PRIORITY = 'medium';
/** @type {TaskVisibility} */
const DEFAULT_VISIBILITY = 'brand';

const list = requireElement('[data-tasks]', HTMLElement);
const state = requireElement('[data-state]', HTMLElement);
const toolbar = requireElement('.tasks-toolbar', HTMLElement);
/** On a project's page, the project, fixed: its tasks only, and new ones go in it. */
const pageProject = toolbar.dataset.projectId ? { id: Number(toolbar.dataset.projectId), brandId: Number(toolbar.dataset.projectBrand) } : null;
const scopes = findElement('[data-scopes]', HTMLElement);
const scopeButtons = scopes ? [...scopes.querySelectorAll('[data-scope]')].filter((node) => node instanceof HTMLButtonElement) : [];
/** The tabs the page offers, the first being its default. */
const offered = scopeButtons.map((button) => button.dataset.scope ?? '');

const asked = new URL(window.location.href).searchParams.get('scope');
/** The task a search result opened (`?task=`), which may be in any tab: without a tab asked for, it shows under "All". */
const target = targetOf('task');
const ALL = 'all';
let scope = asked && offered.includes(asked) ? asked : target !== null && offered.includes(ALL) ? ALL : (offered[0] ?? ALL);

const viewSwitch = requireElement('[data-views]', HTMLElement);
const viewButtons = [...viewSwitch.querySelectorAll('[data-view]')].filter((node) => node instanceof HTMLButtonElement);
const BOARD = 'board';
/** `list` or `board`, from `?view=`; the list by default. */
let view = new URL(window.location.href).searchParams.get('view') === BOARD ? BOARD : 'list';
const board = requireElement('[data-task-board]', HTMLElement);
/** The columns the server rendered, one per status. */
const columns = new Map(domain.taskStatuses.map((status) => [status, requireElement(`[data-status="${status}"]`, HTMLElement, board)]));
/** The task whose card is being dragged. @type {Task | null} */
let dragging = null;
/** The tasks colleagues changed a moment ago, in the list and on the board. */
const changed = highlights(requireElement('#main', HTMLElement), 'data-task-id');

const filterForm = requireElement('[data-task-filters]', HTMLFormElement);
/** The filters and the sort, each a select named as its query parameter; the project one is not on a project's page. */
const filterSelects = /** @type {Map<string, HTMLSelectElement>} */ (
  new Map(
    ['assigneeId', 'priority', 'projectId', 'campaignId', 'due', 'sort'].flatMap((name) => {
      const select = findElement(`[name="${name}"]`, HTMLSelectElement, filterForm);
      return select ? [[name, select]] : [];
    }),
  )
);
const clearButton = requireElement('[data-clear-filters]', HTMLButtonElement, filterForm);
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
/** @param {number} brandId */
const projectsOf = (brandId) => projects.filter((p) => p.brandId === brandId);
/** @param {number} brandId */
const campaignsOf = (brandId) => campaigns.filter((c) => c.brandId === brandId);

const today = () => new Date().toISOString().slice(0, 10);

/**
 * @param {Task} task
 * @param {string} status
 */
async function changeStatus(task, status) {
  const id = `task-status-${task.id}`;
  try {
    const { task: saved } = /** @type {{ task: Task }} */ (await call('PATCH', `/api/tasks/${task.id}`, { status }));
    announce(tIsolated('tasks.statusChanged', { title: saved.title, status: t(`tasks.status.${saved.status}`) }));
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
    { id, className: 'task-status-select', disabled: !task.can.edit },
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
    actionButton({ text: t('comments.open'), label: t('comments.openNamed', { title: task.title }), icon: 'comment', onClick: () => openTask(task) }),
    task.can.edit ? actionButton({ text: t('common.edit'), label: t('tasks.editNamed', { title: task.title }), icon: 'edit', onClick: () => saveTask(task) }) : null,
    task.can.delete
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
          // Elsewhere than its project's page, the project is a way to it.
          project && !pageProject ? element('a', { href: `/workspace/projects/${project.id}`, text: t('tasks.inProject', { name: project.name }) }) : null,
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
 * a task made for someone else is not one of "my tasks"; on a project's page, one of another
 * project is not the project's.
 * @param {Task} task
 */
function belongsHere(task) {
  if (pageProject && task.projectId !== pageProject.id) return false;
  if (scope === 'assigned') return task.assigneeId === me.id;
  if (scope === 'created') return task.ownerId === me.id;
  return true;
}

function showScope() {
  for (const button of scopeButtons) button.setAttribute('aria-pressed', String(button.dataset.scope === scope));
}

function showView() {
  for (const button of viewButtons) button.setAttribute('aria-pressed', String(button.dataset.view === view));
  list.hidden = view === BOARD;
  board.hidden = view !== BOARD;
}

// ## The board

/** @param {TaskStatus} status */
const statusName = (status) => t(`tasks.status.${status}`);

/** @param {Task} task */
function dueNote(task) {
  if (!task.dueDate) return element('span', { className: 'task-due is-undated' }, [icon('calendar'), t('tasks.noDue')]);
  const overdue = task.status !== 'done' && task.dueDate < today();
  return element('time', { className: `task-due${overdue ? ' is-overdue' : ''}`, datetime: task.dueDate }, [
    icon('calendar'),
    t(overdue ? 'tasks.overdue' : 'tasks.due', { date: formatDay(task.dueDate) }),
  ]);
}

/** @param {Task} task */
function card(task) {
  const movable = task.can.edit;
  const assignee = task.assigneeId === null ? undefined : people.get(task.assigneeId);
  const open = element('button', { type: 'button', className: 'post-open task-open', text: task.title, 'aria-haspopup': 'dialog', dir: 'auto' });
  open.addEventListener('click', () => void openTask(task));
  const moves = movable ? domain.taskStatuses.filter((s) => s !== task.status) : [];
  const node = element('li', { className: `post-card task-card${task.status === 'done' ? ' task-done' : ''}`, 'data-task-id': task.id, draggable: movable ? 'true' : undefined }, [
    element('div', { className: 'post-body' }, [
      element('h3', { className: 'post-title' }, [open]),
      element('p', { className: 'task-card-meta' }, [
        element('span', { className: `badge priority-${task.priority === 'urgent' ? 'high' : task.priority}`, text: t(`tasks.priority.${task.priority}`) }),
        task.visibility === 'private' ? element('span', { className: 'badge badge-muted', text: t('tasks.private') }) : null,
      ]),
      dueNote(task),
      element('div', { className: 'post-foot' }, [
        avatar(assignee ?? null, 'small', assignee ? t('tasks.assigneeNamed', { name: assignee.name }) : t('tasks.unassigned')),
        element('span', { className: 'post-owner', 'aria-hidden': 'true', dir: 'auto', text: assignee ? assignee.name.split(/\s+/)[0] : '' }),
        element('div', { className: 'post-actions' }, [
          moves.length
            ? menuButton({
                content: icon('move'),
                ariaLabel: t('tasks.moveNamed', { title: task.title }),
                className: 'task-move',
                items: moves.map((s) => ({ label: t('tasks.moveTo', { status: statusName(s) }), onSelect: () => moveCard(task, s) })),
              })
            : null,
        ]),
      ]),
    ]),
  ]);
  if (movable) {
    node.addEventListener('dragstart', (event) => {
      if (!event.dataTransfer) return;
      event.dataTransfer.setData('text/plain', String(task.id));
      event.dataTransfer.effectAllowed = 'move';
      node.classList.add('is-dragging');
      dragging = task;
    });
    node.addEventListener('dragend', () => {
      node.classList.remove('is-dragging');
      dragging = null;
    });
  }
  return node;
}

function renderBoard() {
  for (const [status, column] of columns) {
    const inColumn = tasks.filter((task) => task.status === status);
    requireElement('[data-count]', HTMLElement, column).textContent = String(inColumn.length);
    requireElement('[data-cards]', HTMLElement, column).replaceChildren(
      ...(inColumn.length ? inColumn.map(card) : [element('li', { className: 'kanban-empty', text: t('tasks.emptyColumn') })]),
    );
  }
}

/**
 * A card moved to another column, by drag and drop or by its move menu.
 * @param {Task} task
 * @param {TaskStatus} status
 */
async function moveCard(task, status) {
  if (status === task.status) return;
  try {
    const { task: saved } = /** @type {{ task: Task }} */ (await call('PATCH', `/api/tasks/${task.id}`, { status }));
    announce(tIsolated('tasks.moved', { title: saved.title, status: statusName(saved.status) }));
    await afterChange(() => replace(saved), taskFocus(saved.id));
  } catch (err) {
    announce(errorMessage(err));
  }
}

for (const [status, column] of columns) {
  dropTarget(column, {
    accepts: () => dragging !== null && dragging.status !== status,
    onDrop: (id) => {
      const task = tasks.find((x) => String(x.id) === id);
      if (task) void moveCard(task, status);
    },
  });
}

/**
 * Where the focus goes after a change to a task: its status select in the list, its move
 * button (or title) on the board.
 * @param {number} id
 */
const taskFocus = (id) => (view === BOARD ? `[data-task-id="${id}"] .task-move, [data-task-id="${id}"] .task-open` : `[data-task-id="${id}"] select`);

// ## Filters and sort, kept in the address

const DEFAULT_SORT = 'due';

/** The default of each select: its first option, the sort's being by due date. */
function resetFilters() {
  for (const [name, select] of filterSelects) select.value = name === 'sort' ? DEFAULT_SORT : '';
}

const filtering = () => [...filterSelects].some(([name, select]) => select.value !== (name === 'sort' ? DEFAULT_SORT : ''));

/** Takes the filters from the address, once the selects have their options; a value they do not offer is dropped. */
function readFilters() {
  const params = new URL(window.location.href).searchParams;
  for (const [name, select] of filterSelects) {
    const wanted = params.get(name) ?? '';
    select.value = wanted;
    if (select.value !== wanted || wanted === '') select.value = name === 'sort' ? DEFAULT_SORT : '';
  }
}

/** Writes the tab, view, filters and sort into the address, so a reload or a shared link shows the same. */
function writeAddress() {
  const url = new URL(window.location.href);
  for (const [name, select] of filterSelects) {
    if (select.value && !(name === 'sort' && select.value === DEFAULT_SORT)) url.searchParams.set(name, select.value);
    else url.searchParams.delete(name);
  }
  if (view === BOARD) url.searchParams.set('view', BOARD);
  else url.searchParams.delete('view');
  window.history.replaceState(null, '', url);
}

function listQuery() {
  const query = new URLSearchParams({ scope });
  for (const [name, select] of filterSelects) if (select.value) query.set(name, select.value);
  if (pageProject) query.set('projectId', String(pageProject.id));
  return query.toString();
}

/**
 * @param {HTMLSelectElement} select
 * @param {import('./common.js').Option[]} choices
 */
function fillSelect(select, choices) {
  const first = select.options[0];
  const kept = select.value;
  select.replaceChildren(first, ...choices.map((o) => element('option', { value: o.value, text: o.label })));
  select.value = choices.some((o) => o.value === kept) ? kept : '';
}

/** A project or campaign named with its brand, where the user has several. @param {Named} record */
function withBrand(record) {
  const brand = brands.length > 1 ? brands.find((b) => b.id === record.brandId) : undefined;
  return brand ? t('tasks.brandOf', { name: record.name, brand: brand.name }) : record.name;
}

function fillFilters() {
  const assignee = filterSelects.get('assigneeId');
  if (assignee) fillSelect(assignee, options([...people.values()]));
  const project = filterSelects.get('projectId');
  if (project) fillSelect(project, options(projects, withBrand));
  const campaign = filterSelects.get('campaignId');
  if (campaign) fillSelect(campaign, options(pageProject ? campaignsOf(pageProject.brandId) : campaigns, withBrand));
}

filterForm.addEventListener('change', () => {
  writeAddress();
  void reload();
});
filterForm.addEventListener('submit', (event) => event.preventDefault());
clearButton.addEventListener('click', () => {
  resetFilters();
  writeAddress();
  // The button goes once nothing is filtered: the focus stays in the filters.
  filterSelects.values().next().value?.focus();
  void reload();
});

/**
 * Someone else chosen as the assignee under "My tasks", which holds only the user's own: no
 * task can match, and the page says why rather than showing an empty list.
 * @returns {import('./common.js').Member | null}
 */
function otherAssigneeInMine() {
  const chosen = filterSelects.get('assigneeId')?.value;
  if (scope !== 'assigned' || !chosen || Number(chosen) === me.id) return null;
  return people.get(Number(chosen)) ?? null;
}

/** Takes the chosen assignee to "All tasks", where their tasks are. */
const showAllButton = element('button', { type: 'button', className: 'button button-ghost', 'data-show-all': true, hidden: true });
state.after(showAllButton);
showAllButton.addEventListener('click', () => {
  if (!offered.includes(ALL)) return;
  chooseScope(ALL);
  showAllButton.hidden = true;
  findElement(`[data-scope="${ALL}"]`, HTMLButtonElement, scopes ?? document)?.focus();
});

/** The line under the filters: why the list is empty, when it is. */
function showState() {
  const other = tasks.length ? null : otherAssigneeInMine();
  showAllButton.hidden = other === null || !offered.includes(ALL);
  if (other) {
    state.replaceChildren(...tIsolated('tasks.otherAssigneeInMine', { name: other.name }));
    // One span: the button lays out its children as flex items, which would part the sentence.
    showAllButton.replaceChildren(element('span', {}, tIsolated('tasks.showAllOf', { name: other.name })));
    return;
  }
  state.textContent = tasks.length ? '' : filtering() ? t('tasks.noMatch') : pageProject ? t('tasks.projectEmpty') : t(`tasks.empty.${scope}`);
}

/** @param {string} [focusSelector] */
function render(focusSelector) {
  showView();
  if (view === BOARD) renderBoard();
  else list.replaceChildren(...tasks.map(taskItem));
  showState();
  clearButton.hidden = !filtering();
  showScope();
  changed.show();
  if (focusSelector) findElement(focusSelector, HTMLElement, view === BOARD ? board : list)?.focus();
}

/**
 * Reads the list for the chosen tab and filters. An answer for an earlier choice is dropped
 * (its request aborted), so it can never replace the list of the choice made since.
 * @param {string} [focusSelector]
 */
async function loadTasks(focusSelector) {
  list.setAttribute('aria-busy', 'true');
  board.setAttribute('aria-busy', 'true');
  const url = `/api/tasks?${listQuery()}`;
  try {
    tasks = /** @type {Task[]} */ (await listLoads.run((signal) => callAll(url, 'tasks', 500, { signal })));
    render(focusSelector);
  } catch (err) {
    state.textContent = errorMessage(err);
  }
  list.setAttribute('aria-busy', 'false');
  board.setAttribute('aria-busy', 'false');
}

/** A new choice of tab or filters: the old list goes at once, it is not the new choice's. */
function reload() {
  tasks = [];
  list.replaceChildren();
  for (const column of columns.values()) requireElement('[data-cards]', HTMLElement, column).replaceChildren();
  state.textContent = t('common.loading');
  showAllButton.hidden = true;
  clearButton.hidden = !filtering();
  return loadTasks();
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

scopes?.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-scope]') : null;
  if (!(button instanceof HTMLElement) || !button.dataset.scope || button.dataset.scope === scope) return;
  chooseScope(button.dataset.scope);
});

/** @param {string} chosen one of the tabs */
function chooseScope(chosen) {
  scope = chosen;
  const url = new URL(window.location.href);
  url.searchParams.set('scope', scope);
  // The task a search opened may not be in this tab: a reload should not look for it.
  url.searchParams.delete('task');
  window.history.replaceState(null, '', url);
  // The tab shows at once as chosen, and the other tab's tasks go: they are not this tab's.
  showScope();
  void reload();
}

viewSwitch.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('[data-view]') : null;
  if (!(button instanceof HTMLElement) || !button.dataset.view || button.dataset.view === view) return;
  view = button.dataset.view === BOARD ? BOARD : 'list';
  writeAddress();
  render();
});

/**
 * The form's fields; the project and campaign choices are those of `brandId`, the brand the
 * task is (or will be) in.
 * @param {Task | null} task
 * @param {number} brandId
 * @returns {import('../core/modal.js').ModalField[]}
 */
function taskFields(task, brandId) {
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
 */
function followBrand(controls) {
  const brand = controls.get('brandId');
  brand?.addEventListener('change', () => {
    const brandId = Number(brand.value);
    offer(controls.get('projectId'), options(projectsOf(brandId), (p) => p.name, t('tasks.noProject')));
    offer(controls.get('campaignId'), options(campaignsOf(brandId), (c) => c.name, t('tasks.noCampaign')));
  });
}

/** The brand a new task starts in: the project's on its page, else the user's first. */
const firstBrand = () => pageProject?.brandId ?? me.brandIds[0] ?? brands[0]?.id ?? 0;

/** @param {string | undefined} value */
const idOrNull = (value) => (value ? Number(value) : null);

/**
 * @param {Task | null} task
 * @returns {Promise<void>}
 */
async function saveTask(task) {
  const brandId = task?.brandId ?? firstBrand();
  const guard = task ? formGuard('task', task.id) : null;
  const saved = await editInModal({
    notice: guard?.element,
    title: task ? t('tasks.editTitle') : t('tasks.newTitle'),
    confirmText: task ? t('common.save') : t('tasks.create'),
    fields: taskFields(task, brandId),
    onOpen: followBrand,
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
      if (task) return /** @type {{ task: Task }} */ (await call('PATCH', `/api/tasks/${task.id}`, body)).task;
      return /** @type {{ task: Task }} */ (await call('POST', '/api/tasks', { ...body, brandId: values.brandId ? Number(values.brandId) : brandId })).task;
    },
  });
  const latest = /** @type {Task | null} */ (guard?.finish() ?? null);
  if (!saved) {
    if (latest) await saveTask(latest);
    return;
  }
  announce(tIsolated(task ? 'tasks.updated' : 'tasks.created', { title: saved.title }));
  await afterChange(() => {
    if (task) replace(saved);
    // Its live event may have brought it already.
    else if (belongsHere(saved)) tasks = [saved, ...tasks.filter((x) => x.id !== saved.id)];
  }, taskFocus(saved.id));
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
 * Who may be given a task: the members of its brand, and whoever has it now.
 * @param {Task} task
 */
const assignable = (task) => [...people.values()].filter((p) => p.brandIds.includes(task.brandId) || p.id === task.assigneeId);

/**
 * The task in the modal: its details, changed in place by whoever may, and its comments.
 * @param {Task} task
 */
async function openTask(task) {
  await openModal({
    title: task.title,
    content: taskPanel({
      task,
      people: assignable(task),
      projects: projectsOf(task.brandId),
      onSaved: (saved) => afterChange(() => replace(saved)),
    }),
    isConfirm: false,
    confirmText: t('common.close'),
  });
}

/**
 * The task a link names (`?task=ID`, from a search result or a notification): its item shown
 * and focused, and its comments opened.
 */
async function openLinkedTask() {
  const task = await linkedRecord({
    param: 'task',
    shown: tasks,
    root: view === BOARD ? board : list,
    attribute: 'data-task-id',
    fetch: async (id) => /** @type {{ task: Task }} */ (await call('GET', `/api/tasks/${id}`)).task,
    gone: t('taskPanel.notFound'),
  });
  if (task) await openTask(task);
}

async function start() {
  try {
    const [m, b, p, c] = /** @type {[{ members: import('./common.js').Member[] }, { brands: import('./common.js').Brand[] }, { projects: Named[] }, { campaigns: Named[] }]} */ (
      await Promise.all([call('GET', '/api/members'), call('GET', '/api/brands'), call('GET', '/api/projects'), call('GET', '/api/campaigns')])
    );
    // Only those who have joined take tasks: someone still invited may never accept.
    people = byId(m.members.filter((p) => !p.invitation));
    brands = b.brands;
    projects = p.projects;
    campaigns = c.campaigns;
  } catch (err) {
    state.textContent = errorMessage(err);
    list.setAttribute('aria-busy', 'false');
    board.setAttribute('aria-busy', 'false');
    return;
  }
  fillFilters();
  readFilters();
  showView();
  await loadTasks();
}

// ## Colleagues' changes

/** The filters this page can check a task against; the due-date one is the server's to apply. */
const CHECKED = /** @type {const} */ (['assigneeId', 'priority', 'projectId', 'campaignId']);

/**
 * Whether a task belongs under the filters chosen (those the API applies, compared as it
 * compares them); null when a filter is on that only the API can tell.
 * @param {Task} task
 */
function underFilters(task) {
  if (filterSelects.get('due')?.value) return null;
  return CHECKED.every((name) => {
    const chosen = filterSelects.get(name)?.value;
    return !chosen || String(task[name]) === chosen;
  });
}

/**
 * What is said of a colleague's change to a task.
 * @param {Task | undefined} before as the page had it
 * @param {Task | undefined} after as it is now
 */
function saidOf(before, after) {
  const title = (after ?? before)?.title ?? '';
  if (!after) return tIsolated('live.taskDeleted', { title });
  if (!before) return tIsolated('live.taskCreated', { title });
  if (after.status !== before.status) return tIsolated('live.taskMoved', { title, status: statusName(after.status) });
  return tIsolated('live.taskUpdated', { title });
}

subscribe('task', (event) => {
  const before = tasks.find((x) => x.id === event.id);
  const latest = /** @type {Task | undefined} */ (event.task);
  const fits = latest && belongsHere(latest) ? underFilters(latest) : false;
  if (fits === null) {
    // Whether it is under the due-date filter is the server's to say.
    if (byOther(event)) changed.mark(event.id);
    void loadTasks();
    return;
  }
  const after = fits ? latest : undefined;
  if (!before && !after) return;
  if (after && byOther(event)) changed.mark(after.id);
  const root = view === BOARD ? board : list;
  keepingFocus(
    root,
    'data-task-id',
    () =>
      void afterChange(() => {
        tasks = after ? (before ? tasks.map((x) => (x.id === after.id ? after : x)) : [after, ...tasks]) : tasks.filter((x) => x.id !== event.id);
      }),
    view === BOARD ? board : findElement('[data-new-task]', HTMLElement),
  );
  if (byOther(event)) tell(saidOf(before, after));
});
subscribe('reset', () => void loadTasks());

await start();
await openLinkedTask();
