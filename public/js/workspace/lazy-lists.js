// Long lists of cards drawn a screenful at a time: the rest follow when a list's end comes near,
// and a few at a time while the browser is idle, until the page holds a few hundred cards. A
// board column or the calendar's tray of a thousand posts then shows its first screen without
// building every card first, and the page stays light: opening a modal dialog (a post's panel)
// costs time in proportion to the elements in the page (on a thousand-post board, 80 ms with
// every card drawn and 40 ms with 300, unthrottled).
import { IDLE_SLICE_MS, nextTask, whenIdle } from '../core/dom.js';

/** Cards in the page past which the idle drawing stops: a board of a few hundred posts is still drawn whole. */
export const IDLE_UP_TO = 300;

/**
 * @template T
 * @typedef {object} LazyLists
 * @property {(lists: Filling<T>[]) => void} fill draws each list's `items` into it (or `empty`
 *   when there are none): at least a screenful now, and down to where the list was scrolled if
 *   further, so that a redraw keeps the list where it was. Every list is measured before any is
 *   drawn: measured after another list was drawn, each would lay the page out again.
 * @property {(found: (item: T) => boolean) => void} drawUpTo draws each list down to the item `found` picks
 */

/**
 * @template T
 * @typedef {{ list: HTMLElement, items: T[], empty: HTMLElement }} Filling
 */

/**
 * Lists drawn lazily with `make`, each list its own scroller (a board column, the tray).
 * @template T
 * @param {object} options
 * @param {(item: T) => HTMLElement} options.make draws one item
 * @param {string} options.drawnSelector what a drawn item matches in its list
 * @param {() => void} [options.onDrawn] after items were added to a list
 * @param {number} [options.first] items drawn at once: a screenful, and enough that the last is
 *   beyond where the next ones are drawn (fewer made the board draw 25 more in every column at once)
 * @param {number} [options.more] items added when a list's end comes near
 * @param {number} [options.idleBatch] items added to each list at a time while idle
 * @param {number} [options.idleUpTo] items in all the lists together past which only scrolling draws more
 * @param {HTMLElement[]} [options.sideBySide] lists that may be out of sight beside the others (the
 *   board's columns, wider together than a phone): one not drawn yet and out of sight when filled
 *   gets its first screenful in a task of its own after the others', or as it comes into view
 * @returns {LazyLists<T>}
 */
export function lazyLists({ make, drawnSelector, onDrawn = () => undefined, first = 12, more = 25, idleBatch = 3, idleUpTo = IDLE_UP_TO, sideBySide = [] }) {
  /** Each list's items still to draw, in order. @type {Map<HTMLElement, T[]>} */
  const undrawn = new Map();
  /** Each list's items drawn. @type {Map<HTMLElement, number>} */
  const drawnCounts = new Map();
  const drawnInAll = () => {
    let sum = 0;
    for (const count of drawnCounts.values()) sum += count;
    return sum;
  };
  /**
   * Watches a list's last item drawn, with the list as the root: the next items are drawn while
   * the last is still a screen and a half away.
   * @type {Map<HTMLElement, IntersectionObserver>}
   */
  const nearEnd = new Map();
  let idleQueued = false;
  /**
   * Whether each of the `sideBySide` lists was last seen in sight, as an IntersectionObserver
   * reports it after each frame: asking the layout instead would lay the page out once more.
   * A list not reported yet counts as in sight.
   * @type {Map<HTMLElement, boolean>}
   */
  const inSight = new Map();
  /** Lists whose first screenful waits for its turn or for the list to come into view. @type {Set<HTMLElement>} */
  const waiting = new Set();
  if (sideBySide.length) {
    const sight = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const list = /** @type {HTMLElement} */ (entry.target);
        inSight.set(list, entry.isIntersecting);
        if (entry.isIntersecting) drawWaiting(list);
      }
    });
    for (const list of sideBySide) sight.observe(list);
  }

  /** @param {HTMLElement} list */
  function watchEnd(list) {
    let observer = nearEnd.get(list);
    if (!observer) {
      observer = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          nearEnd.get(list)?.disconnect();
          drawMore(list, more);
        },
        { root: list, rootMargin: '0px 0px 150% 0px' },
      );
      nearEnd.set(list, observer);
    }
    observer.disconnect();
    if (list.lastElementChild) observer.observe(list.lastElementChild);
  }

  /**
   * @param {HTMLElement} list
   * @param {number} count
   */
  function drawMore(list, count) {
    const rest = undrawn.get(list);
    if (!rest) return;
    const items = rest.splice(0, count);
    list.append(...items.map(make));
    drawnCounts.set(list, (drawnCounts.get(list) ?? 0) + items.length);
    if (rest.length) watchEnd(list);
    else undrawn.delete(list);
    onDrawn();
  }

  /** @param {HTMLElement} list */
  function drawWaiting(list) {
    if (waiting.delete(list)) drawMore(list, first);
  }

  /** The waiting lists' first screenfuls, a list per task. */
  async function drawWaitingInTurn() {
    for (const list of [...waiting]) {
      await nextTask();
      drawWaiting(list);
    }
  }

  function drawWhenIdle() {
    if (idleQueued || undrawn.size === 0 || drawnInAll() >= idleUpTo) return;
    idleQueued = true;
    whenIdle((deadline) => {
      idleQueued = false;
      const stop = performance.now() + IDLE_SLICE_MS;
      // The time is read after each list's few cards, not after a round of every list: six
      // columns' worth took several slices' time on a busy machine.
      const goOn = () => undrawn.size > 0 && drawnInAll() < idleUpTo && deadline.timeRemaining() > 2 && performance.now() < stop;
      do {
        for (const list of [...undrawn.keys()]) {
          drawMore(list, Math.min(idleBatch, idleUpTo - drawnInAll()));
          if (!goOn()) break;
        }
      } while (goOn());
      drawWhenIdle();
    });
  }

  /**
   * How many of a list's drawn items reach down to two of its screens below where it is scrolled
   * to: a redraw draws as many again, which keeps the list where it was, and leaves the rest of
   * a list the idle drawing had completed to be drawn again later (redrawing a thousand cards
   * after each move took seconds). Items are in order down the list, so a binary search finds it.
   * @param {HTMLElement} list
   */
  function shownDown(list) {
    const drawn = list.querySelectorAll(drawnSelector);
    if (drawn.length === 0) return 0;
    const bottom = list.getBoundingClientRect().top + 2 * list.clientHeight;
    let low = 0;
    let high = drawn.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (drawn[middle].getBoundingClientRect().top > bottom) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  return {
    fill(lists) {
      const counts = lists.map(({ list }) => Math.max(first, shownDown(list)));
      lists.forEach(({ list, items, empty }, i) => {
        // Out of sight with nothing drawn yet (the board opening on a phone): its cards come after.
        const waits = items.length > 0 && inSight.get(list) === false && !list.querySelector(drawnSelector);
        const count = waits ? 0 : counts[i];
        nearEnd.get(list)?.disconnect();
        undrawn.delete(list);
        waiting.delete(list);
        list.replaceChildren(...(items.length ? items.slice(0, count).map(make) : [empty]));
        drawnCounts.set(list, Math.min(count, items.length));
        if (items.length > count) {
          undrawn.set(list, items.slice(count));
          if (waits) waiting.add(list);
          else watchEnd(list);
        }
      });
      if (waiting.size) void drawWaitingInTurn();
      drawWhenIdle();
    },
    drawUpTo(found) {
      for (const [list, rest] of undrawn) {
        const at = rest.findIndex(found);
        if (at >= 0) drawMore(list, at + 1);
      }
    },
  };
}
