// The Settings page (administrators): seasons, users and their access, CSV import.
// Every delete goes through the confirmation modal; errors are shown beside the field.
import { api, ApiError } from '../core/api.js';
import { element } from '../core/dom.js';
import { openModal } from '../core/modal.js';
import { cell, formatDate, formatPercent, signInAgainOn401, t, tn } from './common.js';

const sections = {
  seasons: document.getElementById('seasons'),
  users: document.getElementById('users'),
  import: document.getElementById('import'),
};

function say(section, message, kind = 'success') {
  const status = section.querySelector('[data-status]');
  status.textContent = message;
  status.dataset.kind = kind;
}

function setFieldError(input, message) {
  const error = document.getElementById(`${input.id}-error`);
  error.textContent = message ?? '';
  error.hidden = !message;
  input.setAttribute('aria-invalid', message ? 'true' : 'false');
}

function setFormError(form, message) {
  const error = form.querySelector('[data-form-error]');
  error.textContent = message ?? '';
  error.hidden = !message;
}

/** Marks each problem on its field and focuses the first one; true when there is none. */
function report(form, problems) {
  let first = null;
  for (const input of form.querySelectorAll('input[id], select[id]')) {
    if (!document.getElementById(`${input.id}-error`)) continue;
    const message = problems[input.name];
    setFieldError(input, message);
    if (message && !first) first = input;
  }
  first?.focus();
  return first === null;
}

function showTable(section, count) {
  section.querySelector('[data-table]').hidden = count === 0;
  section.querySelector('[data-empty]').hidden = count > 0;
}

/** Deletes a season or a user after the confirmation modal; `kind` names its strings, section and API. */
function confirmDelete(kind, record, removed) {
  return openModal({
    title: t(`settings.${kind}.deleteTitle`),
    message: t(`settings.${kind}.deleteMessage`, { name: record.name }),
    danger: true,
    confirmText: t(`settings.${kind}.delete`),
    returnFocus: () => document.getElementById(`${kind}-title`),
    onConfirm: async () => {
      try {
        await api('DELETE', `/api/${kind}/${record.id}`);
      } catch (err) {
        // Someone else removed it already: the outcome is the one wanted.
        if (!(err instanceof ApiError && err.status === 404)) throw err;
      }
      removed();
      say(sections[kind], t(`settings.${kind}.deleted`, { name: record.name }));
    },
  });
}

function rowButton(label, accessibleName, className, onClick) {
  const button = element('button', { type: 'button', className: `button button-small ${className}`, 'aria-label': accessibleName, text: label });
  button.addEventListener('click', onClick);
  return button;
}

/**
 * The Edit and Delete buttons of a season's or a user's row (and any `extra` ones before
 * Delete), named after the record for screen readers.
 */
function actionsCell(kind, record, editLabel, edit, removed, extra = []) {
  const name = record.name;
  return cell(
    element('div', { className: 'row-actions' }, [
      rowButton(t(editLabel), t(`settings.${kind}.editNamed`, { name }), '', edit),
      ...extra,
      rowButton(t(`settings.${kind}.delete`), t(`settings.${kind}.deleteNamed`, { name }), 'button-danger-quiet', () => confirmDelete(kind, record, removed)),
    ]),
    'actions-col',
  );
}

// ## Seasons

let seasons = [];

function seasonProblems({ name, startDate, endDate }) {
  const problems = {};
  if (!name.trim()) problems.name = t('settings.seasons.nameRequired');
  if (!startDate) problems.startDate = t('settings.seasons.dateRequired');
  if (!endDate) problems.endDate = t('settings.seasons.dateRequired');
  else if (startDate && endDate < startDate) problems.endDate = t('settings.seasons.endBeforeStart');
  return problems;
}

function renderSeasons() {
  seasons.sort((a, b) => a.startDate.localeCompare(b.startDate) || a.name.localeCompare(b.name));
  sections.seasons.querySelector('[data-rows]').replaceChildren(
    ...seasons.map((season) =>
      element('tr', { 'data-season-id': season.id }, [
        element('th', { scope: 'row', text: season.name }),
        cell(formatDate(season.startDate)),
        cell(formatDate(season.endDate), 'date-end'),
        actionsCell('seasons', season, 'settings.seasons.edit', () => editSeason(season), () => {
          seasons = seasons.filter((s) => s.id !== season.id);
          renderSeasons();
        }),
      ]),
    ),
  );
  showTable(sections.seasons, seasons.length);
}

