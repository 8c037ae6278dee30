// Line icons for markup built in the browser (the server-rendered ones are in
// views/partials/icon.ejs), and the small buttons that carry them. An icon is
// always decorative: the button or link carries the name.
import { element } from '../core/dom.js';

const SVG = 'http://www.w3.org/2000/svg';

// Each icon is one path of several strokes (an element per icon, not one per stroke: a board
// of a thousand cards carries three icons on each).
/** @type {Record<string, string>} */
const SHAPES = {
  move: 'M7 8h13M16 4l4 4-4 4M17 16H4M8 20l-4-4 4-4',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6',
  edit: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
  download: 'M12 4v12M7 11l5 5 5-5M4 20h16',
  file: 'M6 3h8l4 4v14H6zM14 3v4h4',
  calendar: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4',
  plus: 'M12 5v14M5 12h14',
  comment: 'M4 5h16v11H9l-5 4zM8 9h8M8 12h5',
  tasks: 'M4 4h16v16H4zM8 12l3 3 5-6',
  prev: 'M15 6l-6 6 6 6',
  next: 'M9 6l6 6-6 6',
  refresh: 'M20 11a8 8 0 0 0-14.7-4.4M4 4v4h4M4 13a8 8 0 0 0 14.7 4.4M20 20v-4h-4',
  external: 'M14 4h6v6M20 4 11 13M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5',
  send: 'M4 6h16v12H4zM4 7l8 6 8-6',
  cancel: 'M6 6l12 12M18 6 6 18',
};

/**
 * An SVG icon; `flip` for ones that point along the reading direction.
 * @param {string} name
 * @param {{ flip?: boolean }} [options]
 */
export function icon(name, { flip = false } = {}) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', `icon${flip ? ' icon-flip' : ''}`);
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const shape = SHAPES[name];
  if (shape) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', shape);
    svg.append(path);
  }
  return svg;
}

/**
 * @typedef {object} ButtonOptions
 * @property {string} label the accessible name
 * @property {string} [icon]
 * @property {boolean} [danger]
 * @property {() => unknown} onClick
 */

/**
 * A small button with an icon and visible text, whose accessible name (`label`) starts with
 * that text and names the record it acts on ("Delete" / "Delete Autumn lectures").
 * @param {ButtonOptions & { text: string }} options
 */
export function actionButton({ text, label, icon: name, danger = false, onClick }) {
  const node = element('button', { type: 'button', className: `button button-small${danger ? ' button-danger-quiet' : ''}`, 'aria-label': label }, [
    name ? icon(name) : null,
    text,
  ]);
  node.addEventListener('click', () => void onClick());
  return node;
}

/**
 * A button with only an icon; `label` names it for screen readers and as its tooltip.
 * @param {ButtonOptions & { icon: string }} options
 */
export function iconButton({ label, icon: name, danger = false, onClick }) {
  const node = element('button', { type: 'button', className: `icon-button${danger ? ' icon-button-danger' : ''}`, 'aria-label': label, title: label }, icon(name));
  node.addEventListener('click', () => void onClick());
  return node;
}
