// Tables whose rows the reader orders by any column: each header that names a `data-sort` key
// holds a button (a click, or Enter or Space from the keyboard); the first press orders
// figures from the largest and names from A, the next reverses. `aria-sort` on the header
// says the order in force, so screen readers announce it.
import { element, requireElement } from '../core/dom.js';
import { compareText } from '../core/format.js';

/** @typedef {'ascending' | 'descending'} Direction */
/** @typedef {{ key: string, direction: Direction }} SortOrder */

/**
 * Orders `rows` by `order`: names by the page's language, figures by value, an absent figure
 * (null) last either way.
 * @template {Record<string, unknown>} R
 * @param {R[]} rows
 * @param {SortOrder} order
 * @returns {R[]}
 */
export function sortRows(rows, { key, direction }) {
  const sign = direction === 'ascending' ? 1 : -1;
  return [...rows].sort((x, y) => {
    const a = x[key];
    const b = y[key];
    if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
    if (b === null || b === undefined) return -1;
    if (typeof a === 'number' && typeof b === 'number') return sign * (a - b);
    return sign * compareText(typeof a === 'string' ? a : '', typeof b === 'string' ? b : '');
  });
}

/**
 * Turns the headers of `table` into sort buttons. `onSort` runs with the new order, and the
 * page draws the rows again in it.
 * @param {HTMLTableElement} table
 * @param {SortOrder} initial
 * @param {(order: SortOrder) => void} onSort
 * @param {string} hint the id of the element that says what a press does, for screen readers
 */
export function sortableTable(table, initial, onSort, hint) {
  let order = initial;
  table.classList.add('is-sortable');
  const headers = [...table.querySelectorAll('thead th[data-sort]')].filter((th) => th instanceof HTMLTableCellElement);
  const show = () => {
    for (const th of headers) {
      if (th.dataset.sort === order.key) th.setAttribute('aria-sort', order.direction);
      else th.removeAttribute('aria-sort');
    }
  };
  for (const th of headers) {
    const key = th.dataset.sort ?? '';
    const label = th.textContent.trim();
    // Figures name their column from here in the narrow layout, without the hint.
    th.dataset.label = label;
    const button = element('button', { type: 'button', className: 'sort-button', 'aria-describedby': hint }, [
      element('span', { className: 'sort-label', text: label }),
      element('span', { className: 'sort-mark', 'aria-hidden': 'true' }),
    ]);
    th.replaceChildren(button);
    button.addEventListener('click', () => {
      const numeric = th.classList.contains('num');
      const first = numeric ? 'descending' : 'ascending';
      order = { key, direction: order.key === key ? (order.direction === 'ascending' ? 'descending' : 'ascending') : first };
      show();
      onSort(order);
    });
  }
  show();
  return {
    current: () => order,
  };
}

/**
 * Makes the table of each breakdown section under `root` sortable. `breakdownOf` says which
 * of the page's breakdowns a section's `data-breakdown` names (null: none); `orders` holds each
 * one's order, kept up to date here, and `redraw` draws the rows again.
 * @template {string} N
 * @param {ParentNode} root
 * @param {(name: string | undefined) => N | null} breakdownOf
 * @param {Record<N, SortOrder>} orders
 * @param {() => void} redraw
 * @returns {[N, HTMLElement][]} each breakdown's name and section
 */
export function sortableBreakdowns(root, breakdownOf, orders, redraw) {
  /** @type {[N, HTMLElement][]} */
  const found = [];
  for (const section of root.querySelectorAll('[data-breakdown]')) {
    if (!(section instanceof HTMLElement)) continue;
    const name = breakdownOf(section.dataset.breakdown);
    if (!name) continue;
    sortableTable(requireElement('table', HTMLTableElement, section), orders[name], (order) => {
      orders[name] = order;
      redraw();
    }, 'hint-sort');
    found.push([name, section]);
  }
  return found;
}

/**
 * Renames a header, sortable or not (a comparison's columns are named by their periods).
 * @param {HTMLElement} th
 * @param {string} text
 */
export function nameHeader(th, text) {
  th.dataset.label = text;
  const label = th.querySelector('.sort-label');
  if (label) label.textContent = text;
  else th.textContent = text;
}