function editSeason(season) {
  return openModal({
    title: t('settings.seasons.editTitle'),
    confirmText: t('settings.seasons.save'),
    fields: [
      { name: 'name', label: t('settings.seasons.name'), value: season.name, required: true, maxlength: 200 },
      { name: 'startDate', label: t('settings.seasons.start'), type: 'date', value: season.startDate, required: true },
      { name: 'endDate', label: t('settings.seasons.end'), type: 'date', value: season.endDate, required: true },
    ],
    onConfirm: async ({ values, setFieldError: markField, setError }) => {
      const problems = seasonProblems(values);
      const fields = Object.keys(problems);
      if (fields.length) {
        for (const field of fields.reverse()) markField(field, problems[field]);
        return false;
      }
      try {
        const { season: saved } = await api('PATCH', `/api/seasons/${season.id}`, { name: values.name.trim(), startDate: values.startDate, endDate: values.endDate });
        seasons = seasons.map((s) => (s.id === saved.id ? saved : s));
      } catch (err) {
        if (signInAgainOn401(err)) return false;
        setError(t('settings.seasons.saveFailed'));
        return false;
      }
      renderSeasons();
      say(sections.seasons, t('settings.seasons.updated', { name: values.name.trim() }));
      return true;
    },
  });
}

const seasonForm = document.getElementById('season-form');
seasonForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  setFormError(seasonForm, '');
  const values = Object.fromEntries(new FormData(seasonForm));
  if (!report(seasonForm, seasonProblems(values))) return;
  const button = seasonForm.querySelector('[type="submit"]');
  button.disabled = true;
  try {
    const { season } = await api('POST', '/api/seasons', { name: values.name.trim(), startDate: values.startDate, endDate: values.endDate });
    seasons.push(season);
    renderSeasons();
    seasonForm.reset();
    say(sections.seasons, t('settings.seasons.created', { name: season.name }));
  } catch (err) {
    if (!signInAgainOn401(err)) setFormError(seasonForm, t('settings.seasons.saveFailed'));
  } finally {
    button.disabled = false;
  }
});

// ## Users

let users = [];
const known = { museums: [], channels: [] };
let pickerCount = 0;

const ACCESS = {
  museums: { all: 'allMuseums', only: 'onlyMuseums', count: 'museumCount', legend: 'museumAccess', pick: 'pickMuseum' },
  channels: { all: 'allChannels', only: 'onlyChannels', count: 'channelCount', legend: 'channelAccess', pick: 'pickChannel' },
};

/** The restriction badge: [] is everything, null (an unreadable list) is nothing. */
function accessBadge(kind, list) {
  const words = ACCESS[kind];
  if (list === null) return element('span', { className: 'badge badge-danger', 'data-badge': kind, text: t('settings.users.noAccess') });
  if (list.length === 0) return element('span', { className: 'badge badge-success', 'data-badge': kind, text: t(`settings.users.${words.all}`) });
  return element('span', { className: 'badge badge-warning', 'data-badge': kind, title: list.join(', '), text: tn(`settings.users.${words.count}`, list.length) });
}

/**
 * "All" or "only these" for one access list. Choosing "only these" with nothing ticked
 * would send [], which means everything, so it is refused before it is sent.
 */
