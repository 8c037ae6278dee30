// JSON requests of both applications' pages: same-origin credentials (the session cookie) and
// JSON in and out. The server's CSRF rule needs nothing more: the browser itself sends
// Origin and Sec-Fetch-Site with every request. Errors become exceptions that carry the
// server's status, code and details, so that pages can say what went wrong in their language.

/**
 * @typedef {object} ErrorDetails
 * @property {{ path: string, message: string }[]} [issues] what a 400 VALIDATION found wrong
 * @property {unknown[]} [errors] the problems of an application-specific check
 * @property {boolean} [truncated]
 */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {unknown} body the answer's JSON, `{error, code?, details?}` when the server wrote it
   */
  constructor(status, body) {
    const answer = body !== null && typeof body === 'object' ? /** @type {{ error?: unknown, code?: unknown, details?: unknown }} */ (body) : {};
    super(typeof answer.error === 'string' ? answer.error : `HTTP ${status}`);
    this.status = status;
    /** @type {string | undefined} */
    this.code = typeof answer.code === 'string' ? answer.code : undefined;
    /** @type {ErrorDetails | undefined} */
    this.details = answer.details !== null && typeof answer.details === 'object' ? /** @type {ErrorDetails} */ (answer.details) : undefined;
  }
}

/**
 * A response's text as JSON; null when it is empty or not JSON (a proxy's error page).
 * @param {string} text
 * @returns {unknown}
 */
export function parseJson(text) {
  if (!text) return null;
  try {
    /** @type {unknown} */
    const value = JSON.parse(text);
    return value;
  } catch {
    return null;
  }
}

/**
 * @typedef {object} RequestOptions
 * @property {AbortSignal} [signal] aborts the request (see `newestOnly`)
 */

/**
 * Sends a request and resolves with the answer's JSON (null for an empty one); rejects with an
 * ApiError for an error status, or with the fetch error when the server cannot be reached.
 * The answer is the server's word, so callers state its shape with a cast.
 * @param {string} method
 * @param {string} url
 * @param {unknown} [body] sent as JSON when given
 * @param {RequestOptions} [options]
 * @returns {Promise<unknown>}
 */
export async function api(method, url, body, { signal } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  /** @type {RequestInit} */
  const init = { method, headers, credentials: 'same-origin', signal };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  const data = parseJson(await res.text());
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

/** A promise that never settles: what a page waits on while the browser leaves it. */
export function never() {
  return /** @type {Promise<never>} */ (new Promise(() => {}));
}

/**
 * The requests of an application's pages: an answer that ends the session (`endsSession` of
 * its status) sends the browser to the application's sign-in page (`leave`) and never
 * settles, so that the page does not flash an error while it goes.
 * @param {{ endsSession: (status: number) => boolean, leave: () => unknown }} rules
 */
export function sessionClient({ endsSession, leave }) {
  /**
   * @template T
   * @param {Promise<T>} request
   * @returns {Promise<T>}
   */
  async function guard(request) {
    try {
      return await request;
    } catch (err) {
      if (err instanceof ApiError && endsSession(err.status)) {
        void leave();
        return never();
      }
      throw err;
    }
  }
  return {
    guard,
    /**
     * `api` behind the session rule.
     * @param {string} method
     * @param {string} url
     * @param {unknown} [body]
     * @param {RequestOptions} [options]
     */
    call: (method, url, body, options) => guard(api(method, url, body, options)),
  };
}

/**
 * Loads of which only the newest counts, such as a list reloaded each time its filters change:
 * starting one aborts the one before, so an older answer can never land after a newer one.
 */
export function newestOnly() {
  /** @type {AbortController | null} */
  let current = null;
  return {
    /** Whether a load is on its way. */
    get pending() {
      return current !== null;
    },
    /**
     * Runs `load` and settles as it does, unless a newer load starts meanwhile: then this one
     * never settles, and the newer one speaks for both.
     * @template T
     * @param {(signal: AbortSignal) => Promise<T>} load
     * @returns {Promise<T>}
     */
    async run(load) {
      current?.abort();
      const mine = new AbortController();
      current = mine;
      try {
        const value = await load(mine.signal);
        return current === mine ? value : await never();
      } catch (err) {
        if (current !== mine) return await never();
        throw err;
      } finally {
        if (current === mine) current = null;
      }
    },
  };
}
