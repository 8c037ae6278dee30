import { api } from '../core/api.js';

for (const button of document.querySelectorAll('[data-dashboard-logout]')) {
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await api('POST', '/auth/logout');
    } finally {
      window.location.assign('/dashboard/login');
    }
  });
}
