// Projects: everyone reads their brands' projects with how many of their tasks are open; what
// the user may create comes with the page, what they may change with each project (`project.can`).
import { element, findElement, requireElement } from '../core/dom.js';
import { t, tIsolated, tn } from '../core/i18n.js';
import { announce, avatar, byId, call, callAll, can, dateRange, domain, errorMessage, revealTarget, targetOf, vocabularyOptions } from './common.js';
import { actionButton, icon } from './icons.js';
import { brandField, checkDays, chosenBrand, deleteWithConfirmation, editInModal, orNull } from './records.js';

/** A project as the API answers it. @typedef {import('../../../src/workspace/projects/service').ProjectView} Project */

/** @typedef {{ projectId: number | null, status: import('../../../src/workspace/domain').TaskStatus }} TaskSketch */

/** @type {import('../../../src/workspace/domain').TaskStatus} */
const DONE = 'done';

const list = requireElement('[data-projects]', HTMLElement);
const state = requireElement('[data-state]', HTMLElement);
/** @type {Project[]} */
let projects = [];
/** @type {import('./common.js').Brand[]} */
let brands = [];
/** @type {Map<number, import('./common.js').Member>} */
let people = new Map();
/** @type {Map<number, number>} */
let openTasks = new Map();

/** @param {Project} project */
function projectItem(project) {
  const owner = project.ownerId === null ? undefined : people.get(project.ownerId);
  const headingId = `project-${project.id}`;
  // The project's own page: its tasks as a list or a board (a link, so it opens in a new tab too).
  const tasksLink = element('a', { className: 'button button-small', href: `/workspace/projects/${project.id}`, 'aria-label': t('projects.viewTasksNamed', { name: project.name }) }, [
    icon('tasks'),
    t('projects.viewTasks'),
  ]);
  const actions = [
    tasksLink,
    project.can.edit ? actionButton({ text: t('common.edit'), label: t('projects.editNamed', { name: project.name }), icon: 'edit', onClick: () => saveProject(project) }) : null,
    project.can.delete
      ? actionButton({ text: t('common.delete'), label: t('projects.deleteNamed', { name: project.name }), icon: 'trash', danger: true, onClick: () => deleteProject(project) })
      : null,
  ];
  return element('li', { className: 'record', 'data-project-id': project.id, 'aria-labelledby': headingId }, [
    element('div', { className: 'record-head' }, [
      element('div', { className: 'record-title' }, [
        element('h2', { id: headingId, tabindex: '-1', text: project.name }),
        element('p', { className: 'record-meta' }, [
          element('span', { className: `badge campaign-status-${project.status}`, text: t(`projects.status.${project.status}`) }),
          element('span', { text: dateRange(project.startDate, project.endDate) }),
          element('span', { text: tn('projects.openTasks', openTasks.get(project.id) ?? 0) }),
        ]),
      ]),
      element('div', { className: 'record-actions' }, actions),
    ]),
    project.description ? element('p', { className: 'record-text', text: project.description }) : null,
    owner
      ? element('div', { className: 'person record-sub' }, [avatar(owner, 'small'), element('span', { className: 'person-sub', text: t('projects.owner', { name: owner.name }) })])
      : null,
  ]);
}

/** @param {string} [focusSelector] */
function render(focusSelector) {
  list.replaceChildren(...projects.map(projectItem));
  state.textContent = projects.length ? '' : can.createProject ? t('projects.empty') : t('projects.emptyReadOnly');
  if (focusSelector) findElement(focusSelector, HTMLElement, list)?.focus();
}

async function load() {
  try {
    const [p, b, m, tasks] = /** @type {[{ projects: Project[] }, { brands: import('./common.js').Brand[] }, { members: import('./common.js').Member[] }, TaskSketch[]]} */ (
      await Promise.all([call('GET', '/api/projects'), call('GET', '/api/brands'), call('GET', '/api/members'), callAll('/api/tasks?scope=all', 'tasks', 500)])
    );
    projects = p.projects;
    brands = b.brands;
    people = byId(m.members);
    openTasks = new Map();
    for (const task of tasks) if (task.projectId && task.status !== DONE) openTasks.set(task.projectId, (openTasks.get(task.projectId) ?? 0) + 1);
    render();
  } catch (err) {
    state.textContent = errorMessage(err);
  } finally {
    list.setAttribute('aria-busy', 'false');
  }
}

/** @param {Project | null} project */
async function saveProject(project) {
  const saved = await editInModal({
    title: project ? t('projects.editTitle') : t('projects.newTitle'),
    confirmText: project ? t('common.save') : t('projects.create'),
    fields: [
      { name: 'name', label: t('common.name'), required: true, maxlength: 200, value: project?.name ?? '' },
      ...(project ? [] : brandField(brands)),
      {
        name: 'status',
        label: t('common.status'),
        type: 'select',
        options: vocabularyOptions(domain.projectStatuses, 'projects.status'),
        value: project?.status ?? domain.projectStatuses[0],
      },
      { name: 'startDate', label: t('common.startDate'), type: 'date', value: project?.startDate ?? '' },
      { name: 'endDate', label: t('common.endDate'), type: 'date', value: project?.endDate ?? '' },
      { name: 'description', label: t('common.description'), type: 'textarea', rows: 3, maxlength: 10000, value: project?.description ?? '' },
    ],
    check: (values) => ({ name: values.name.trim() ? '' : t('projects.nameRequired'), ...checkDays(values) }),
    send: async (values) => {
      const body = {
        name: values.name.trim(),
        status: values.status,
        startDate: values.startDate || null,
        endDate: values.endDate || null,
        description: orNull(values.description),
      };
      if (project) return /** @type {{ project: Project }} */ (await call('PATCH', `/api/projects/${project.id}`, body)).project;
      return /** @type {{ project: Project }} */ (await call('POST', '/api/projects', { ...body, brandId: chosenBrand(values, brands) })).project;
    },
  });
  if (!saved) return;
  projects = project ? projects.map((p) => (p.id === saved.id ? saved : p)) : [saved, ...projects];
  render(`[data-project-id="${saved.id}"] h2`);
  announce(tIsolated(project ? 'projects.updated' : 'projects.created', { name: saved.name }));
}

/** @param {Project} project */
async function deleteProject(project) {
  const deleted = await deleteWithConfirmation(
    'projects',
    { name: project.name },
    `/api/projects/${project.id}`,
    () => findElement('[data-new-project]', HTMLElement) ?? document.getElementById('main'),
  );
  if (!deleted) return;
  projects = projects.filter((p) => p.id !== project.id);
  render();
}

findElement('[data-new-project]', HTMLButtonElement)?.addEventListener('click', () => void saveProject(null));

await load();
// `?project=` comes from a search result.
revealTarget(list, 'data-project-id', targetOf('project'));
