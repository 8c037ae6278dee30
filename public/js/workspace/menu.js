// A menu button (WAI-ARIA menu button pattern): Enter, Space or the arrow keys open it, the
// arrow keys, Home and End move between items, Escape or Tab closes it.
import { element } from '../core/dom.js';

/**
 * @typedef {object} Menu
 * @property {HTMLElement} root
 * @property {HTMLButtonElement} button
 * @property {(focusIndex?: number) => void} open
 * @property {() => void} place
 * @property {(returnFocus?: boolean) => void} close
 */

/** @type {Menu | null} */
let openMenu = null;

document.addEventListener('click', (event) => {
  if (openMenu && !(event.target instanceof Node && openMenu.root.contains(event.target))) openMenu.close(false);
});
// The open menu follows its button when anything scrolls or the window changes size.
document.addEventListener('scroll', () => openMenu?.place(), true);
window.addEventListener('resize', () => openMenu?.place());

const GAP = 4;
const MARGIN = 8;

/**
 * Places `list` in the viewport beside `button`: below it, or above when only that fits, its
 * inline end on the button's. Fixed rather than absolute, so that a scrolling container
 * (the kanban board scrolls sideways, which clips it top and bottom too) never cuts it off.
 * @param {HTMLElement} list
 * @param {HTMLElement} button
 */
function place(list, button) {
  const anchor = button.getBoundingClientRect();
  const rtl = getComputedStyle(button).direction === 'rtl';
  list.style.maxBlockSize = '';
  const { width, height } = list.getBoundingClientRect();
  const below = window.innerHeight - anchor.bottom - GAP - MARGIN;
  const above = anchor.top - GAP - MARGIN;
  const up = height > below && above > below;
  const room = up ? above : below;
  if (height > room) list.style.maxBlockSize = `${Math.max(room, 0)}px`;
  const top = up ? anchor.top - GAP - Math.min(height, room) : anchor.bottom + GAP;
  const start = rtl ? anchor.left : anchor.right - width;
  list.style.top = `${top}px`;
  list.style.left = `${Math.min(Math.max(start, MARGIN), window.innerWidth - width - MARGIN)}px`;
}

/**
 * A button (showing `content`, named `ariaLabel`) opening a list of what `items()` gives
 * `[{label, onSelect}]`; returns the wrapper to place in the page. The list is built when the
 * menu first opens: a board of a thousand cards has a menu on each, mostly never opened, and
 * their items were a third of its elements.
 * @param {{ content: Node, ariaLabel: string, items: () => { label: string, onSelect: () => unknown }[], className?: string }} options
 */
export function menuButton({ content, ariaLabel, items, className = '' }) {
  const button = element(
    'button',
    { type: 'button', className: `icon-button ${className}`, 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-label': ariaLabel, title: ariaLabel },
    content,
  );
  const list = element('ul', { className: 'menu', role: 'menu', 'aria-label': ariaLabel, hidden: true });
  const root = element('div', { className: 'menu-wrap' }, [button, list]);

  /** @type {Menu} */
  const menu = {
    root,
    button,
    open(focusIndex = 0) {
      if (openMenu && openMenu !== menu) openMenu.close(false);
      openMenu = menu;
      entries ??= build();
      list.hidden = false;
      // Expanded first: a card lets go of its containment for an open menu (workspace.css),
      // and the list is placed in the frame it will show in.
      button.setAttribute('aria-expanded', 'true');
      menu.place();
      entries.at(focusIndex)?.focus({ preventScroll: true });
    },
    place: () => place(list, button),
    close(returnFocus = true) {
      list.hidden = true;
      button.setAttribute('aria-expanded', 'false');
      if (openMenu === menu) openMenu = null;
      if (returnFocus) button.focus();
    },
  };

  /** The items' buttons, once the menu has been opened. @type {HTMLButtonElement[] | null} */
  let entries = null;
  const build = () =>
    items().map((item) => {
      const entry = element('button', { type: 'button', role: 'menuitem', tabindex: '-1', className: 'menu-item', text: item.label });
      entry.addEventListener('click', () => {
        menu.close(false);
        void item.onSelect();
      });
      list.append(element('li', { role: 'none' }, [entry]));
      return entry;
    });

  button.addEventListener('click', () => (list.hidden ? menu.open() : menu.close()));
  button.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      menu.open(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      menu.open(-1);
    }
  });
  list.addEventListener('keydown', (event) => {
    const shown = entries ?? [];
    const at = shown.findIndex((entry) => entry === document.activeElement);
    const go = (/** @type {number} */ i) => shown.at(((i % shown.length) + shown.length) % shown.length)?.focus();
    if (event.key === 'ArrowDown') go(at + 1);
    else if (event.key === 'ArrowUp') go(at - 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(-1);
    else if (event.key === 'Escape') menu.close();
    else if (event.key === 'Tab') {
      menu.close(false);
      return;
    } else return;
    event.preventDefault();
  });
  return root;
}
