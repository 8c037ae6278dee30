// Builds and finds elements. Building never goes through innerHTML, so text from the server or
// the user is never parsed as markup.

/** @typedef {Node | string | null | undefined | false} Child */
/** @typedef {Record<string, string | number | boolean | null | undefined>} Attributes */

/**
 * An element with attributes (`className` and `text` set those properties; `true` makes an
 * empty attribute; null, undefined and false leave it out) and children.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attributes} [attrs]
 * @param {Child | Child[]} [children]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'className') node.className = String(value);
    else if (key === 'text') node.textContent = String(value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of Array.isArray(children) ? children : [children]) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/**
 * @template {Element} T
 * @typedef {{ new (): T, prototype: T }} ElementType
 */

/**
 * The element `selector` finds in `root`, or null; checked to be a `type`.
 * @template {Element} T
 * @param {string} selector
 * @param {ElementType<T>} type
 * @param {ParentNode} [root]
 * @returns {T | null}
 */
export function findElement(selector, type, root = document) {
  const node = root.querySelector(selector);
  return node instanceof type ? node : null;
}

/**
 * The element `selector` finds in `root`, checked to be a `type`. The page's markup and its
 * script are written together, so a mismatch stops the script at once, where it is plain,
 * rather than at its first use.
 * @template {Element} T
 * @param {string} selector
 * @param {ElementType<T>} type
 * @param {ParentNode} [root]
 * @returns {T}
 */
export function requireElement(selector, type, root = document) {
  const node = findElement(selector, type, root);
  if (!node) throw new TypeError(`The page has no ${type.name} at ${selector}`);
  return node;
}

/**
 * Makes `target` take the cards dragged onto it (their id as the drag's text/plain data):
 * outlined while one that `accepts()` hovers over it, then `onDrop(id)`.
 * @param {HTMLElement} target
 * @param {{ accepts: () => boolean, onDrop: (id: string) => void }} options
 */
export function dropTarget(target, { accepts, onDrop }) {
  target.addEventListener('dragover', (event) => {
    if (!event.dataTransfer?.types.includes('text/plain') || !accepts()) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    target.classList.add('is-drop-target');
  });
  target.addEventListener('dragleave', (event) => {
    if (!(event.relatedTarget instanceof Node && target.contains(event.relatedTarget))) target.classList.remove('is-drop-target');
  });
  target.addEventListener('drop', (event) => {
    event.preventDefault();
    target.classList.remove('is-drop-target');
    onDrop(event.dataTransfer?.getData('text/plain') ?? '');
  });
}

/**
 * Resolves in a task of its own, after the browser has had the chance to paint and to handle
 * input: work split at these points never holds the page for longer than one of its parts.
 * Chromium's scheduler.yield() keeps the work's place ahead of other tasks; elsewhere a timer.
 * @returns {Promise<void>}
 */
export function nextTask() {
  const scheduler = /** @type {{ scheduler?: { yield?: () => Promise<void> } }} */ (globalThis).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Resolves in a task after the next frame, so that what is built after it is laid out in a frame
 * of its own: `nextTask` alone lets the browser run the next part before it lays out the last.
 * A hidden page paints no frames, so there it resolves at once.
 * @returns {Promise<void>}
 */
export function afterNextFrame() {
  if (document.visibilityState === 'hidden') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/**
 * The most one idle moment should run, in ms. The browser offers up to 50 ms, but a task that
 * long on a desktop is four times that on a slow phone, where it would hold up a tap.
 */
export const IDLE_SLICE_MS = 8;

/** Runs `job` when the browser is idle; one without requestIdleCallback gives a few milliseconds after a frame instead. */
export const whenIdle = 'requestIdleCallback' in window
  ? (/** @type {IdleRequestCallback} */ job) => window.requestIdleCallback(job, { timeout: 1000 })
  : (/** @type {IdleRequestCallback} */ job) => {
      window.setTimeout(() => {
        const end = performance.now() + IDLE_SLICE_MS;
        job({ didTimeout: false, timeRemaining: () => Math.max(0, end - performance.now()) });
      }, 16);
    };