function accessPicker(kind, selected) {
  const words = ACCESS[kind];
  const id = `access-${kind}-${++pickerCount}`;
  const restricted = selected === null || selected.length > 0;
  const chosen = new Set(selected ?? []);
  const values = [...new Set([...known[kind], ...chosen])].sort((a, b) => a.localeCompare(b));
  const all = element('input', { type: 'radio', id: `${id}-all`, name: `${id}-mode`, value: 'all', checked: !restricted });
  const only = element('input', { type: 'radio', id: `${id}-only`, name: `${id}-mode`, value: 'only', checked: restricted });
  const boxes = values.map((value, i) => element('input', { type: 'checkbox', id: `${id}-${i}`, value, checked: chosen.has(value) }));
  const options = element(
    'div',
    { className: 'access-options' },
    boxes.length
      ? boxes.map((box) => element('label', { className: 'check', for: box.id }, [box, element('span', { text: box.value })]))
      : element('p', { className: 'muted', text: t('settings.users.noOptions') }),
  );
  const error = element('p', { className: 'field-error', id: `${id}-error`, hidden: true });
  const fieldset = element('fieldset', { className: 'access-picker', 'data-access-picker': kind, 'aria-describedby': error.id }, [
    element('legend', { text: t(`settings.users.${words.legend}`) }),
    element('div', { className: 'access-modes' }, [
      element('label', { className: 'check', for: all.id }, [all, element('span', { text: t(`settings.users.${words.all}`) })]),
      element('label', { className: 'check', for: only.id }, [only, element('span', { text: t(`settings.users.${words.only}`) })]),
    ]),
    options,
    error,
  ]);
  const sync = () => {
    options.hidden = !only.checked;
    for (const box of boxes) box.disabled = !only.checked;
    error.hidden = true;
  };
  fieldset.addEventListener('change', sync);
  sync();
  return {
    element: fieldset,
    value: () => (only.checked ? boxes.filter((b) => b.checked).map((b) => b.value) : []),
    validate() {
      const ok = !only.checked || boxes.some((b) => b.checked);
      error.textContent = ok ? '' : t(`settings.users.${words.pick}`);
      error.hidden = ok;
      if (!ok) (boxes[0] ?? only).focus();
      return ok;
    },
  };
}

function roleName(role) {
  return t(`role.${role === 'admin' ? 'admin' : 'viewer'}`);
}

/** The role badge, and beside it a warning when the user's PIN is shorter than new PINs may be. */
function roleCell(user) {
  const role = element('span', { className: `badge ${user.role === 'admin' ? 'badge-role-admin' : 'badge-muted'}`, text: roleName(user.role) });
  if (!user.weakPin) return cell(role);
  const weak = element('span', { className: 'badge badge-warning', 'data-weak-pin': '', title: t('settings.users.weakPinTitle'), text: t('settings.users.weakPin') });
  return cell(element('div', { className: 'badge-row' }, [role, weak]));
}

function renderUsers() {
  users.sort((a, b) => a.name.localeCompare(b.name));
  sections.users.querySelector('[data-rows]').replaceChildren(
    ...users.map((user) =>
      element('tr', { 'data-user-id': user.id }, [
        element('th', { scope: 'row', text: user.name }),
        roleCell(user),
        cell(accessBadge('museums', user.allowedMuseums)),
        cell(accessBadge('channels', user.allowedChannels)),
        actionsCell(
          'users',
          user,
          'settings.users.editAccess',
          () => editUser(user),
          () => {
            users = users.filter((u) => u.id !== user.id);
            renderUsers();
          },
          [rowButton(t('settings.users.newPin'), t('settings.users.newPinNamed', { name: user.name }), '', () => confirmNewPin(user))],
        ),
      ]),
    ),
  );
  showTable(sections.users, users.length);
}

/**
 * Shows a PIN the server made, the only time it is ever shown, with a button that copies
 * it; where the clipboard is out of reach (a page not served over HTTPS), the PIN is
 * selected so that it can be copied by hand.
 */
function showPin(name, pin) {
  const value = element('span', { className: 'pin-value', dir: 'ltr', 'data-pin': '', text: pin });
  const status = element('p', { className: 'form-status', role: 'status' });
  const copy = element('button', { type: 'button', className: 'button', text: t('settings.users.copyPin') });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(pin);
      status.textContent = t('settings.users.copied');
    } catch {
      getSelection()?.selectAllChildren(value);
      status.textContent = t('settings.users.copyFailed');
    }
  });
  return openModal({
    title: t('settings.users.pinShownTitle', { name }),
    message: t('settings.users.pinShownMessage', { name }),
    isConfirm: false,
    confirmText: t('settings.users.pinShownDone'),
    content: element('div', { className: 'pin-reveal' }, [element('span', { className: 'field-label', text: t('settings.users.pinShownLabel') }), value, copy, status]),
    returnFocus: () => document.getElementById('users-title'),
  });
}

