// New figures behind an open Dashboard or Comparison page: after an import or a change of
// seasons, the server says so on GET /api/dashboard/events, and the page offers, in a polite
// notice, to reload its figures in place (the filters and dates chosen stay as they are).
import { api } from '../core/api.js';
import { element, requireElement } from '../core/dom.js';
import { t } from '../core/i18n.js';
import { eventStream } from '../core/live.js';

/**
 * A refused stream may mean the session ended: the PIN page is then where the page belongs.
 * @returns {Promise<void>}
 */
async function checkSession() {
  const answer = /** @type {{ authenticated?: boolean }} */ (await api('GET', '/auth/check'));
  if (!answer.authenticated) window.location.assign(`/dashboard/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
}

/**
 * Offers new figures as they come; `reload` reads them again.
 * @param {() => unknown} reload
 */
export function offerNewFigures(reload) {
  const notice = requireElement('[data-new-figures]', HTMLElement);
  const button = element('button', { type: 'button', className: 'button button-primary', text: t('live.refresh') });
  button.addEventListener('click', () => {
    notice.replaceChildren();
    // The button is gone with the notice: the focus goes to the page's heading, above the figures.
    const heading = document.querySelector('h1');
    if (heading instanceof HTMLElement) {
      heading.tabIndex = -1;
      heading.focus();
    }
    void reload();
  });
  eventStream('/api/dashboard/events', { onRefused: checkSession }).on('data', () => {
    if (!notice.hasChildNodes()) notice.replaceChildren(element('p', { text: t('live.newFigures') }), button);
  });
}
