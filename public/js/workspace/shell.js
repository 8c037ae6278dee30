// The workspace frame: the sidebar as a menu on narrow screens, sign-out, the language toggle
// (which also goes into the profile), and the onboarding tour until the user has seen it.
import { call, context, me, signOut } from './common.js';

const menuButton = document.querySelector('[data-ws-menu]');
const sidebar = document.getElementById('ws-sidebar');
const scrim = document.querySelector('[data-ws-scrim]');

function setMenu(open, { focus = true } = {}) {
  if (!menuButton || !sidebar) return;
  menuButton.setAttribute('aria-expanded', String(open));
  sidebar.classList.toggle('is-open', open);
  if (scrim) scrim.hidden = !open;
  if (open && focus) sidebar.querySelector('a, button')?.focus();
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
  button.addEventListener('click', () => {
    button.disabled = true;
    void signOut();
  });
}

// The choice is kept in the `lang` cookie by the link itself and in the profile here, so it
// follows the user to other devices.
for (const link of document.querySelectorAll('.lang-toggle a[hreflang]')) {
  link.addEventListener('click', async (event) => {
    const language = link.getAttribute('hreflang');
    if (!me || language === me.language) return;
    event.preventDefault();
    try {
      await call('PATCH', '/api/auth/me', { language });
    } catch {
      // The page still switches; the profile keeps its old choice until the next toggle.
    }
    window.location.assign(link.href);
  });
}

if (me && !me.onboardingCompleted && context.user && document.querySelector('.ws-shell')) {
  const { startTour } = await import('./tour.js');
  startTour({ openMenu, closeMenu });
}
