// How a task is drawn: as an item of the list, with its status to change in place, and as a
// card of the board, which moves by drag and drop or by its move menu. What happens on a
// click is the page's (`CardContext`).
import { element } from '../core/dom.js';
import { formatDay } from '../core/format.js';
import { t } from '../core/i18n.js';
import { avatar, domain, me } from './common.js';
import { actionButton, icon } from './icons.js';
import { menuButton } from './menu.js';

/** A task as the API answers it, with what the user may do to it. @typedef {import('./task-panel.js').Task} Task */
/** @typedef {import('../../../src/workspace/domain').TaskStatus} TaskStatus */

/**
 * What the drawing needs of the page: the records a task names, and what its buttons do.
 * @typedef {object} CardContext
 * @property {Map<number, import('./common.js').Member>} people
 * @property {{ id: number, name: string }[]} projects
 * @property {{ id: number, name: string }[]} campaigns
 * @property {{ id: number } | null} pageProject on a project's page, the project: its tasks do not link to it
 * @property {(task: Task) => void} open
 * @property {(task: Task) => void} edit
 * @property {(task: Task) => void} remove
 * @property {(task: Task, status: string) => void} changeStatus
 * @property {(task: Task, status: TaskStatus) => void} move
 * @property {(task: Task | null) => void} drag the card picked up, or none once it is put down
 */

const today = () => new Date().toISOString().slice(0, 10);

/** @param {Task} task @param {CardContext} ctx */
function statusControl(task, ctx) {
  const id = `task-status-${task.id}`;
  const select = element(
    'select',
    { id, className: 'task-status-select', disabled: !task.can.edit },
    domain.taskStatuses.map((s) => element('option', { value: s, text: t(`tasks.status.${s}`), selected: s === task.status })),
  );
  select.addEventListener('change', () => ctx.changeStatus(task, select.value));
  return element('div', { className: 'task-status' }, [element('label', { for: id, className: 'sr-only', text: t('tasks.statusOf', { title: task.title }) }), select]);
}

/**
 * A task in the list.
 * @param {Task} task
 * @param {CardContext} ctx
 */
export function taskItem(task, ctx) {
  const assignee = task.assigneeId === null ? undefined : ctx.people.get(task.assigneeId);
  const project = ctx.projects.find((p) => p.id === task.projectId);
  const campaign = ctx.campaigns.find((c) => c.id === task.campaignId);
  const overdue = task.dueDate !== null && task.status !== 'done' && task.dueDate < today();
  const actions = [
    actionButton({ text: t('comments.open'), label: t('comments.openNamed', { title: task.title }), icon: 'comment', onClick: () => ctx.open(task) }),
    task.can.edit ? actionButton({ text: t('common.edit'), label: t('tasks.editNamed', { title: task.title }), icon: 'edit', onClick: () => ctx.edit(task) }) : null,
    task.can.delete
      ? actionButton({ text: t('common.delete'), label: t('tasks.deleteNamed', { title: task.title }), icon: 'trash', danger: true, onClick: () => ctx.remove(task) })
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
          project && !ctx.pageProject ? element('a', { href: `/workspace/projects/${project.id}`, text: t('tasks.inProject', { name: project.name }) }) : null,
          campaign ? element('span', { text: t('tasks.inCampaign', { name: campaign.name }) }) : null,
        ]),
      ]),
      statusControl(task, ctx),
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


/** @param {TaskStatus} status */
export const statusName = (status) => t(`tasks.status.${status}`);

/** @param {Task} task */
function dueNote(task) {
  if (!task.dueDate) return element('span', { className: 'task-due is-undated' }, [icon('calendar'), t('tasks.noDue')]);
  const overdue = task.status !== 'done' && task.dueDate < today();
  return element('time', { className: `task-due${overdue ? ' is-overdue' : ''}`, datetime: task.dueDate }, [
    icon('calendar'),
    t(overdue ? 'tasks.overdue' : 'tasks.due', { date: formatDay(task.dueDate) }),
  ]);
}

/**
 * A task on the board.
 * @param {Task} task
 * @param {CardContext} ctx
 */
export function card(task, ctx) {
  const movable = task.can.edit;
  const assignee = task.assigneeId === null ? undefined : ctx.people.get(task.assigneeId);
  const open = element('button', { type: 'button', className: 'post-open task-open', text: task.title, 'aria-haspopup': 'dialog', dir: 'auto' });
  open.addEventListener('click', () => ctx.open(task));
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
                items: () => moves.map((s) => ({ label: t('tasks.moveTo', { status: statusName(s) }), onSelect: () => ctx.move(task, s) })),
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
      ctx.drag(task);
    });
    node.addEventListener('dragend', () => {
      node.classList.remove('is-dragging');
      ctx.drag(null);
    });
  }
  return node;
}