function confirmNewPin(user) {
  let made = null;
  return openModal({
    title: t('settings.users.newPinTitle', { name: user.name }),
    message: t('settings.users.newPinMessage', { name: user.name }),
    confirmText: t('settings.users.newPinConfirm'),
    returnFocus: () => document.getElementById('users-title'),
    onConfirm: async ({ setError }) => {
      try {
        made = await api('POST', `/api/users/${user.id}/pin`, {});
      } catch (err) {
        if (!signInAgainOn401(err)) setError(t('settings.users.newPinFailed'));
        return false;
      }
      replaceUser(made.user);
      say(sections.users, t('settings.users.newPinDone', { name: made.user.name }));
      return true;
    },
  }).then(({ confirmed }) => (confirmed && made ? showPin(made.user.name, made.pin) : undefined));
}

function replaceUser(saved) {
  users = users.map((u) => (u.id === saved.id ? saved : u));
  renderUsers();
}

function editUser(user) {
  const museums = accessPicker('museums', user.allowedMuseums);
  const channels = accessPicker('channels', user.allowedChannels);
  return openModal({
    title: t('settings.users.editTitle', { name: user.name }),
    confirmText: t('settings.users.save'),
    fields: [
      {
        name: 'role',
        label: t('settings.users.role'),
        type: 'select',
        value: user.role === 'admin' ? 'admin' : 'viewer',
        options: ['viewer', 'admin'].map((role) => ({ value: role, label: roleName(role) })),
      },
    ],
    content: element('div', { className: 'access-grid access-grid-modal' }, [museums.element, channels.element]),
    onConfirm: async ({ values, setError }) => {
      const valid = [channels.validate(), museums.validate()].every(Boolean);
      if (!valid) return false;
      try {
        const { user: saved } = await api('PATCH', `/api/users/${user.id}`, {
          role: values.role,
          allowedMuseums: museums.value(),
          allowedChannels: channels.value(),
        });
        replaceUser(saved);
        say(sections.users, t('settings.users.updated', { name: saved.name }));
        return true;
      } catch (err) {
        if (!signInAgainOn401(err)) setError(t('settings.users.saveFailed'));
        return false;
      }
    },
  });
}

const userForm = document.getElementById('user-form');
let addPickers;

function mountAddPickers() {
  addPickers = { museums: accessPicker('museums', []), channels: accessPicker('channels', []) };
  userForm.querySelector('[data-access-pickers]').replaceChildren(addPickers.museums.element, addPickers.channels.element);
}

userForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  setFormError(userForm, '');
  const values = Object.fromEntries(new FormData(userForm));
  const problems = {};
  if (!values.name.trim()) problems.name = t('settings.users.nameRequired');
  if (values.pin !== '' && !/^\d{6,12}$/.test(values.pin)) problems.pin = t('settings.users.pinInvalid');
  if (!report(userForm, problems)) return;
  if (![addPickers.museums.validate(), addPickers.channels.validate()].every(Boolean)) return;
  const button = userForm.querySelector('[type="submit"]');
  button.disabled = true;
  try {
    const { user, pin } = await api('POST', '/api/users', {
      name: values.name.trim(),
      ...(values.pin === '' ? {} : { pin: values.pin }),
      role: values.role,
      allowedMuseums: addPickers.museums.value(),
      allowedChannels: addPickers.channels.value(),
    });
    users.push(user);
    renderUsers();
    userForm.reset();
    mountAddPickers();
    say(sections.users, t('settings.users.created', { name: user.name }));
    if (pin) await showPin(user.name, pin);
  } catch (err) {
    if (signInAgainOn401(err)) return;
    const pin = document.getElementById('user-pin');
    if (err instanceof ApiError && (err.status === 409 || err.status === 429)) {
      setFieldError(pin, t(err.status === 409 ? 'settings.users.pinTaken' : 'settings.users.pinThrottled'));
      pin.focus();
    } else setFormError(userForm, t('settings.users.saveFailed'));
  } finally {
    button.disabled = false;
  }
});

