// The Settings page (administrators): seasons, users and their access, CSV import.
// Every delete goes through the confirmation modal; errors are shown beside the field, in the
// page's language: the server's error codes are translated here, its English never shown.
import { call } from './common.js';
import './settings-import.js';
import { showSeasons } from './settings-seasons.js';
import { loadKnownValues, showUsers } from './settings-users.js';

async function start() {
  try {
    const [seasonList, userList] = await Promise.all([
      /** @type {Promise<{ seasons: import('./settings-seasons.js').Season[] }>} */ (call('GET', '/api/seasons')).catch(() => ({ seasons: [] })),
      /** @type {Promise<{ users: import('./settings-users.js').User[] }>} */ (call('GET', '/api/users')).catch(() => ({ users: [] })),
      loadKnownValues(),
    ]);
    showSeasons(seasonList.seasons);
    showUsers(userList.users);
  } finally {
    // Shown whatever happened: a section that could not load says so itself.
    document.getElementById('main')?.setAttribute('aria-busy', 'false');
  }
}

await start();
