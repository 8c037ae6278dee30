// The search box of the workspace's top bar: a combobox (ARIA 1.2) over a listbox of results
// grouped by kind. Typing asks the server after a short pause, only the newest answer counts;
// the arrow keys move through the results, Enter opens one, Escape closes the list (or, when
// it is closed, empties the box). Every text from the server goes in as text, never markup.
import { newestOnly } from '../core/api.js';
import { element, findElement, requireElement } from '../core/dom.js';
import { t, tn } from '../core/i18n.js';
import { call, errorMessage } from './common.js';

/** @typedef {import('../../../src/workspace/domain').SearchType} SearchType */

/**
 * One result as GET /api/search answers it.
 * @typedef {object} Result
 * @property {SearchType} type
 * @property {number} id
 * @property {string} title
 * @property {string} snippet
 * @property {{ title: [number, number][], snippet: [number, number][] }} marks where the server found the text
 * @property {string} url
 */

/** How long typing must pause before the server is asked, in milliseconds. */
const PAUSE_MS = 250;

const root = findElement('[data-ws-search]', HTMLElement);
if (root) startSearch(root);

/** @param {HTMLElement} box */
function startSearch(box) {
  const input = requireElement('input[role="combobox"]', HTMLInputElement, box);
  const popup = requireElement('[data-ws-search-popup]', HTMLElement, box);
  const listbox = requireElement('[role="listbox"]', HTMLElement, box);
  const status = requireElement('[data-ws-search-status]', HTMLElement, box);
  const live = requireElement('[data-ws-search-live]', HTMLElement, box);
  const minLength = Number(input.getAttribute('minlength')) || 2;
  const searches = newestOnly();
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  /** @type {HTMLElement[]} */
  let options = [];
  let active = -1;
  /** The text of the results on show, so that the same text is not asked again. */
  let shown = '';

  /** @param {boolean} open */
  function setOpen(open) {
    popup.hidden = !open;
    input.setAttribute('aria-expanded', String(open && options.length > 0));
    if (!open) setActive(-1);
  }

  /** @param {number} index the option to mark as chosen; -1 for none */
  function setActive(index) {
    if (active >= 0) options[active]?.setAttribute('aria-selected', 'false');
    active = index;
    // The index is -1 when none is chosen, and then finds nothing.
    const option = /** @type {HTMLElement | undefined} */ (options[index]);
    if (!option) {
      input.removeAttribute('aria-activedescendant');
      return;
    }
    option.setAttribute('aria-selected', 'true');
    input.setAttribute('aria-activedescendant', option.id);
    option.scrollIntoView({ block: 'nearest' });
  }

  /** @param {HTMLElement} option */
  function open(option) {
    const url = option.dataset.url;
    // Only ever a page of the workspace, whatever the answer held.
    if (url && /^\/workspace(\/|\?|$)/.test(url)) window.location.assign(url);
  }

  /**
   * `text` with the places the server found the query marked (it compares as search does:
   * either case, Arabic spelling variants and marks).
   * @param {string} text
   * @param {[number, number][]} places
   * @returns {(string | HTMLElement)[]}
   */
  function marked(text, places) {
    /** @type {(string | HTMLElement)[]} */
    const parts = [];
    let from = 0;
    for (const [start, end] of places) {
      if (start < from || end > text.length) continue;
      if (start > from) parts.push(text.slice(from, start));
      parts.push(element('mark', { text: text.slice(start, end) }));
      from = end;
    }
    if (from < text.length) parts.push(text.slice(from));
    return parts;
  }

  /**
   * @param {Result[]} results
   * @param {string} query
   */
  function render(results, query) {
    shown = query;
    /** @type {Map<SearchType, Result[]>} */
    const groups = new Map();
    // Groups in the order of their best result: the server answers the most relevant first.
    for (const result of results) groups.set(result.type, [...(groups.get(result.type) ?? []), result]);
    options = [];
    const children = [...groups].map(([type, list]) => {
      const labelId = `ws-search-group-${type}`;
      return element('div', { role: 'group', className: 'ws-search-group', 'aria-labelledby': labelId }, [
        element('div', { id: labelId, className: 'ws-search-group-label', text: t(`search.types.${type}`) }),
        ...list.map((result) => {
          const option = element('div', { role: 'option', id: `ws-search-option-${options.length}`, className: 'ws-search-option', 'aria-selected': 'false', 'data-url': result.url }, [
            // <bdi>: an English title reads left to right in an Arabic page, yet lines up with the rest.
            element('span', { className: 'ws-search-title' }, element('bdi', {}, marked(result.title, result.marks.title))),
            result.snippet && result.snippet !== result.title
              ? element('span', { className: 'ws-search-snippet' }, element('bdi', {}, marked(result.snippet, result.marks.snippet)))
              : null,
          ]);
          options.push(option);
          return option;
        }),
      ]);
    });
    listbox.replaceChildren(...children);
    listbox.hidden = results.length === 0;
    status.textContent = results.length ? '' : t('search.noResults', { query });
    live.textContent = results.length ? tn('search.count', results.length) : t('search.noResults', { query });
    active = -1;
    input.removeAttribute('aria-activedescendant');
    setOpen(true);
  }

  /**
   * A message in place of the results, which are no longer those of any text.
   * @param {string} message
   */
  function say(message) {
    shown = '';
    options = [];
    listbox.replaceChildren();
    listbox.hidden = true;
    status.textContent = message;
    live.textContent = message;
    setOpen(true);
  }

  async function search() {
    const query = input.value.trim();
    if (query.length < minLength) return;
    input.setAttribute('aria-busy', 'true');
    try {
      const answer = /** @type {{ results: Result[] }} */ (
        await searches.run((signal) => call('GET', `/api/search?q=${encodeURIComponent(query)}`, undefined, { signal }))
      );
      render(answer.results, query);
    } catch (err) {
      say(errorMessage(err));
    } finally {
      input.removeAttribute('aria-busy');
    }
  }

  /** Too little typed: nothing is asked, and the list goes with any answer on its way. */
  function clear() {
    clearTimeout(timer);
    // Starting an empty load drops the one on its way, whose answer would open the list again.
    void searches.run(() => Promise.resolve());
    input.removeAttribute('aria-busy');
    shown = '';
    options = [];
    listbox.replaceChildren();
    live.textContent = '';
    setOpen(false);
  }

  input.addEventListener('input', () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query.length < minLength) {
      clear();
      return;
    }
    if (query === shown) {
      setOpen(true);
      return;
    }
    if (popup.hidden || options.length === 0) say(t('search.searching'));
    timer = setTimeout(() => void search(), PAUSE_MS);
  });

  input.addEventListener('keydown', (event) => {
    if (event.isComposing) return;
    const isOpen = !popup.hidden;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!isOpen) {
          if (shown && shown === input.value.trim()) setOpen(true);
          else if (input.value.trim().length >= minLength) void search();
          return;
        }
        if (options.length === 0) return;
        const step = event.key === 'ArrowDown' ? 1 : -1;
        // From nothing chosen, down goes to the first and up to the last; the ends wrap round.
        const next = active === -1 ? (step === 1 ? 0 : options.length - 1) : (active + step + options.length) % options.length;
        setActive(next);
        return;
      }
      case 'Home':
      case 'End':
        if (!isOpen || active === -1) return;
        event.preventDefault();
        setActive(event.key === 'Home' ? 0 : options.length - 1);
        return;
      case 'Enter': {
        event.preventDefault();
        const option = isOpen ? options[active] : undefined;
        if (option) open(option);
        else if (input.value.trim().length >= minLength) {
          clearTimeout(timer);
          void search();
        }
        return;
      }
      case 'Escape':
        if (isOpen) {
          event.preventDefault();
          setOpen(false);
        } else if (input.value) {
          event.preventDefault();
          input.value = '';
          clear();
        }
        return;
      default:
    }
  });

  // A press on a result keeps the focus in the box, so the list does not close under it.
  listbox.addEventListener('mousedown', (event) => event.preventDefault());
  listbox.addEventListener('click', (event) => {
    const option = event.target instanceof Element ? event.target.closest('[role="option"]') : null;
    if (option instanceof HTMLElement) open(option);
  });
  listbox.addEventListener('mousemove', (event) => {
    const option = event.target instanceof Element ? event.target.closest('[role="option"]') : null;
    if (option instanceof HTMLElement && options.indexOf(option) !== active) setActive(options.indexOf(option));
  });

  input.addEventListener('focus', () => {
    if (shown && shown === input.value.trim()) setOpen(true);
  });
  box.addEventListener('focusout', (event) => {
    if (!(event.relatedTarget instanceof Node && box.contains(event.relatedTarget))) setOpen(false);
  });
  document.addEventListener('click', (event) => {
    if (!(event.target instanceof Node && box.contains(event.target))) setOpen(false);
  });
}
