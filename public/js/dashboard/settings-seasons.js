// Settings: the seasons, named periods of the year that filters and comparisons name.
import { element, requireElement } from '../core/dom.js';
import { formatDate } from '../core/format.js';
import { formFeedback } from '../core/forms.js';
import { t } from '../core/i18n.js';
import { openModal } from '../core/modal.js';
import { call, cell, errorText } from './common.js';
import { actionsCell, formValues, report, say, sections, showTable } from './settings-sections.js';

/** @typedef {{ id: number, name: string, startDate: string, endDate: string }} Season */
/** @typedef {Pick<Season, 'name' | 'startDate' | 'endDate'>} SeasonValues */

/** @type {Season[]} */
let seasons = [];

/**
 * @param {SeasonValues} values
 * @returns {Record<string, string>}
 */
function seasonProblems({ name, startDate, endDate }) {
  /** @type {Record<string, string>} */
  const problems = {};
  if (!name.trim()) problems.name = t('settings.seasons.nameRequired');
  if (!startDate) problems.startDate = t('settings.seasons.dateRequired');
  if (!endDate) problems.endDate = t('settings.seasons.dateRequired');
  else if (startDate && endDate < startDate) problems.endDate = t('settings.seasons.endBeforeStart');
  return problems;
}

function renderSeasons() {
  seasons.sort((a, b) => a.startDate.localeCompare(b.startDate) || a.name.localeCompare(b.name));
  requireElement('[data-rows]', HTMLElement, sections.seasons).replaceChildren(
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

/** @param {Season} season */
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
      const edited = { name: values.name, startDate: values.startDate, endDate: values.endDate };
      const problems = seasonProblems(edited);
      const fields = Object.keys(problems);
      if (fields.length) {
        for (const field of fields.reverse()) markField(field, problems[field]);
        return false;
      }
      try {
        const { season: saved } = /** @type {{ season: Season }} */ (
          await call('PATCH', `/api/seasons/${season.id}`, { name: edited.name.trim(), startDate: edited.startDate, endDate: edited.endDate })
        );
        seasons = seasons.map((s) => (s.id === saved.id ? saved : s));
      } catch (err) {
        setError(errorText(err, 'settings.seasons.saveFailed'));
        return false;
      }
      renderSeasons();
      say(sections.seasons, t('settings.seasons.updated', { name: edited.name.trim() }));
      return true;
    },
  });
}


const seasonForm = requireElement('#season-form', HTMLFormElement);
const seasonFeedback = formFeedback(seasonForm);

/** @param {SeasonValues} values */
async function addSeason(values) {
  const button = requireElement('[type="submit"]', HTMLButtonElement, seasonForm);
  button.disabled = true;
  try {
    const { season } = /** @type {{ season: Season }} */ (await call('POST', '/api/seasons', { name: values.name.trim(), startDate: values.startDate, endDate: values.endDate }));
    seasons.push(season);
    renderSeasons();
    seasonForm.reset();
    say(sections.seasons, t('settings.seasons.created', { name: season.name }));
  } catch (err) {
    seasonFeedback.error(errorText(err, 'settings.seasons.saveFailed'));
  } finally {
    button.disabled = false;
  }
}

seasonForm.addEventListener('submit', (event) => {
  event.preventDefault();
  seasonFeedback.error('');
  const form = formValues(seasonForm);
  const values = { name: form.name ?? '', startDate: form.startDate ?? '', endDate: form.endDate ?? '' };
  if (report(seasonForm, seasonProblems(values))) void addSeason(values);
});

/**
 * Shows the seasons the page loaded.
 * @param {Season[]} list
 */
export function showSeasons(list) {
  seasons = list;
  renderSeasons();
}
