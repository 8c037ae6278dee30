// A server-sent event stream of either application, one per page: subscribers by event name,
// each handed the event's JSON. The browser's EventSource reconnects by itself after a dropped
// connection (sending Last-Event-ID, so the server replays what was missed); a stream the
// server refuses outright (a 401, a proxy's 502) it gives up on, and this module opens it
// again, later and later, naming the last event it had. The same event delivered twice (a
// replay that overlaps what was already sent, on another instance) is handed on once. The
// stream closes when the page is left and opens again, resuming, when the page comes back
// from the back-forward cache.

/** The first wait before a refused stream is asked for again; it doubles up to the last. */
const RETRY_MS = 3000;
const RETRY_MAX_MS = 60_000;
/** How many recent events are remembered to recognise one delivered again. */
const REMEMBERED = 200;

/** @typedef {(data: unknown) => void} Handler */

/**
 * @typedef {object} StreamOptions
 * @property {() => Promise<unknown>} [onRefused] called when the server refuses the stream, before
 *   it is asked again: the page may find out why (a session that ended) and leave
 */

/**
 * Opens `url` as an event stream.
 * @param {string} url
 * @param {StreamOptions} [options]
 */
export function eventStream(url, { onRefused } = {}) {
  /** @type {Map<string, Set<Handler>>} */
  const handlers = new Map();
  /** @type {EventSource | null} */
  let source = null;
  /** The id of the last event handed on: where a stream opened again resumes. */
  let lastId = '';
  /** @type {Set<string>} */
  const recent = new Set();
  let wait = RETRY_MS;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retryTimer;

  /**
   * @param {string} name
   * @param {MessageEvent} event
   */
  function deliver(name, event) {
    // An event without an id of its own carries the previous one's: its data tells it apart.
    const key = `${event.lastEventId}\n${name}\n${String(event.data)}`;
    if (recent.has(key)) return;
    recent.add(key);
    if (recent.size > REMEMBERED) recent.delete(recent.values().next().value ?? '');
    if (event.lastEventId) lastId = event.lastEventId;
    /** @type {unknown} */
    let data;
    try {
      data = JSON.parse(String(event.data));
    } catch {
      return;
    }
    for (const handler of [...(handlers.get(name) ?? [])]) {
      try {
        handler(data);
      } catch (err) {
        // One page part's failure must not keep the event from the others.
        reportError(err);
      }
    }
  }

  /** @param {string} name */
  function listen(name) {
    source?.addEventListener(name, (event) => deliver(name, /** @type {MessageEvent} */ (event)));
  }

  function open() {
    clearTimeout(retryTimer);
    const resume = lastId ? `${url.includes('?') ? '&' : '?'}lastEventId=${encodeURIComponent(lastId)}` : '';
    const opened = new EventSource(url + resume);
    source = opened;
    for (const name of handlers.keys()) listen(name);
    opened.addEventListener('open', () => {
      wait = RETRY_MS;
    });
    opened.addEventListener('error', () => {
      // CONNECTING: the browser is already trying again. CLOSED: it has given up.
      if (opened.readyState !== EventSource.CLOSED || source !== opened) return;
      source = null;
      void refused();
    });
  }

  async function refused() {
    try {
      await onRefused?.();
    } catch {
      // Whatever stands in the way may pass: the stream is asked for again all the same.
    }
    retryTimer = setTimeout(open, wait);
    wait = Math.min(wait * 2, RETRY_MAX_MS);
  }

  function close() {
    clearTimeout(retryTimer);
    source?.close();
    source = null;
  }

  window.addEventListener('pagehide', close);
  window.addEventListener('pageshow', (event) => {
    if (event.persisted && !source) open();
  });
  open();

  return {
    /**
     * Calls `handler` with the data of every `name` event until the returned function is called.
     * @param {string} name
     * @param {Handler} handler
     * @returns {() => void}
     */
    on(name, handler) {
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
        listen(name);
      }
      set.add(handler);
      return () => {
        set.delete(handler);
      };
    },
    close,
  };
}