document.getElementById('user-pin').addEventListener('input', (event) => {
  event.target.value = event.target.value.replace(/\D+/g, '');
});

async function loadKnownValues() {
  try {
    const filters = await api('GET', '/api/dashboard/filters');
    known.museums = filters.museums;
    known.channels = filters.channels;
  } catch (err) {
    if (signInAgainOn401(err)) return;
  }
  mountAddPickers();
}

// ## Import

const importForm = document.getElementById('import-form');
const fileInput = document.getElementById('import-file');
const progressBox = importForm.querySelector('[data-progress]');
const progress = document.getElementById('import-progress');
const progressText = importForm.querySelector('[data-progress-text]');
const errorsBox = importForm.querySelector('[data-import-errors]');

const fileName = document.getElementById('import-file-name');
function showFileName() {
  fileName.textContent = fileInput.files[0]?.name ?? fileName.dataset.noFile;
}
fileInput.addEventListener('change', () => {
  showFileName();
  setFieldError(fileInput, '');
});

function showImportErrors(errors) {
  errorsBox.hidden = errors.length === 0;
  errorsBox.querySelector('tbody').replaceChildren(
    ...errors.map((e) => element('tr', {}, [cell(String(e.line ?? ''), 'num'), cell(element('code', { text: e.field ?? '' })), cell(e.message ?? '')])),
  );
}

/** XMLHttpRequest rather than fetch: only it reports upload progress. */
function upload(file) {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/dashboard/import');
    xhr.setRequestHeader('Content-Type', 'text/csv');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (!event.lengthComputable) return;
      const percent = Math.round((event.loaded / event.total) * 100);
      progress.value = percent;
      progressText.textContent = t('settings.import.uploading', { percent: formatPercent(percent / 100) });
    });
    xhr.upload.addEventListener('load', () => {
      // The bytes are sent; the server now validates and stores them, for an unknown time.
      progress.removeAttribute('value');
      progressText.textContent = t('settings.import.processing');
    });
    xhr.addEventListener('load', () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    });
    xhr.addEventListener('error', () => resolve({ status: 0, body: null }));
    xhr.send(file);
  });
}

importForm.addEventListener('submit', async (event) => {
  event.preventDefault();
  say(sections.import, '');
  showImportErrors([]);
  const file = fileInput.files[0];
  if (!file) {
    setFieldError(fileInput, t('settings.import.chooseFile'));
    fileInput.focus();
    return;
  }
  setFieldError(fileInput, '');
  const button = importForm.querySelector('[type="submit"]');
  button.disabled = true;
  progress.value = 0;
  progressText.textContent = '';
  progressBox.hidden = false;
  const { status, body } = await upload(file);
  progressBox.hidden = true;
  button.disabled = false;
  if (status === 200 || status === 201) {
    importForm.reset();
    showFileName();
    // The imported rows may bring new museums and channels to choose from: offered before the news.
    await loadKnownValues();
    say(sections.import, tn('settings.import.done', body?.imported ?? 0));
    return;
  }
  if (signInAgainOn401(new ApiError(status, body))) return;
  const errors = body?.details?.errors;
  if (status === 400 && Array.isArray(errors)) {
    say(sections.import, '', 'error');
    showImportErrors(errors);
    errorsBox.querySelector('[role="region"]').focus();
    return;
  }
  say(sections.import, t(status === 413 ? 'settings.import.tooLarge' : 'settings.import.error'), 'error');
});

async function start() {
  const [seasonList, userList] = await Promise.all([
    api('GET', '/api/seasons').catch((err) => (signInAgainOn401(err) ? null : { seasons: [] })),
    api('GET', '/api/users').catch((err) => (signInAgainOn401(err) ? null : { users: [] })),
    loadKnownValues(),
  ]);
  seasons = seasonList?.seasons ?? [];
  users = userList?.users ?? [];
  renderSeasons();
  renderUsers();
}

start();
