// The onboarding tour: a few steps that point at the sidebar, the board, uploads and tasks.
// It is a non-modal panel beside the highlighted part of the page; finishing or skipping it
// is stored on the server (POST /api/auth/onboarding), and Settings can start it again.
import { element } from '../core/dom.js';
import { t } from '../core/i18n.js';
import { isRtl } from '../core/page.js';
import { announce, call } from './common.js';

const STEPS = [
  { key: 'sidebar', targets: ['.ws-sidebar'] },
  { key: 'board', targets: ['[data-tour="board"]', '[data-nav="board"]'] },
  { key: 'upload', targets: ['[data-tour="upload"]', '[data-nav="assets"]'] },
  { key: 'tasks', targets: ['[data-tour="tasks"]', '[data-nav="tasks"]'] },
];

const NARROW = window.matchMedia('(max-width: 900px)');

/**
 * @param {Element | null} node
 * @returns {node is HTMLElement}
 */
function visible(node) {
  return node instanceof HTMLElement && node.getClientRects().length > 0;
}

/**
 * Starts the tour; on a narrow screen it opens the sidebar's menu to point into it.
 * @param {{ openMenu: () => void, closeMenu: () => void }} menu
 */
export function startTour({ openMenu, closeMenu }) {
  let index = 0;
  /** @type {HTMLElement | null} */
  let target = null;
  const titleId = 'tour-title';
  const textId = 'tour-text';
  const count = element('p', { className: 'tour-count' });
  const title = element('h2', { id: titleId, className: 'tour-title', tabindex: '-1' });
  const text = element('p', { id: textId, className: 'tour-text' });
  const back = element('button', { type: 'button', className: 'button button-small', text: t('tour.back') });
  const next = element('button', { type: 'button', className: 'button button-small button-primary' });
  const skip = element('button', { type: 'button', className: 'button button-small button-ghost tour-skip', text: t('tour.skip') });
  const dots = element('div', { className: 'tour-dots', 'aria-hidden': 'true' }, STEPS.map(() => element('span')));
  const panel = element('div', { className: 'tour', role: 'dialog', 'aria-labelledby': titleId, 'aria-describedby': textId }, [
    element('div', { className: 'tour-head' }, [count, skip]),
    title,
    text,
    element('div', { className: 'tour-foot' }, [dots, element('div', { className: 'tour-actions' }, [back, next])]),
  ]);

  /**
   * On a narrow screen the open menu covers the page, so a step points at the menu's own
   * entry: a part of the page behind it, raised above everything to be highlighted, would
   * be drawn over the menu.
   * @param {(typeof STEPS)[number]} step
   */
  function findTarget(step) {
    const inMenu = NARROW.matches;
    if (inMenu) openMenu();
    const menu = document.querySelector('.ws-sidebar');
    for (const selector of step.targets) {
      const node = inMenu ? (menu?.matches(selector) ? menu : (menu?.querySelector(selector) ?? null)) : document.querySelector(selector);
      if (visible(node)) return node;
    }
    return null;
  }

  function place() {
    panel.classList.remove('tour-floating');
    if (!target || NARROW.matches) {
      panel.classList.add('tour-docked');
      return;
    }
    panel.classList.remove('tour-docked');
    const rect = target.getBoundingClientRect();
    const width = panel.offsetWidth;
    const height = panel.offsetHeight;
    const gap = 16;
    const roomAfter = isRtl ? rect.left - gap : window.innerWidth - rect.right - gap;
    let left;
    let top;
    if (roomAfter >= width + gap) {
      left = isRtl ? rect.left - gap - width : rect.right + gap;
      top = Math.min(Math.max(rect.top, gap), window.innerHeight - height - gap);
    } else {
      left = Math.min(Math.max(isRtl ? rect.right - width : rect.left, gap), window.innerWidth - width - gap);
      top = rect.bottom + gap + height < window.innerHeight ? rect.bottom + gap : Math.max(gap, rect.top - gap - height);
    }
    panel.style.left = `${Math.round(left)}px`;
    panel.style.top = `${Math.round(top)}px`;
    panel.classList.add('tour-floating');
  }

  /** @param {number} i */
  function show(i) {
    index = i;
    const step = STEPS[i];
    target?.classList.remove('tour-target');
    if (!NARROW.matches) closeMenu();
    target = findTarget(step);
    target?.classList.add('tour-target');
    target?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    count.textContent = t('tour.count', { current: i + 1, total: STEPS.length });
    title.textContent = t(`tour.steps.${step.key}.title`);
    text.textContent = t(`tour.steps.${step.key}.text`);
    back.hidden = i === 0;
    next.textContent = i === STEPS.length - 1 ? t('tour.done') : t('tour.next');
    [...dots.children].forEach((dot, n) => dot.classList.toggle('is-current', n === i));
    place();
    title.focus();
  }

  async function end() {
    target?.classList.remove('tour-target');
    panel.remove();
    window.removeEventListener('resize', place);
    closeMenu();
    document.getElementById('main')?.focus();
    await call('POST', '/api/auth/onboarding', { completed: true });
    announce(t('tour.finished'));
  }

  back.addEventListener('click', () => show(index - 1));
  next.addEventListener('click', () => (index === STEPS.length - 1 ? void end() : show(index + 1)));
  skip.addEventListener('click', () => void end());
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      void end();
    }
  });
  window.addEventListener('resize', place);

  document.body.append(panel);
  show(0);
}
