// The workspace frame: the sidebar as a menu on narrow screens, sign-out, the language toggle
// (which also goes into the profile), and the onboarding tour until the user has seen it.
import { findElement } from '../core/dom.js';
import { call, context, signOut } from './common.js';

const menuButton = findElement('[data-ws-menu]', HTMLButtonElement);
const sidebar = findElement('#ws-sidebar', HTMLElement);
const scrim = findElement('[data-ws-scrim]', HTMLElement);
// The change-password page has no sidebar and no user in its context.
const me = context.user ?? null;

/**
 * @param {boolean} open
 * @param {{ focus?: boolean }} [options]
 */
function setMenu(open, { focus = true } = {}) {
  if (!menuButton || !sidebar) return;
  menuButton.setAttribute('aria-expanded', String(open));
  sidebar.classList.toggle('is-open', open);
  if (scrim) scrim.hidden = !open;
  if (open && focus) findElement('a, button', HTMLElement, sidebar)?.focus();
  if (!open && focus) menuButton.focus();
}

export function openMenu() {
  setMenu(true, { focus: false });
}

export function closeMenu() {
  setMenu(false, { focus: false });
}

menuButton?.addEventListener('click', () => setMenu(menuButton.getAttribute('aria-expanded') !== 'true'));
scrim?.addEventListener('click', () => setMenu(false));
sidebar?.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && sidebar.classList.contains('is-open')) setMenu(false);
});

for (const button of document.querySelectorAll('[data-ws-logout]')) {
  if (!(button instanceof HTMLButtonElement)) continue;
  button.addEventListener('click', () => {
    button.disabled = true;
    void signOut();
  });
}

// The choice is kept in the `lang` cookie by the link itself and in the profile here, so it
// follows the user to other devices.
/**
 * @param {string} language
 * @param {string} href
 */
async function switchLanguage(language, href) {
  try {
    await call('PATCH', '/api/auth/me', { language });
  } catch {
    // The page still switches; the profile keeps its old choice until the next toggle.
  }
  window.location.assign(href);
}

for (const link of document.querySelectorAll('.lang-toggle a[hreflang]')) {
  if (!(link instanceof HTMLAnchorElement)) continue;
  link.addEventListener('click', (event) => {
    const language = link.getAttribute('hreflang');
    if (!me || !language || language === me.language) return;
    event.preventDefault();
    void switchLanguage(language, link.href);
  });
}

if (me && document.querySelector('[data-notifications-open]')) await import('./notifications.js');

if (me && !me.onboardingCompleted && document.querySelector('.ws-shell')) {
  const { startTour } = await import('./tour.js');
  startTour({ openMenu, closeMenu });
}
